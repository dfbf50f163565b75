/** Integration: the HTTP side (health, JSON API, analytics beacons, the static site and its head tags). */
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../shared/pages';
import { dailyKey, TOTAL_HANDS_DEALT } from './analytics';
import { hasRedisServer, PrivateRedis } from './scale-out/private-redis';
import { fakeWebDir, getJson, sleep, startServer, type TestServer } from './test-helpers';

const hasRedis = hasRedisServer();
if (!hasRedis) console.warn('[http] /readyz with a frozen Redis SKIPPED: no redis-server binary on PATH');

let server: TestServer;
let webDir: string;

/** A raw GET (fetch would decompress and hide the encoding). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes `text` on a new connection; resolves with what came back within `ms` (and whether it closed). */
function rawExchange(port: number, text: string, ms = 2000): Promise<{ reply: string; closed: boolean }> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ reply, closed: false });
    }, ms);
    socket.on('data', (d: Buffer) => {
      reply += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ reply, closed: true });
    });
  });
}

beforeAll(async () => {
  webDir = fakeWebDir();
  server = await startServer({
    webDir,
    env: { CONTACT_EMAIL: 'hello@chipless.test', SUPPORT_URL: 'https://support.chipless.test/' },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('JSON API', () => {
  it('GET /healthz answers ok', async () => {
    expect(await getJson(server.url, '/healthz')).toEqual({ status: 200, body: { ok: true } });
  });

  it('GET /readyz answers ok, and 503 once the server is shutting down', async () => {
    expect(await getJson(server.url, '/readyz')).toEqual({ status: 200, body: { ok: true } });
    expect((await rawGet(`${server.url}/readyz`, {})).status).toBe(200);
    const other = await startServer();
    // A request under way when the stop begins (a balancer's probe on a kept-alive connection).
    const socket = connect(other.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let reply = '';
    socket.on('data', (d: Buffer) => {
      reply += d.toString('latin1');
    });
    socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n');
    await sleep(50);
    const stopped = other.close();
    socket.write('\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    await stopped;
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).toBe('{"ok":false,"reason":"shutting down"}');
  });

  it.skipIf(!hasRedis)(
    'with Redis, GET /readyz answers 503 within about a second while Redis is frozen, and ok once it resumes',
    async () => {
      const redis = new PrivateRedis(['--save', '', '--appendonly', 'no']);
      await redis.start();
      const other = await startServer({
        roomThread: false,
        env: { STORE: 'redis', REDIS_URL: redis.url, SESSION_SECRET: 'a-secret-of-32-characters-------' },
      });
      try {
        expect(await getJson(other.url, '/readyz')).toEqual({ status: 200, body: { ok: true } });
        redis.signal('SIGSTOP');
        const started = Date.now();
        expect(await getJson(other.url, '/readyz')).toEqual({
          status: 503,
          body: { ok: false, reason: 'store not answering' },
        });
        expect(Date.now() - started).toBeLessThan(1500);
        expect((await getJson(other.url, '/healthz')).status).toBe(200);
        redis.signal('SIGCONT');
        expect(await getJson(other.url, '/readyz')).toEqual({ status: 200, body: { ok: true } });
      } finally {
        redis.signal('SIGCONT');
        await other.close();
        await redis.dispose();
      }
    },
  );

  it('GET /api/stats answers the all-time hands dealt', async () => {
    expect(await getJson(server.url, '/api/stats')).toEqual({ status: 200, body: { totalHandsDealt: 0 } });
    await server.store.increment({ [TOTAL_HANDS_DEALT]: 42 });
    expect(await getJson(server.url, '/api/stats')).toEqual({ status: 200, body: { totalHandsDealt: 42 } });
  });

  it('GET /api/config answers the contact e-mail and support link', async () => {
    expect(await getJson(server.url, '/api/config')).toEqual({
      status: 200,
      body: { contactEmail: 'hello@chipless.test', supportUrl: 'https://support.chipless.test/' },
    });
  });

  it('unknown API paths are 404 JSON; wrong methods 405', async () => {
    expect((await getJson(server.url, '/api/nope')).status).toBe(404);
    expect((await fetch(`${server.url}/api/stats`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${server.url}/api/analytics/visit`)).status).toBe(405);
  });

  it('a request target that is no URL is a 400, not a 500 (regression)', async () => {
    for (const target of ['http://[', 'http://x:99999/']) {
      const { reply } = await rawExchange(
        server.port,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    }
  });

  it('a body over the limit is refused at once, without waiting for the rest of it (regression)', async () => {
    // 100 MB announced, 2 KB sent: the answer must not wait for (nor read) the other 99.99 MB.
    const head = (length: string) =>
      `POST /api/analytics/visit HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;
    const announced = await rawExchange(server.port, head('100000000') + 'x'.repeat(2048));
    expect(announced.reply.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(announced.closed).toBe(true);
    // Chunked, no length announced: refused once the chunks pass the limit.
    const chunked = await rawExchange(
      server.port,
      'POST /api/analytics/session HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `800\r\n${'x'.repeat(2048)}\r\n`,
    );
    expect(chunked.reply.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(chunked.closed).toBe(true);
    // The server goes on.
    expect((await getJson(server.url, '/healthz')).status).toBe(200);
  });

  it('POST /api/analytics/visit counts page visits and new sessions', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/api/analytics/visit`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ sessionId: 's1', newSession: true })).status).toBe(204);
    expect((await post({ sessionId: 's1', newSession: false })).status).toBe(204);
    expect((await post({ sessionId: 's1' })).status).toBe(400);
    expect((await post('x'.repeat(5000))).status).toBe(413);
    const today = Date.now();
    const counters = await server.store.readCounters([
      dailyKey(today, 'page_visits'),
      'all_time_stats/total_page_visits',
      dailyKey(today, 'sessions/count'),
      'all_time_stats/sessions/count',
    ]);
    expect(Object.values(counters)).toEqual([2, 2, 1, 1]);
  });

  it('POST /api/analytics/session adds whole minutes (text/plain bodies from sendBeacon too)', async () => {
    const res = await fetch(`${server.url}/api/analytics/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ sessionId: 's1', minutes: 12 }),
    });
    expect(res.status).toBe(204);
    const bad = await fetch(`${server.url}/api/analytics/session`, {
      method: 'POST',
      body: JSON.stringify({ sessionId: 's1', minutes: 1.5 }),
    });
    expect(bad.status).toBe(400);
    expect(
      (await server.store.readCounters(['all_time_stats/sessions/totalMinutes']))[
        'all_time_stats/sessions/totalMinutes'
      ],
    ).toBe(12);
  });

  it('behind a trusted proxy, beacons are limited per real client: a forged left-most X-Forwarded-For does not escape', async () => {
    const proxied = await startServer({ env: { TRUST_PROXY: 'true' } });
    try {
      const beacon = (forwardedFor: string) =>
        fetch(`${proxied.url}/api/analytics/session`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': forwardedFor },
          body: JSON.stringify({ sessionId: 's1', minutes: 1 }),
        }).then((r) => r.status);
      const statuses = [];
      // 60 a minute per IP; the client rotates its own entry, the proxy appends the same real address.
      for (let i = 0; i < 61; i++) statuses.push(await beacon(`10.0.${i >> 8}.${i & 255}, 198.51.100.7`));
      expect(statuses.filter((s) => s === 204)).toHaveLength(60);
      expect(statuses[60]).toBe(429);
      expect(await beacon('10.0.0.0, 198.51.100.8')).toBe(204);
    } finally {
      await proxied.close();
    }
  });
});

describe('static site', () => {
  for (const page of Object.values(PAGES)) {
    it(`${page.path} is the app with its own title, description and absolute canonical link`, async () => {
      const res = await fetch(`${server.url}${page.path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      const esc = (s: string) => s.replace(/&/g, '&#38;').replace(/'/g, '&#39;').replace(/"/g, '&#34;');
      expect(html).toContain(`<title>${esc(page.title)}</title>`);
      expect(html).toContain(`<meta name="description" content="${esc(page.description)}" />`);
      expect(html).toContain(`<link rel="canonical" href="${server.url}${page.path}" />`);
      expect(html).not.toContain('Placeholder');
      expect(html).not.toContain('placeholder.invalid');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain('<div id="root"></div>');
    });
  }

  it('/about/ (trailing slash) is /about', async () => {
    const html = await (await fetch(`${server.url}/about/`)).text();
    expect(html).toContain(`<link rel="canonical" href="${server.url}/about" />`);
  });

  it('PUBLIC_URL makes the canonical link', async () => {
    const other = await startServer({ webDir, env: { PUBLIC_URL: 'https://chipless.example/' } });
    try {
      const html = await (await fetch(`${other.url}/faq`)).text();
      expect(html).toContain('<link rel="canonical" href="https://chipless.example/faq" />');
    } finally {
      await other.close();
    }
  });

  it('a forged Host header cannot inject markup', async () => {
    const res = await rawGet(`${server.url}/about`, { Host: 'evil"><script>x</script>' });
    expect(res.body.toString()).not.toContain('<script>x');
  });

  it("behind a trusted proxy, the canonical origin is the proxy's X-Forwarded-Host/-Proto (right-most), not a client-forged left-most one", async () => {
    const proxied = await startServer({ webDir, env: { TRUST_PROXY: 'true' } });
    try {
      const res = await rawGet(`${proxied.url}/about`, {
        // The client sent the first entries; the proxy appended the real host and protocol last.
        'X-Forwarded-Host': 'evil.example, chipless.example',
        'X-Forwarded-Proto': 'https, http',
      });
      const html = res.body.toString();
      expect(html).toContain('<link rel="canonical" href="http://chipless.example/about" />');
      expect(html).not.toContain('evil.example');
      // A proxy that sets one value is read as before.
      const single = await rawGet(`${proxied.url}/faq`, {
        'X-Forwarded-Host': 'chipless.example',
        'X-Forwarded-Proto': 'https',
      });
      expect(single.body.toString()).toContain(
        '<link rel="canonical" href="https://chipless.example/faq" />',
      );
    } finally {
      await proxied.close();
    }
  });

  it('pages and files carry a CSP (no inline script, no framing), X-Frame-Options, Referrer-Policy and nosniff', async () => {
    for (const path of [
      '/',
      '/about',
      '/no/such/page',
      '/assets/index-abc123.js',
      '/robots.txt',
      '/missing.png',
    ]) {
      const res = await rawGet(`${server.url}${path}`);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('default-src'), path).toEqual(["'self'"]);
      expect(directives.get('script-src'), path).toEqual(["'self'"]);
      expect(directives.get('style-src'), path).toEqual(["'self'"]);
      expect(directives.get('object-src'), path).toEqual(["'none'"]);
      expect(directives.get('base-uri'), path).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors'), path).toEqual(["'none'"]);
      // The socket: 'self', and the page's own ws: origin for browsers whose 'self' does not cover ws:.
      expect(directives.get('connect-src'), path).toEqual(["'self'", `ws://127.0.0.1:${server.port}`]);
      expect(csp, path).not.toContain('unsafe');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['referrer-policy'], path).toBe('same-origin');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('API answers forbid framing and sniffing too; so do 405 and 400 answers', async () => {
    const api = await rawGet(`${server.url}/api/config`);
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    const put = await fetch(`${server.url}/`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('x-content-type-options')).toBe('nosniff');
    expect(put.headers.get('x-frame-options')).toBe('DENY');
  });

  it('hashed assets are cached for a year; compressed with brotli or gzip when asked', async () => {
    const plain = await rawGet(`${server.url}/assets/index-abc123.js`);
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const br = await rawGet(`${server.url}/assets/index-abc123.js`, {
      'Accept-Encoding': 'gzip, deflate, br',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(plain.body);
    expect(br.body.length).toBeLessThan(plain.body.length);
    const gz = await rawGet(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body)).toEqual(plain.body);
  });

  it('other files are served revalidated; missing files 404; paths cannot escape the web dir', async () => {
    const robots = await rawGet(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
    expect((await rawGet(`${server.url}/assets/missing.js`)).status).toBe(404);
    expect((await rawGet(`${server.url}/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await rawGet(`${server.url}/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
  });

  it('unknown routes get the app with status 404 (its own not-found view)', async () => {
    const res = await fetch(`${server.url}/no/such/page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<div id="root"></div>');
  });

  it('HEAD works like GET without a body', async () => {
    const res = await fetch(`${server.url}/about`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('without a built web app, pages answer 503 and the API still works', async () => {
    const bare = await startServer({ webDir: '/nonexistent-chipless-web' });
    try {
      expect((await fetch(`${bare.url}/`)).status).toBe(503);
      expect((await getJson(bare.url, '/healthz')).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
