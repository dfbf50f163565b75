import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every unit and integration test. Projects keep the environments apart:
 * pure code and the server run in Node, React components in happy-dom.
 * Browser end-to-end tests have their own config (vitest.e2e.config.ts, `npm run test:e2e`).
 */
/** Server suites that spawn server processes (the 'server-processes' project). */
const PROCESS_SUITES = [
  'src/server/main.test.ts',
  'src/server/scale-out/*.test.ts',
  'src/server/store/disk-full.test.ts',
];

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/engine/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts'],
          exclude: PROCESS_SUITES,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The heavy suites (DESIGN.md: in their own project): each starts the server as processes of its
        // own, as `npm start` does (the composition root, the compiled build, two processes sharing
        // Redis, SIGKILL mid-stream, a full disk). ~40 s of the run; `--project server` is quick without them.
        extends: true,
        test: {
          name: 'server-processes',
          include: PROCESS_SUITES,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The integration suites again with the rooms on the room thread (thread-rooms.ts), as `npm start`
        // runs them in SQLite mode; the 'server' project runs them on the event loop's thread, as Redis
        // mode does. A suite that gives startServer a store or a clock stays on the event loop's thread.
        extends: true,
        test: {
          name: 'server-room-thread',
          include: [
            'src/server/{game,lobby,malformed,restart,connection,http,cleanup,lookup-limit,slow-consumer}.test.ts',
            'src/server/fuzz/*.test.ts',
          ],
          env: { TEST_ROOM_THREAD: '1' },
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['src/web/test/setup.ts'],
        },
      },
    ],
  },
});
