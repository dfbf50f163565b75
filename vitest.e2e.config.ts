import { defineConfig } from 'vitest/config';

/** `npm run test:e2e`: Playwright (playwright-core) driving Debian's Chromium against the real `npm start` server. */
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
