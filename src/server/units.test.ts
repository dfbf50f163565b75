/** Unit tests of the server's small pure parts: identity tokens, token buckets, config, analytics mapping. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../engine';
import { countersForEvents, dailyKey, TOTAL_HANDS_DEALT } from './analytics';
import { ConfigError, loadConfig, readOrCreateSecretFile } from './config';
import { createIdentity } from './identity';
import { createLogger } from './logger';
import { clientIp, ipLimitKey, KeyedRateLimiter, onUntrustedForwardedFor, TokenBucket } from './rate-limit';
import { randomRoomCode } from './room-service';
import { escapeHtml, injectPageMeta } from './static-site';

/** A real logger at info whose JSON lines a test reads (once the writes it made have landed). */
function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const logger = createLogger('info', stream);
  return {
    logger,
    lines: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return lines.map((l) => [l.level, l.msg] as const);
    },
  };
}
const INFO = 30;
const ERROR = 50;

describe('identity', () => {
  const identity = createIdentity('a-test-secret-of-some-length');

  it('issues tokens that verify to their player id', () => {
    const creds = identity.issue();
    expect(identity.read(creds.token)).toEqual(creds);
    expect(identity.credentialsFor(creds.playerId)).toEqual(creds);
  });

  it('rejects tokens signed with another secret, tampered ones and junk', () => {
    const creds = identity.issue();
    const other = createIdentity('another-secret-entirely-123');
    expect(other.read(creds.token)).toBeNull();
    expect(identity.read(`x${creds.token}`)).toBeNull();
    expect(identity.read(`${creds.token.slice(0, -2)}AA`)).toBeNull();
    for (const junk of [undefined, null, 42, {}, '', '.', 'abc', 'a.b.c', 'x'.repeat(1000)]) {
      expect(identity.read(junk)).toBeNull();
    }
  });

  it('accepts only the exact token it issued: no padding, stray characters or other spellings of the signature', () => {
    const creds = identity.issue();
    const dot = creds.token.lastIndexOf('.');
    const [id, sig] = [creds.token.slice(0, dot), creds.token.slice(dot + 1)];
    const spellings = [
      `${creds.token}=`,
      `${creds.token}==`,
      `${creds.token} `,
      `${id}.${sig.slice(0, 10)}!${sig.slice(10)}`,
      `${id}.${sig.slice(0, 10)}\n${sig.slice(10)}`,
      // base64url's last character carries 2 unused bits: 3 other characters decode to the same bytes.
      ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']
        .filter((c) => c !== sig.at(-1))
        .map((c) => `${id}.${sig.slice(0, -1)}${c}`),
    ];
    for (const token of spellings) expect(identity.read(token), JSON.stringify(token)).toBeNull();
    expect(identity.read(creds.token)).toEqual(creds);
  });

  it("room-scoped credentials name the link they were claimed with; those made before links were named read as ''", () => {
    const pid = identity.issue().playerId;
    const scoped = identity.seatCredentials('ABCDE', pid, 'AbCdEfGhIj_');
    expect(scoped).toEqual({
      playerId: pid,
      token: expect.stringMatching(/^ABCDE:.*:AbCdEfGhIj_\./),
      room: 'ABCDE',
    });
    expect(identity.read(scoped.token)).toEqual({ ...scoped, link: 'AbCdEfGhIj_' });
    // Session 42's shape, `<room>:<player>.<signature>` signed without a link: still the seat's until it
    // is claimed again (the engine's heldByLink), so a phone holding one across the upgrade keeps it.
    const legacy = identity.seatCredentials('ABCDE', pid, '');
    expect(legacy.token).toMatch(new RegExp(`^ABCDE:${pid}\\.[A-Za-z0-9_-]{43}$`));
    expect(identity.read(legacy.token)).toEqual({ ...legacy, link: '' });
    // One signature is never the other's: the link dropped, added or changed is a forgery.
    const sig = (token: string) => token.slice(token.lastIndexOf('.') + 1);
    expect(identity.read(`ABCDE:${pid}.${sig(scoped.token)}`)).toBeNull();
    expect(identity.read(`ABCDE:${pid}:AbCdEfGhIj_.${sig(legacy.token)}`)).toBeNull();
    expect(identity.read(`ABCDE:${pid}:AbCdEfGhIjX.${sig(scoped.token)}`)).toBeNull();
  });
});

