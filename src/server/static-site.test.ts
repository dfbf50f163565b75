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

describe('static site: the file cache', () => {
  it('a file rebuilt while the server runs replaces its entry: its old bytes no longer count', async () => {
    writeAsset('app.txt', 'A'.repeat(60), 1_000);
    expect(await fetchText('/assets/app.txt')).toBe('A'.repeat(60));
    for (const [i, letter] of ['B', 'C', 'D'].entries()) {
      writeAsset('app.txt', letter.repeat(60), 2_000 + i);
      expect(await fetchText('/assets/app.txt')).toBe(letter.repeat(60));
    }
    // Changed on disk without a new time: a cached file is served from memory, as it was. With the
    // old bytes counted (60 + 60 > 100) the rebuilt file was never cached, and this read the disk.
    writeAsset('app.txt', 'E'.repeat(60), 2_002);
    expect(await fetchText('/assets/app.txt')).toBe('D'.repeat(60));
  });

  it('a deleted file leaves no entry, so another file fits in its place', async () => {
    writeAsset('old.txt', 'F'.repeat(60), 3_000);
    rmSync(join(webDir, 'assets', 'app.txt'));
    expect((await fetch(`${base}/assets/app.txt`)).status).toBe(404);
    expect(await fetchText('/assets/old.txt')).toBe('F'.repeat(60));
    writeAsset('old.txt', 'G'.repeat(60), 3_000);
    expect(await fetchText('/assets/old.txt')).toBe('F'.repeat(60));
  });
});
