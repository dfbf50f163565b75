import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/**
 * A phone that sits in a room fetches the room's screens while the first page's JavaScript is still
 * on its way (src/web/README.md, "Budget"). The in-room screens (lobby, table, game over) are chunks of
 * their own, loaded after the entry has arrived and run (`preloadRoomScreens` in Home.tsx); on a slow
 * network that is the entry's whole download and start-up later than it could be, every time a phone
 * that slept or reloaded opens the app again, the case this app is used in most.
 *
 * The build writes a tiny classic script, loaded `async` from `index.html` before the entry, that adds
 * `<link rel="modulepreload">` for those chunks and what they import when this browser remembers a room
 * (the room code's key in localStorage). It is a file and not an inline script because the
 * Content-Security-Policy allows scripts from the site only (`static-site.ts`). A first visit fetches
 * 0.3 KB more and nothing else.
 */

/** What the plugin needs of a chunk in Rollup's (and Rolldown's) output bundle. */
export interface BundleChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

/** An output file of the bundle: a chunk, or an asset (index.html, CSS, images). */
export type BundleFile = BundleChunk | { type: 'asset'; fileName: string; source: string | Uint8Array };

/**
 * The chunk files of `screens` (module paths, matched by their end) and the chunks they import, less
 * what the entry loads anyway. Throws when a screen has no chunk of its own (it was folded into the
 * entry, or renamed): the build must not ship a preload list that quietly lists nothing.
 */
export function roomScreenFiles(bundle: Record<string, BundleFile>, screens: readonly string[]): string[] {
  const chunks = Object.values(bundle).filter((f): f is BundleChunk => f.type === 'chunk');
  const loadedByEntry = new Set<string>();
  const addTo = (set: Set<string>, fileName: string, skip: Set<string>) => {
    if (set.has(fileName) || skip.has(fileName)) return;
    set.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk') for (const imported of chunk.imports) addTo(set, imported, skip);
  };
  for (const entry of chunks.filter((c) => c.isEntry)) addTo(loadedByEntry, entry.fileName, new Set());
  const files = new Set<string>();
  for (const screen of screens) {
    const chunk = chunks.find((c) => !c.isEntry && c.facadeModuleId?.endsWith(screen));
    if (!chunk) throw new Error(`room-preload: no chunk of its own for ${screen}`);
    addTo(files, chunk.fileName, loadedByEntry);
  }
  return [...files];
}

/**
 * The script's text: ES5 for the oldest phones, and silent where storage is blocked. Its links say
 * where they came from (`data-room-preload`); Vite's own preload, when the entry imports a screen,
 * adds no second link for the same file.
 */
export function roomPreloadScript(files: readonly string[], storageKey: string): string {
  const hrefs = JSON.stringify(files.map((f) => `/${f}`));
  return (
    '(function(){try{' +
    `if(!localStorage.getItem(${JSON.stringify(storageKey)}))return;` +
    `${hrefs}.forEach(function(h){var l=document.createElement("link");` +
    'l.rel="modulepreload";l.crossOrigin="";l.href=h;l.setAttribute("data-room-preload","");' +
    'document.head.appendChild(l)})' +
    '}catch(e){}})();\n'
  );
}

/** The Vite plugin: writes the script into `assets/` and loads it from `index.html`. */
export function roomPreload(options: { screens: readonly string[]; storageKey: string }): Plugin {
  return {
    name: 'chipless:room-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_output, bundle) {
      const files = roomScreenFiles(bundle as unknown as Record<string, BundleFile>, options.screens);
      const source = roomPreloadScript(files, options.storageKey);
      const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
      const fileName = `assets/room-preload-${hash}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      const html = bundle['index.html'];
      if (html?.type !== 'asset' || typeof html.source !== 'string')
        throw new Error('room-preload: index.html is not in the bundle yet');
      const moduleScript = '<script type="module"';
      if (!html.source.includes(moduleScript))
        throw new Error('room-preload: no module script in index.html');
      html.source = html.source.replace(
        moduleScript,
        `<script async src="/${fileName}"></script>\n    ${moduleScript}`,
      );
    },
  };
}
