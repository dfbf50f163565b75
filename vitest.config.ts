import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every unit and integration test. Projects keep the environments apart:
 * pure code and the server run in Node, React components in happy-dom.
 * Browser end-to-end tests have their own config (vitest.e2e.config.ts, `npm run test:e2e`).
 */
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
        },
      },
    ],
  },
});
