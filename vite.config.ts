import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The web app lives in src/web and builds to dist/web, which the server serves. */
export default defineConfig(({ command }) => {
  // A build is always React's production build. Vite takes production from NODE_ENV when it is set,
  // and a build run under a test runner (Vitest sets NODE_ENV=test: the e2e suite's build, a server a
  // test starts building the app it lacks) or from a shell with NODE_ENV=development made React's
  // development build (~60% more code, StrictMode's double effects), which `npm start` then served
  // from dist/web. Vite reads NODE_ENV for that after loading this file.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: 'src/web',
    publicDir: 'public',
    plugins: [react()],
    build: {
      outDir: '../../dist/web',
      emptyOutDir: true,
      target: 'es2022',
    },
    server: {
      proxy: {
        '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
        '/api': 'http://127.0.0.1:3000',
        '/healthz': 'http://127.0.0.1:3000',
      },
    },
  };
});
