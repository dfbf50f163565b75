import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticSite } from './static-site';
import { fakeWebDir } from './test-helpers';

let webDir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  webDir = fakeWebDir();
  // Room for one 60-byte file, not two.
  const site = createStaticSite({ webDir, publicUrl: undefined, trustProxy: false, cacheLimitBytes: 100 });
  server = createServer((req, res) => void site(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(webDir, { recursive: true, force: true });
});

/** Writes the asset with the given modification time (seconds). */
function writeAsset(name: string, text: string, mtime: number): void {
  const file = join(webDir, 'assets', name);
  writeFileSync(file, text);
  utimesSync(file, mtime, mtime);
}

const fetchText = async (path: string) => (await fetch(`${base}${path}`)).text();

describe('static site: the file cache (room for one 60-byte file)', () => {
  // A file changed on disk without a new time is served as it was while cached, read anew when not:
  // what these tests see of the cache.
  it('a file rebuilt while the server runs replaces its entry: its old bytes no longer count', async () => {
    writeAsset('app.txt', 'A'.repeat(60), 1_000);
    expect(await fetchText('/assets/app.txt')).toBe('A'.repeat(60));
    for (const [i, letter] of ['B', 'C', 'D'].entries()) {
      writeAsset('app.txt', letter.repeat(60), 2_000 + i);
      expect(await fetchText('/assets/app.txt')).toBe(letter.repeat(60));
    }
    // With the old bytes counted (60 + 60 > 100) the rebuilt file was never cached, and this read the disk.
    writeAsset('app.txt', 'E'.repeat(60), 2_002);
    expect(await fetchText('/assets/app.txt')).toBe('D'.repeat(60));
  });

  it("a rebuild's new file names take the place of the old ones, which are never asked for again", async () => {
    writeAsset('index-aaa.js', 'F'.repeat(60), 3_000);
    expect(await fetchText('/assets/index-aaa.js')).toBe('F'.repeat(60));
    rmSync(join(webDir, 'assets', 'index-aaa.js'));
    writeAsset('index-bbb.js', 'G'.repeat(60), 3_001);
    expect(await fetchText('/assets/index-bbb.js')).toBe('G'.repeat(60));
    writeAsset('index-bbb.js', 'H'.repeat(60), 3_001);
    expect(await fetchText('/assets/index-bbb.js')).toBe('G'.repeat(60));
  });

  it('a deleted file asked for again leaves no entry', async () => {
    writeAsset('gone.txt', 'I'.repeat(60), 4_000);
    expect(await fetchText('/assets/gone.txt')).toBe('I'.repeat(60));
    rmSync(join(webDir, 'assets', 'gone.txt'));
    expect((await fetch(`${base}/assets/gone.txt`)).status).toBe(404);
    writeAsset('gone.txt', 'J'.repeat(60), 4_000);
    expect(await fetchText('/assets/gone.txt')).toBe('J'.repeat(60));
  });
});
