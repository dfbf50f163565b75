import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sourceStampPlugin, webSources, webStampFile } from './scripts/source-stamp.mjs';

const REPO_ROOT = fileURLToPath(new URL('.', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('dist/web', import.meta.url));

/**
 * The oldest browsers the web app supports (src/web/README.md, "Browser support"): the phones friends
 * bring to a poker night, down to an iPhone 7 (iOS 15) and a 2021 Android (Chrome 90, Samsung Internet
 * 15). Both the JS syntax and the CSS are built for them; src/web/browser-support.test.ts holds the
 * build to it (syntax, APIs beyond it, CSS fallbacks).
 */
export const BROWSER_FLOOR = ['safari15', 'ios15', 'chrome90', 'edge90', 'firefox90'];

/** The web app lives in src/web and builds to dist/web, which the server serves. */
export default defineConfig(({ command }) => {
  // A build is always React's production build. Vite takes production from NODE_ENV when it is set,
  // and a build run under a test runner (Vitest sets NODE_ENV=test: the e2e suite's build, a server a
  // test starts building the app it lacks) or from a shell with NODE_ENV=development made React's
  // development build (~60% more code, StrictMode's double effects), which `npm start` then served
  // from dist/web. Vite reads NODE_ENV for that after loading this file.
  if (command === 'build') process.env.NODE_ENV = 'production';
  const api = `http://127.0.0.1:${process.env.PORT || '3000'}`;
  return {
    root: 'src/web',
    publicDir: 'public',
    // The stamp of the sources a build of dist/web was made from, beside it (dist/web-sources.txt),
    // which `npm start` and the e2e suite compare with the sources' now (src/server/web-build.ts).
    plugins: [
      react(),
      sourceStampPlugin({
        sources: () => webSources(REPO_ROOT),
        outDir: OUT_DIR,
        stampFile: webStampFile(OUT_DIR),
      }),
    ],
    build: {
      outDir: '../../dist/web',
      emptyOutDir: true,
      target: BROWSER_FLOOR,
      cssTarget: BROWSER_FLOOR,
      // The engine's modules are pure (no side effects on import): one whose exports the first page
      // does not use stays out of its JavaScript even though the engine's index re-exports it. Without
      // this, the table's award preview (applyCommand, src/web/game/award.ts) put the whole command
      // graph on the landing page: 117,866 bytes gzipped, over e2e/poker-night.test.ts's 110,000 budget
      // (e2e/README.md).
      rolldownOptions: { treeshake: { moduleSideEffects: (id: string) => !id.includes('/src/engine/') } },
    },
    server: {
      // `npm run dev`: the server's port, which it takes from PORT as `npm start` does (3000 unless set).
      proxy: {
        '/socket.io': { target: api, ws: true },
        '/api': api,
        '/healthz': api,
      },
    },
  };
});
