import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The web app lives in src/web and builds to dist/web, which the server serves. */
export default defineConfig({
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
});