describe('rate limits', () => {
  it('a token bucket allows a burst, then the refill rate', () => {
    const b = new TokenBucket(2, 4, 0);
    expect([1, 2, 3, 4, 5].map(() => b.take(0))).toEqual([true, true, true, true, false]);
    expect(b.take(499)).toBe(false);
    expect(b.take(500)).toBe(true);
    expect(b.take(500)).toBe(false);
    expect(b.isFull(10_000)).toBe(true);
  });

  it('a keyed limiter keeps one bucket per key and forgets full ones', () => {
    const l = new KeyedRateLimiter(1, 2);
    expect([l.take('a', 0), l.take('a', 0), l.take('a', 0), l.take('b', 0)]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(l.size).toBe(2);
    l.sweep(60_000);
    expect(l.size).toBe(0);
  });
});

describe('client IP (the key of per-IP limits)', () => {
  const peer = '10.0.0.2';
  const behindProxy = (xff: string | string[] | undefined) =>
    clientIp({ 'x-forwarded-for': xff }, peer, true);

  it('behind a trusted proxy: the right-most X-Forwarded-For entry, the one the proxy appended', () => {
    expect(behindProxy('203.0.113.7')).toBe('203.0.113.7');
    // Everything left of it is what the client (or proxies nobody vouches for) wrote.
    expect(behindProxy('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(behindProxy('1.1.1.1, 198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(behindProxy('2001:db8::1, 2001:db8:0:7::2')).toBe('2001:db8:0:7::/64');
  });

  it('spaces around entries do not matter', () => {
    expect(behindProxy('198.51.100.1,203.0.113.7')).toBe('203.0.113.7');
    expect(behindProxy('  198.51.100.1 ,   203.0.113.7  ')).toBe('203.0.113.7');
    expect(behindProxy('\t203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('empty entries: only the right-most counts; when it is empty, the peer address', () => {
    expect(behindProxy('198.51.100.1, , 203.0.113.7')).toBe('203.0.113.7');
    // A client's empty header with the proxy's entry appended (nginx: "$http_x_forwarded_for, $remote_addr").
    expect(behindProxy(', 203.0.113.7')).toBe('203.0.113.7');
    // No entry from the proxy: never fall back to the client's own entries.
    expect(behindProxy('198.51.100.1, ')).toBe(peer);
    expect(behindProxy('198.51.100.1,')).toBe(peer);
    expect(behindProxy(' , ')).toBe(peer);
    expect(behindProxy('')).toBe(peer);
  });

  it('several header lines: the right-most entry of the last one', () => {
    expect(behindProxy(['198.51.100.1', '203.0.113.7'])).toBe('203.0.113.7');
    expect(behindProxy(['198.51.100.1, 198.51.100.2', '1.1.1.1, 203.0.113.7'])).toBe('203.0.113.7');
    expect(behindProxy([])).toBe(peer);
  });

  it('IPv6 clients are counted by their /64 network, IPv4 ones by their address', () => {
    // One household or phone may use any address of its /64: one bucket for all of them.
    expect(ipLimitKey('2001:db8:1:2:aaaa:bbbb:cccc:1')).toBe('2001:db8:1:2::/64');
    expect(ipLimitKey('2001:0DB8:0001:0002::ffff')).toBe('2001:db8:1:2::/64');
    expect(ipLimitKey('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(ipLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(ipLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(ipLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipLimitKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    // IPv4, also as a dual-stack listener sees it, and what is not an address: as they are.
    expect(ipLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipLimitKey('::ffff:127.0.0.1')).toBe('::ffff:127.0.0.1');
    expect(ipLimitKey('unknown')).toBe('unknown');
    expect(clientIp({}, '2001:db8:1:2::9', false)).toBe('2001:db8:1:2::/64');
  });

  it('no header: the peer address (or "unknown" when the socket has none)', () => {
    expect(behindProxy(undefined)).toBe(peer);
    expect(clientIp({}, peer, true)).toBe(peer);
    expect(clientIp({}, undefined, true)).toBe('unknown');
  });

  it('without TRUST_PROXY the header is ignored: the peer address', () => {
    expect(clientIp({ 'x-forwarded-for': '203.0.113.7' }, peer, false)).toBe(peer);
    expect(clientIp({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }, peer, false)).toBe(peer);
    expect(clientIp({}, undefined, false)).toBe('unknown');
  });

  it("an X-Forwarded-For header without TRUST_PROXY is told once per process (every phone may share a proxy's address)", () => {
    let told = 0;
    onUntrustedForwardedFor(() => told++);
    try {
      clientIp({}, peer, false);
      clientIp({ 'x-forwarded-for': '203.0.113.7' }, peer, true);
      expect(told).toBe(0);
      expect(clientIp({ 'x-forwarded-for': '203.0.113.7' }, peer, false)).toBe(peer);
      expect(told).toBe(1);
      clientIp({ 'x-forwarded-for': '198.51.100.1' }, peer, false);
      clientIp({ 'x-forwarded-for': '' }, peer, false);
      expect(told).toBe(1);
    } finally {
      onUntrustedForwardedFor(undefined);
    }
  });
});

describe('config', () => {
  it('defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      store: 'sqlite',
      roomIdleMs: 600_000,
      playingIdleMs: 43_200_000,
      cleanupIntervalMs: 300_000,
      logLevel: 'info',
      contactEmail: 'hello@chipless.app',
      supportUrl: '/about#support',
      publicUrl: undefined,
      sessionSecret: undefined,
      trustProxy: false,
      joinRatePerMin: 10,
      joinRatePerIpPerMin: 60,
      failedLookupRatePerMin: 20,
      heapGrowingPercent: 150,
      helperThreadsNice: 10,
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('parses and validates', () => {
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://x.example/', TRUST_PROXY: 'true' })).toMatchObject(
      {
        port: 8080,
        publicUrl: 'https://x.example',
        trustProxy: true,
      },
    );
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORE: 'mongo' })).toThrow(/STORE/);
    expect(() => loadConfig({ STORE: 'redis' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ SESSION_SECRET: '' }).sessionSecret).toBeUndefined();
    expect(loadConfig({ FAILED_LOOKUP_RATE_PER_MIN: '5' }).failedLookupRatePerMin).toBe(5);
    expect(() => loadConfig({ FAILED_LOOKUP_RATE_PER_MIN: '0' })).toThrow(/FAILED_LOOKUP_RATE_PER_MIN/);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '5000' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(loadConfig({ HELPER_THREADS_NICE: '0' }).helperThreadsNice).toBe(0);
    expect(loadConfig({ HELPER_THREADS_NICE: '19' }).helperThreadsNice).toBe(19);
    expect(() => loadConfig({ HELPER_THREADS_NICE: '20' })).toThrow(/HELPER_THREADS_NICE/);
    expect(() => loadConfig({ HELPER_THREADS_NICE: '-1' })).toThrow(/HELPER_THREADS_NICE/);
  });

  it('an empty number is unset (its default), and numbers are decimal digits only', () => {
    const c = loadConfig({ PORT: '', HEAP_GROWING_PERCENT: ' ', HELPER_THREADS_NICE: '', ROOM_IDLE_MS: '' });
    expect([c.port, c.heapGrowingPercent, c.helperThreadsNice, c.roomIdleMs]).toEqual([
      3000, 150, 10, 600_000,
    ]);
    expect(loadConfig({ PORT: ' 8080 ' }).port).toBe(8080);
    for (const bad of ['0x10', '1e3', '3.5', '+1', 'abc'])
      expect(() => loadConfig({ PORT: bad })).toThrow(/PORT/);
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ PUBLIC_URL: 'http://x.example' }).publicUrl).toBe('http://x.example');
    // Past what Node's timers take, the cleanup interval would fire every 1 ms; the idle time has the same
    // bound (24.8 days, far past any poker night).
    expect(loadConfig({ CLEANUP_INTERVAL_MS: '2147483647' }).cleanupIntervalMs).toBe(2_147_483_647);
    expect(() => loadConfig({ CLEANUP_INTERVAL_MS: '3000000000' })).toThrow(/CLEANUP_INTERVAL_MS/);
    expect(() => loadConfig({ ROOM_IDLE_MS: '3000000000' })).toThrow(/ROOM_IDLE_MS/);
    expect(() => loadConfig({ PLAYING_IDLE_MS: '0' })).toThrow(/PLAYING_IDLE_MS/);
    // A game in progress is never kept for less than any room.
    expect(loadConfig({ ROOM_IDLE_MS: '900000', PLAYING_IDLE_MS: '60000' }).playingIdleMs).toBe(900_000);
  });

  it('PUBLIC_URL is an origin only: a path, query or fragment stops the start naming it', () => {
    for (const [url, origin] of [
      ['https://chipless.example', 'https://chipless.example'],
      ['https://chipless.example/', 'https://chipless.example'],
      ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['http://[::1]:8080/', 'http://[::1]:8080'],
      // As browsers write the origin: lower-case host, no default port.
      ['HTTPS://Chipless.Example:443', 'https://chipless.example'],
    ])
      expect(loadConfig({ PUBLIC_URL: url }).publicUrl, url).toBe(origin);
    for (const url of [
      'https://chipless.example/poker',
      'https://chipless.example/poker/',
      'https://chipless.example//',
      'https://chipless.example/?a=1',
      'https://chipless.example?a=1',
      'https://chipless.example#top',
      'https://chipless.example/#',
      'https://user:pass@chipless.example',
    ])
      expect(() => loadConfig({ PUBLIC_URL: url }), url).toThrow(/PUBLIC_URL: must be an origin only/);
  });

  it('SUPPORT_URL and CONTACT_EMAIL, rendered as links, must be an http(s) URL or a same-site path and a plain address', () => {
    for (const url of [
      '/about#support',
      '/go?to=https://support.example',
      'https://support.example/x?y=1',
      'http://x.example',
      'HTTPS://SUPPORT.EXAMPLE',
      '',
    ])
      expect(loadConfig({ SUPPORT_URL: url }).supportUrl).toBe(url);
    for (const url of [
      'javascript:alert(document.domain)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/phish',
      '/\\evil.example',
      '/about support',
      '/about\\support',
      'ftp://x.example',
      'about',
      'https:support.example',
      ' https://support.example',
      'http://',
    ])
      expect(() => loadConfig({ SUPPORT_URL: url }), url).toThrow(/SUPPORT_URL/);
    for (const email of ['hello@chipless.app', 'a.b+c@x-y.example', ''])
      expect(loadConfig({ CONTACT_EMAIL: email }).contactEmail).toBe(email);
    for (const email of [
      'a@x.example?cc=b@evil.example',
      'a@x.example&body=hi',
      'a b@x.example',
      'no-at-sign',
      'a@x.example\nbcc:b@y',
      '@x.example',
      'a?cc=b@x.example',
      'a@x.example?',
      'a@.example',
      'a@example.',
    ])
      expect(() => loadConfig({ CONTACT_EMAIL: email }), email).toThrow(/CONTACT_EMAIL/);
  });

  it('the generated session secret is created once and kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chipless-secret-'));
    try {
      const a = readOrCreateSecretFile(dir);
      expect(a.length).toBeGreaterThanOrEqual(32);
      expect(readOrCreateSecretFile(dir)).toBe(a);
      writeFileSync(join(dir, 'session-secret'), 'short\n');
      expect(() => readOrCreateSecretFile(dir)).toThrow(ConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a generated session secret is logged at info; generated beside a stored database, an error says what was lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chipless-secret-'));
    const file = join(dir, 'session-secret');
    const database = join(dir, 'chipless.sqlite');
    try {
      const first = capturedLogger();
      readOrCreateSecretFile(dir, { logger: first.logger });
      expect(await first.lines()).toEqual([[INFO, `generated a new session secret at ${file}`]]);
      // Kept: nothing to say on the next starts, database or not.
      readOrCreateSecretFile(dir, { logger: first.logger, storedDatabase: database });
      expect(await first.lines()).toHaveLength(1);

      // The secret lost while the rooms' database stays: every stored room's phones lose their seats.
      rmSync(file);
      const lost = capturedLogger();
      readOrCreateSecretFile(dir, { logger: lost.logger, storedDatabase: database });
      expect(existsSync(file)).toBe(true);
      expect(await lost.lines()).toEqual([
        [INFO, `generated a new session secret at ${file}`],
        [
          ERROR,
          `generated a new session secret at ${file}, but ${database} already exists: the phones of the rooms stored there can no longer resume their seats (their tokens were signed with the lost secret). Stop the server, restore ${file} from a backup of DATA_DIR (or, if SESSION_SECRET was set when they were made, set it again), and start again.`,
        ],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('analytics mapping', () => {
  const now = Date.UTC(2026, 10, 21, 23, 59);

  it('counts host commands only', () => {
    expect(countersForEvents([{ type: 'gameStarted' }], false, now)).toEqual({});
  });

  it('maps events to the spec counters', () => {
    expect(dailyKey(now, 'games_started')).toBe('daily_analytics/2026-11-21/games_started');
    expect(
      countersForEvents(
        [
          { type: 'gameStarted' },
          { type: 'handStarted', handNumber: 1, dealerId: 'a' },
          { type: 'playerApproved', playerId: 'b', name: 'B' },
          { type: 'playerApproved', playerId: 'c', name: 'C' },
          { type: 'rebuy', playerId: 'b', name: 'B', amount: 100 },
          { type: 'handCompleted', handNumber: 1 },
          { type: 'gameEnded', endedBy: 'a' },
          { type: 'stageChanged', stage: 'FLOP' },
        ],
        true,
        now,
      ),
    ).toEqual({
      'daily_analytics/2026-11-21/games_started': 1,
      'daily_analytics/2026-11-21/hands_completed': 1,
      [TOTAL_HANDS_DEALT]: 1,
      'daily_analytics/2026-11-21/players_joined': 2,
      'daily_analytics/2026-11-21/rebuys_processed': 1,
      'daily_analytics/2026-11-21/games_ended': 1,
    });
  });

  it("takes back an undone New Hand's and rebuy's +1, and nothing for other undone commands", () => {
    const undone = (first: GameEvent): GameEvent => ({ type: 'undone', undoneSeq: 7, first });
    expect(
      countersForEvents(
        [
          undone({ type: 'handStarted', handNumber: 4, dealerId: 'a' }),
          undone({ type: 'rebuy', playerId: 'b', name: 'B', amount: 100 }),
          undone({ type: 'stageChanged', stage: 'FLOP' }),
        ],
        true,
        now,
      ),
    ).toEqual({
      'daily_analytics/2026-11-21/hands_completed': -1,
      [TOTAL_HANDS_DEALT]: -1,
      'daily_analytics/2026-11-21/rebuys_processed': -1,
    });
  });
});

describe('room codes and page meta', () => {
  it('room codes are 5 characters of A-Z0-9', () => {
    for (let i = 0; i < 200; i++) expect(randomRoomCode()).toMatch(/^[A-Z0-9]{5}$/);
    // Never O, 0, I or 1 (read and typed as one another), in 2,000 codes of all 32 characters.
    const seen = new Set(Array.from({ length: 2_000 }, () => randomRoomCode()).join(''));
    expect([...seen].sort().join('')).toBe('23456789ABCDEFGHJKLMNPQRSTUVWXYZ');
  });

  it('injects head tags even when index.html has none', () => {
    const html = injectPageMeta(
      '<html><head></head><body></body></html>',
      { path: '/faq', title: 'A & "B"', description: '<d>' },
      'https://x/faq',
    );
    expect(html).toContain('<title>A &#38; &#34;B&#34;</title>');
    expect(html).toContain('<meta name="description" content="&#60;d&#62;" />');
    expect(html).toContain('<link rel="canonical" href="https://x/faq" />');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });
});
