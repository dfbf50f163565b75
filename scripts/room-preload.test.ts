import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type BundleFile, roomPreloadScript, roomScreenFiles } from './room-preload';

const chunk = (fileName: string, imports: string[], facade: string | null, isEntry = false): BundleFile => ({
  type: 'chunk',
  fileName,
  isEntry,
  facadeModuleId: facade,
  imports,
});

/** A bundle shaped like the app's: the entry, three screens sharing a chunk, a static page. */
const bundle: Record<string, BundleFile> = {
  'index.html': { type: 'asset', fileName: 'index.html', source: '<html></html>' },
  'assets/index-1.js': chunk('assets/index-1.js', ['assets/react-1.js'], '/app/src/web/main.tsx', true),
  'assets/react-1.js': chunk('assets/react-1.js', [], null),
  'assets/Lobby-1.js': chunk(
    'assets/Lobby-1.js',
    ['assets/view-1.js', 'assets/react-1.js'],
    '/app/src/web/screens/Lobby.tsx',
  ),
  'assets/Table-1.js': chunk(
    'assets/Table-1.js',
    ['assets/view-1.js', 'assets/texts-1.js'],
    '/app/src/web/screens/Table.tsx',
  ),
  'assets/view-1.js': chunk('assets/view-1.js', ['assets/texts-1.js'], null),
  'assets/texts-1.js': chunk('assets/texts-1.js', [], null),
  'assets/About-1.js': chunk('assets/About-1.js', ['assets/react-1.js'], '/app/src/web/pages/About.tsx'),
};

describe('roomScreenFiles: what a phone in a room fetches beside the entry', () => {
  it('the screens and everything they import, once each, less what the entry loads', () => {
    expect(roomScreenFiles(bundle, ['/screens/Lobby.tsx', '/screens/Table.tsx'])).toEqual([
      'assets/Lobby-1.js',
      'assets/view-1.js',
      'assets/texts-1.js',
      'assets/Table-1.js',
    ]);
  });

  it('refuses to build when a screen has no chunk of its own (renamed, or folded into the entry)', () => {
    expect(() => roomScreenFiles(bundle, ['/screens/Lobby.tsx', '/screens/GameOver.tsx'])).toThrow(
      'room-preload: no chunk of its own for /screens/GameOver.tsx',
    );
    expect(() => roomScreenFiles(bundle, ['/web/main.tsx'])).toThrow('no chunk of its own for /web/main.tsx');
  });
});

/** Runs the script in a page whose localStorage holds `stored`; what it added to the head. */
function runScript(stored: Record<string, string> | 'blocked') {
  const added: Record<string, string>[] = [];
  const document = {
    createElement: () => {
      const attrs: Record<string, string> = {};
      return {
        attrs,
        setAttribute: (k: string, v: string) => {
          attrs[k] = v;
        },
        set rel(v: string) {
          attrs.rel = v;
        },
        set href(v: string) {
          attrs.href = v;
        },
        set crossOrigin(v: string) {
          attrs.crossorigin = v;
        },
      };
    },
    head: { appendChild: (el: { attrs: Record<string, string> }) => added.push(el.attrs) },
  };
  const localStorage = {
    getItem: (key: string) => {
      if (stored === 'blocked') throw new Error('SecurityError');
      return stored[key] ?? null;
    },
  };
  runInNewContext(roomPreloadScript(['assets/Lobby-1.js', 'assets/Table-1.js'], 'chipless.roomCode'), {
    document,
    localStorage,
  });
  return added;
}

describe('roomPreloadScript: the script index.html loads', () => {
  it('a browser that remembers a room preloads the screens, marked as its own', () => {
    expect(runScript({ 'chipless.roomCode': 'ABCDE' })).toEqual([
      { rel: 'modulepreload', crossorigin: '', href: '/assets/Lobby-1.js', 'data-room-preload': '' },
      { rel: 'modulepreload', crossorigin: '', href: '/assets/Table-1.js', 'data-room-preload': '' },
    ]);
  });

  it('a first visit fetches nothing more; blocked storage is no error', () => {
    expect(runScript({ 'chipless.credentials': '{}' })).toEqual([]);
    expect(runScript('blocked')).toEqual([]);
  });
});
