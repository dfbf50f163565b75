/**
 * Connections per IP (connection-limit.ts): open at once and opened a minute, on a real server over
 * real sockets (WebSocket and long-polling handshakes), and the counting itself against a stand-in engine.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { io as ioClient } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionLimit, type EngineConnection, TOO_MANY_CONNECTIONS } from './connection-limit';
import { okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer | undefined;
const clients: TestClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

/** What `attempt` gives for a connection the server refused (socket.io-client's connect_error). */
const REFUSED = 'refused';

/** Connects; resolves with the client, or REFUSED when the connection failed. */
async function attempt(url: string, transports = ['websocket']): Promise<TestClient | typeof REFUSED> {
  try {
    const c = await TestClient.connect(url, { transports });
    clients.push(c);
    return c;
  } catch {
    return REFUSED;
  }
}

/** A bare Engine.IO long-polling handshake: its status and body (a refusal says why). */
async function handshake(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
  return { status: res.status, body: await res.text() };
}

/** Resolves once `c`'s socket has been closed by the server (or after `ms`). */
function closedByServer(c: TestClient, ms = 2000): Promise<boolean> {
  if (!c.socket.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    c.socket.once('disconnect', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('connections open at once per IP', () => {
  it('refuses the connection over CONNECTIONS_PER_IP with "Too many connections", and takes one again once one closes', async () => {
    server = await startServer({ env: { CONNECTIONS_PER_IP: '3' } });
    const url = server.url;
    const open = [await attempt(url), await attempt(url, ['polling']), await attempt(url)];
    for (const c of open) expect(c).toBeInstanceOf(TestClient);
    expect(await attempt(url)).toBe(REFUSED);
    expect(await attempt(url, ['polling'])).toBe(REFUSED);
    expect(await handshake(url)).toEqual({
      status: 403,
      body: JSON.stringify({ code: 4, message: TOO_MANY_CONNECTIONS }),
    });
    // The three open ones still work.
    const host = open[0] as TestClient;
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    expect(okData(await (open[1] as TestClient).joinRoom(code, 'Gus', 5000)).version).toBe(2);

    (open[2] as TestClient).close();
    await sleep(100);
    const again = await attempt(url);
    expect(again).toBeInstanceOf(TestClient);
    expect(await attempt(url)).toBe(REFUSED);
    // A phone that comes back with its token gets its room again.
    (open[1] as TestClient).close();
    await sleep(100);
    const back = await TestClient.connect(url, { token: (open[1] as TestClient).token });
    clients.push(back);
    const resumed = okData(await back.resume(code));
    expect([resumed.version, resumed.presence[back.playerId]]).toEqual([2, true]);
  });

  it('ten connections opened at once with room for three: three get in, seven are refused', async () => {
    server = await startServer({ env: { CONNECTIONS_PER_IP: '3' } });
    const url = server.url;
    const results = await Promise.all(Array.from({ length: 10 }, () => attempt(url)));
    const inside = results.filter((r): r is TestClient => r instanceof TestClient);
    // An over-the-limit connection is refused at the handshake or closed right after it.
    const closed = await Promise.all(inside.map((c) => closedByServer(c, 300)));
    expect(inside.length - closed.filter(Boolean).length).toBe(3);
    expect(results.filter((r) => r === REFUSED).length + closed.filter(Boolean).length).toBe(7);
  });

  it('CONNECTIONS_PER_IP=0 is no limit', async () => {
    server = await startServer({ env: { CONNECTIONS_PER_IP: '0' } });
    const results = await Promise.all(Array.from({ length: 12 }, () => attempt(server!.url)));
    expect(results.filter((r) => r instanceof TestClient)).toHaveLength(12);
  });
});

describe('handshakes per minute per IP', () => {
  it('refuses handshakes past CONNECT_RATE_PER_IP_PER_MIN, then lets one in per refilled token', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({ now: () => t, env: { CONNECT_RATE_PER_IP_PER_MIN: '5' } });
    for (let i = 0; i < 5; i++) {
      const c = await attempt(server.url, i % 2 === 0 ? ['websocket'] : ['polling']);
      expect(c).toBeInstanceOf(TestClient);
      (c as TestClient).close();
    }
    expect(await attempt(server.url)).toBe(REFUSED);
    expect(await attempt(server.url, ['polling'])).toBe(REFUSED);
    expect((await handshake(server.url)).status).toBe(403);
    t += 12_000; // one token (5 a minute)
    expect(await attempt(server.url)).toBeInstanceOf(TestClient);
    expect(await attempt(server.url)).toBe(REFUSED);
  });

  it("a long-polling connection's polls and its upgrade to WebSocket are not handshakes", async () => {
    server = await startServer({ env: { CONNECT_RATE_PER_IP_PER_MIN: '1' } });
    // The web app's order: WebSocket first, long-polling when it fails; here long-polling upgrading.
    const socket = ioClient(server.url, {
      transports: ['polling', 'websocket'],
      reconnection: false,
      forceNew: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('session', () => resolve());
        socket.once('connect_error', reject);
      });
      await new Promise<void>((resolve) => {
        if (socket.io.engine.transport.name === 'websocket') resolve();
        else socket.io.engine.once('upgrade', () => resolve());
      });
      expect(socket.io.engine.transport.name).toBe('websocket');
      expect(socket.connected).toBe(true);
      expect(await attempt(server.url)).toBe(REFUSED);
    } finally {
      socket.disconnect();
    }
  });
});

/** One Engine.IO long-polling connection driven by hand: what a hand-made client can send. */
async function rawPolling(url: string) {
  const base = `${url}/socket.io/?EIO=4&transport=polling`;
  const { sid } = JSON.parse((await (await fetch(base)).text()).slice(1)) as { sid: string };
  const at = `${base}&sid=${sid}`;
  return {
    /** Sends Socket.IO packets ('40' = CONNECT to '/', '41' = DISCONNECT) in one POST. */
    send: async (...packets: string[]) =>
      (await fetch(at, { method: 'POST', body: packets.join('\x1e') })).status,
    /** Polls until `enough` says stop or the server closes the connection (a close packet or an error status). */
    async poll(enough: (packets: string[]) => boolean): Promise<{ packets: string[]; closed: boolean }> {
      const packets: string[] = [];
      const until = Date.now() + 3000;
      while (Date.now() < until && !enough(packets)) {
        const res = await fetch(at);
        if (res.status !== 200) return { packets, closed: true };
        for (const p of (await res.text()).split('\x1e')) {
          if (p === '1') return { packets, closed: true };
          // Engine.IO's own ping (2) and noop (6) are no Socket.IO packets.
          if (p !== '2' && p !== '6') packets.push(p);
        }
      }
      return { packets, closed: false };
    },
  };
}

const connects = (packets: string[]) => packets.filter((p) => /^40\{"sid"/.test(p)).length;
const sessions = (packets: string[]) => packets.filter((p) => p.startsWith('42["session"')).length;

describe('one Socket.IO socket per connection', () => {
  it('a second CONNECT while the first socket is live is refused before any identity is made, and the connection closed', async () => {
    server = await startServer();
    const conn = await rawPolling(server.url);
    // Many CONNECTs in one POST: Socket.IO made a socket, and a signed identity, of each.
    expect(await conn.send(...Array.from({ length: 200 }, () => '40'))).toBe(200);
    // Closed within the POST's own parsing, before the first socket's connection was even answered.
    const { packets, closed } = await conn.poll(() => false);
    expect([packets, closed]).toEqual([[], true]);
    expect(server.app.io.of('/').sockets.size).toBe(0);
    // A client that behaves gets in as before.
    const phone = await TestClient.connect(server.url);
    clients.push(phone);
    expect(okData(await phone.createRoom('Hana', 5000)).version).toBe(1);
  });

  it('a socket that disconnected may connect again on the same connection (a phone calling connect() again)', async () => {
    server = await startServer();
    const conn = await rawPolling(server.url);
    await conn.send('40');
    expect(connects((await conn.poll((p) => sessions(p) === 1)).packets)).toBe(1);
    await conn.send('41');
    await sleep(50);
    await conn.send('40');
    const again = await conn.poll((p) => sessions(p) === 1);
    expect([connects(again.packets), sessions(again.packets), again.closed]).toEqual([1, 1, false]);
  });
});

/** A stand-in for Engine.IO's server and connections: the two events the limit listens to. */
function fakeConnection(ip: string): EngineConnection & { closed: boolean; end(): void } {
  const events = new EventEmitter();
  const conn = {
    request: { headers: {}, socket: { remoteAddress: ip } } as unknown as IncomingMessage,
    closed: false,
    once: (event: 'close', listener: () => void) => events.once(event, listener),
    close() {
      conn.closed = true;
      events.emit('close');
    },
    end: () => events.emit('close'),
  };
  return conn;
}

describe('createConnectionLimit', () => {
  const ipOf = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';

  it('counts open connections per IP, closes the one over the limit, and forgets an IP with none left', () => {
    const engine = new EventEmitter();
    const limit = createConnectionLimit({
      maxOpenPerIp: 2,
      handshakesPerIpPerMin: 0,
      clientIp: ipOf,
      now: () => 0,
    });
    const stop = limit.attach(engine);
    const a = [fakeConnection('10.0.0.1'), fakeConnection('10.0.0.1'), fakeConnection('10.0.0.1')];
    const b = fakeConnection('10.0.0.2');
    for (const c of [...a, b]) engine.emit('connection', c);
    expect(a.map((c) => c.closed)).toEqual([false, false, true]);
    expect(b.closed).toBe(false);
    expect([limit.openFrom('10.0.0.1'), limit.openFrom('10.0.0.2'), limit.trackedIps]).toEqual([2, 1, 2]);

    const answers: Array<[string | null, boolean]> = [];
    limit.allowRequest(a[0]!.request, (err, ok) => answers.push([err, ok]));
    limit.allowRequest(b.request, (err, ok) => answers.push([err, ok]));
    expect(answers).toEqual([
      [TOO_MANY_CONNECTIONS, false],
      [null, true],
    ]);

    a[0]!.end();
    expect(limit.openFrom('10.0.0.1')).toBe(1);
    a[1]!.end();
    b.end();
    expect(limit.trackedIps).toBe(0);
    stop();
    engine.emit('connection', fakeConnection('10.0.0.1'));
    expect(limit.trackedIps).toBe(0);
  });
});
