// @vitest-environment node
/**
 * The room client against a real Socket.IO server on a random port: what it does when an answer
 * never comes on a connection that still looks alive.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionCredentials } from '../../shared/protocol';
import {
  ANSWER_TIMEOUT_MS,
  createRoomClient,
  NO_CONNECTION_ERROR,
  OFFLINE_TIMEOUT_MS,
  type RoomClientOptions,
} from './client';

let closeAll: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeAll?.();
  closeAll = null;
  vi.unstubAllGlobals();
});

/**
 * A server that answers every event but `command`, whose answers are lost (a dead connection's fate).
 * `refuseWebSockets`: its first that many WebSocket requests are answered 503 (a server still coming
 * up after a restart, or a network that just came back).
 */
async function silentServer({ refuseWebSockets = 0 } = {}) {
  const httpServer = createServer();
  const io = new Server(httpServer);
  const upgrade = httpServer.listeners('upgrade') as ((...args: unknown[]) => void)[];
  httpServer.removeAllListeners('upgrade');
  let refused = 0;
  httpServer.on('upgrade', (req, socket: Duplex, head) => {
    if (refused < refuseWebSockets) {
      refused++;
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    for (const listener of upgrade) listener(req, socket, head);
  });
  const connections: string[] = [];
  io.on('connection', (socket) => {
    connections.push(socket.id);
    socket.on('resume', (_req: unknown, ack: (res: unknown) => void) => ack({ ok: false, error: 'x' }));
    socket.on('command', () => {});
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return { io, url, connections };
}

/**
 * A room client of the test's server (`options.url` among the options), closed with the server after
 * the test; `connection` is told of each change of the connection.
 */
function clientOf(io: Server, options: RoomClientOptions, connection: (up: boolean) => void = () => {}) {
  const client = createRoomClient({ session: () => {}, room: () => {}, gone: () => {}, connection }, options);
  closeAll = async () => {
    client.close();
    await io.close();
  };
  return client;
}

const waitFor = async (check: () => boolean, ms = 3000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('room client', () => {
  it('a command unanswered on a socket that says it is connected: "No connection…", and it reconnects at once', async () => {
    const { io, url, connections } = await silentServer();
    const seen: boolean[] = [];
    const client = clientOf(io, { url, ackTimeoutMs: 200 }, (c) => seen.push(c));
    await waitFor(() => connections.length === 1);
    const res = await client.command('ABCDE', { type: 'startGame' });
    expect(res).toEqual({ ok: false, error: NO_CONNECTION_ERROR });
    // Without the forced close, Socket.IO would keep the silent connection until its heartbeat gave up.
    // The server sees the new connection before the client hears it is connected.
    await waitFor(() => connections.length === 2 && seen.length === 3);
    expect(seen).toEqual([true, false, true]);
  });

  it('opens with the WebSocket, so a bad link has no polling-to-WebSocket upgrade to time out', async () => {
    const { io, url, connections } = await silentServer();
    const transports: string[] = [];
    io.on('connection', (socket) => transports.push(socket.conn.transport.name));
    const _client = clientOf(io, { url });
    await waitFor(() => connections.length === 1);
    expect(transports).toEqual(['websocket']);
  });

  it('a WebSocket refused once (the server still coming up): in by polling, then on the WebSocket', async () => {
    // tryAllTransports falls back to polling when the WebSocket fails, and drops the WebSocket from the
    // connection's list, so without the fix the phone stayed on long-polling until its next
    // reconnection (a CI run's e2e/restart.test.ts found Ann's page with no WebSocket after a restart).
    const { io, url, connections } = await silentServer({ refuseWebSockets: 1 });
    const transports: string[] = [];
    const upgraded: string[] = [];
    io.on('connection', (socket) => {
      transports.push(socket.conn.transport.name);
      socket.conn.on('upgrade', (transport: { name: string }) => upgraded.push(transport.name));
    });
    const _client = clientOf(io, { url });
    await waitFor(() => connections.length === 1);
    expect(transports).toEqual(['polling']);
    await waitFor(() => upgraded.length === 1);
    expect(upgraded).toEqual(['websocket']);
    expect(connections).toHaveLength(1);
  });

  it('a network that blocks WebSockets: in by polling, and the failed upgrade leaves the connection alone', async () => {
    const { io, url, connections } = await silentServer({ refuseWebSockets: Number.POSITIVE_INFINITY });
    const transports: string[] = [];
    io.on('connection', (socket) => transports.push(socket.conn.transport.name));
    const seen: boolean[] = [];
    const client = clientOf(io, { url, ackTimeoutMs: 2000 }, (c) => seen.push(c));
    await waitFor(() => connections.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(transports).toEqual(['polling']);
    expect(connections).toHaveLength(1);
    expect(seen).toEqual([true]);
    expect(await client.resume('ABCDE')).toEqual({ ok: false, error: 'x' });
  });

  it('a page put in the back/forward cache closes its connection, and opens it again when it comes back (the history audit)', async () => {
    const { io, url, connections } = await silentServer();
    const open = () => io.of('/').sockets.size;
    const page = new EventTarget();
    const transition = (type: string, persisted: boolean) =>
      page.dispatchEvent(Object.assign(new Event(type), { persisted }));
    const seen: boolean[] = [];
    const client = clientOf(io, { url, page }, (c) => seen.push(c));
    // Both ends: the server sees the connection before the client hears it is connected.
    await waitFor(() => open() === 1 && seen.length === 1);
    // A page unloaded for good is not kept: nothing to do (the browser closes it).
    transition('pagehide', false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(open()).toBe(1);
    // Back to the chat: the page is kept, frozen. The server sees the player go at once.
    transition('pagehide', true);
    await waitFor(() => open() === 0);
    expect(seen).toEqual([true, false]);
    // Forward: the page comes back, connected again, and its requests are answered.
    transition('pageshow', true);
    await waitFor(() => open() === 1 && seen.length === 3);
    expect(seen).toEqual([true, false, true]);
    expect(connections).toHaveLength(2);
    expect(await client.resume('ABCDE')).toEqual({ ok: false, error: 'x' });
    // Closed for good: a later pageshow opens nothing.
    client.close();
    transition('pagehide', true);
    transition('pageshow', true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(open()).toBe(0);
  });

  it('a request made while the first connection is still coming up waits for its answer, not the offline timeout', async () => {
    const { io, url, connections } = await silentServer();
    // The first connection takes 400 ms to come up (a bad link's round trips), past the offline wait.
    io.use((_socket, next) => void setTimeout(next, 400));
    io.on('connection', (socket) => {
      socket.removeAllListeners('command');
      socket.on('command', (_req: unknown, ack: (res: unknown) => void) =>
        ack({ ok: true, data: { version: 3 } }),
      );
    });
    const client = clientOf(io, { url, ackTimeoutMs: 3000, offlineTimeoutMs: 200 });
    expect(await client.command('ABCDE', { type: 'startGame' })).toEqual({ ok: true, data: { version: 3 } });
    expect(connections).toHaveLength(1);
  });

  it('an answer slower than the offline wait, on a connected socket: it is waited for, the connection kept', async () => {
    const { io, url, connections } = await silentServer();
    io.on('connection', (socket) => {
      socket.removeAllListeners('command');
      socket.on(
        'command',
        (_req: unknown, ack: (res: unknown) => void) =>
          void setTimeout(() => ack({ ok: true, data: { version: 9 } }), 400),
      );
    });
    const seen: boolean[] = [];
    const client = clientOf(io, { url, ackTimeoutMs: 3000, offlineTimeoutMs: 200 }, (c) => seen.push(c));
    await waitFor(() => seen.length === 1);
    expect(await client.command('ABCDE', { type: 'startGame' })).toEqual({ ok: true, data: { version: 9 } });
    expect(connections).toHaveLength(1);
    expect(seen).toEqual([true]);
  });

  it('the answer timeouts: a stall of 20 s plus a 3 s round trip on a live connection, 10 s while it is down', () => {
    // A link that stalls for up to 20 s and then delivers, with a bad link's 3 s round trip on top,
    // must not be called dead (e2e/bad-network.test.ts); a dead one is still found before Socket.IO's
    // heartbeat (pingInterval 25 s + pingTimeout 20 s).
    expect(ANSWER_TIMEOUT_MS).toBe(30_000);
    expect(ANSWER_TIMEOUT_MS).toBeGreaterThan(20_000 + 3_000);
    expect(ANSWER_TIMEOUT_MS).toBeLessThan(45_000);
    expect(OFFLINE_TIMEOUT_MS).toBe(10_000);
  });

  it('the same request asked again after its answer was lost goes with the same id; anything else with a new one', async () => {
    // The server gets every request; the first answer of each is lost (as on a connection that died
    // after the request arrived), later ones are answered.
    const httpServer = createServer();
    const io = new Server(httpServer);
    const ids: [string, string][] = [];
    const seen = new Set<string>();
    io.on('connection', (socket) => {
      socket.on('resume', (_req: unknown, ack: (res: unknown) => void) => ack({ ok: false, error: 'x' }));
      for (const event of ['command', 'createRoom'] as const) {
        socket.on(event, (req: { commandId: string }, ack: (res: unknown) => void) => {
          ids.push([event, req.commandId]);
          if (seen.has(req.commandId)) ack({ ok: true, data: { version: 2 } });
          seen.add(req.commandId);
        });
      }
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    let online = false;
    const client = clientOf(io, { url, ackTimeoutMs: 200, offlineTimeoutMs: 2000 }, (c) => (online = c));
    // Each request on a connected socket (a lost answer closes the transport, and it reconnects).
    const connected = <T>(request: () => Promise<T>) => waitFor(() => online).then(request);
    const rebuy = { type: 'rebuy', playerId: 'bob', amount: 2_000 } as const;
    expect(await connected(() => client.command('ABCDE', rebuy))).toEqual({
      ok: false,
      error: NO_CONNECTION_ERROR,
    });
    expect(await connected(() => client.command('ABCDE', rebuy))).toEqual({ ok: true, data: { version: 2 } });
    // Answered: the same rebuy again is a new one.
    expect(await connected(() => client.command('ABCDE', rebuy))).toEqual({
      ok: false,
      error: NO_CONNECTION_ERROR,
    });
    // Another request in between: the rebuy after it is new too.
    expect(await connected(() => client.command('ABCDE', { ...rebuy, amount: 2_500 }))).toEqual({
      ok: false,
      error: NO_CONNECTION_ERROR,
    });
    expect(await connected(() => client.command('ABCDE', rebuy))).toEqual({
      ok: false,
      error: NO_CONNECTION_ERROR,
    });
    expect(await connected(() => client.createRoom('Ann', 5_000))).toEqual({
      ok: false,
      error: NO_CONNECTION_ERROR,
    });
    expect(await connected(() => client.createRoom('Ann', 5_000))).toEqual({
      ok: true,
      data: { version: 2 },
    });
    const [a, b, c, d, e, f, g] = ids.map(([, id]) => id);
    expect(ids.map(([event]) => event)).toEqual([
      'command',
      'command',
      'command',
      'command',
      'command',
      'createRoom',
      'createRoom',
    ]);
    expect([b === a, c === a, d === c, e === c, e === d, g === f]).toEqual([
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  }, 20_000);

  it('an answered command leaves the connection alone', async () => {
    const { io, url, connections } = await silentServer();
    io.on('connection', (socket) => {
      socket.removeAllListeners('command');
      socket.on('command', (_req: unknown, ack: (res: unknown) => void) =>
        ack({ ok: true, data: { version: 7 } }),
      );
    });
    const client = clientOf(io, { url, ackTimeoutMs: 200 });
    await waitFor(() => connections.length === 1);
    expect(await client.command('ABCDE', { type: 'startGame' })).toEqual({ ok: true, data: { version: 7 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connections).toHaveLength(1);
  });

  it('storage refused (Safari private mode): a reconnection presents the identity the server gave this page', async () => {
    // setItem throws, as in Safari's old private mode: the credentials were never stored, and each
    // reconnection (a Wi-Fi blip) came back as a new player: "You were removed from the game."
    vi.stubGlobal('localStorage', browserStorage({ refuseWrites: true }));
    const { io, url, presented } = await identityServer();
    const sessions: string[] = [];
    const pages = roomClients(io, url, (_, c) => sessions.push(c.playerId), 1);
    await waitFor(() => sessions.length === 1);
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await waitFor(() => sessions.length === 2);
    expect(presented).toEqual([undefined, 't1']);
    expect(sessions).toEqual(['p1', 'p1']);
    expect(pages).toHaveLength(1);
  });

  it('two tabs of a phone new to the app, connected at once: both end up one player, the first one stored', async () => {
    // The join link tapped twice: both tabs shake hands before either has credentials to show, and the
    // server makes two players. The one stored last was kept, so the tab that joined with the other
    // lost its seat on its next reload or reconnection.
    const store = browserStorage();
    vi.stubGlobal('localStorage', store);
    // Both handshakes are in before either page hears its session.
    const { io, url, presented, release } = await identityServer({ holdFirst: 2 });
    const sessions: [number, string][] = [];
    const seen: [number, boolean][] = [];
    roomClients(
      io,
      url,
      (i, c) => sessions.push([i, c.playerId]),
      2,
      (i, up) => seen.push([i, up]),
    );
    await waitFor(() => presented.length === 2);
    release();
    await waitFor(() => sessions.length === 2);
    // The second page takes the identity the first one stored, and tells the app only that one.
    expect(presented).toEqual([undefined, undefined, 't1']);
    expect(sessions).toEqual([
      [0, 'p1'],
      [1, 'p1'],
    ]);
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({ playerId: 'p1', token: 't1' });
    // The switch is not a lost connection: no "Reconnecting…".
    expect(seen).toEqual([
      [0, true],
      [1, true],
    ]);
  });
});

describe('claiming a seat link', () => {
  it("answered yes: the page reconnects at once as the seat's player, stores it, and says no Reconnecting", async () => {
    const store = browserStorage();
    vi.stubGlobal('localStorage', store);
    const { io, url, presented } = await identityServer();
    const sessions: string[] = [];
    const seen: boolean[] = [];
    const [page] = roomClients(
      io,
      url,
      (_, c) => sessions.push(c.playerId),
      1,
      (_, up) => seen.push(up),
    );
    await waitFor(() => sessions.length === 1);
    expect(await page!.claimSeat('nope')).toEqual({ ok: false, error: 'no' });
    expect(await page!.claimSeat('good')).toEqual({
      ok: true,
      data: { roomCode: 'ABCDE', credentials: { playerId: 'p9', token: 't9', room: 'ABCDE' } },
    });
    // Stored at once, before the new connection's session: a reload meanwhile is the seat's player.
    expect(sessions).toEqual(['p1']);
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({
      playerId: 'p9',
      token: 't9',
      room: 'ABCDE',
    });
    await waitFor(() => sessions.length === 2);
    expect(presented).toEqual([undefined, 't9']);
    expect(sessions).toEqual(['p1', 'p9']);
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({
      playerId: 'p9',
      token: 't9',
      room: 'ABCDE',
    });
    expect(seen).toEqual([true]);
    // And every reconnection after it (a Wi-Fi blip) is the seat's player too.
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await waitFor(() => sessions.length === 3);
    expect(presented).toEqual([undefined, 't9', 't9']);
  });

  it("another tab of the browser, on its next reconnection, becomes the seat's player too: it never writes its old identity back", async () => {
    // Two tabs of the borrowed phone, one player (p1). One opens the seat link; the other, still p1 in
    // memory, reconnected after a Wi-Fi blip as p1 and stored p1 back over the seat's credentials: the
    // claiming tab's next reload (the phone asleep, the tab unloaded) was p1, and Bob's seat was gone.
    const store = browserStorage();
    vi.stubGlobal('localStorage', store);
    const { io, url, presented } = await identityServer();
    const sessions: [number, string][] = [];
    const [claiming] = roomClients(io, url, (i, c) => sessions.push([i, c.playerId]), 1);
    await waitFor(() => sessions.length === 1);
    roomClients(io, url, (i, c) => sessions.push([i + 1, c.playerId]), 1);
    await waitFor(() => sessions.length === 2);
    expect(sessions).toEqual([
      [0, 'p1'],
      [1, 'p1'],
    ]);
    okAck(await claiming!.claimSeat('good'));
    await waitFor(() => sessions.length === 3);
    // The blip: both tabs reconnect.
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await waitFor(() => sessions.filter(([, id]) => id === 'p9').length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({
      playerId: 'p9',
      token: 't9',
      room: 'ABCDE',
    });
    expect(sessions.at(-1)?.[1]).toBe('p9');
    expect(presented.at(-1)).toBe('t9');
  });

  it("storage refused: the seat is still this page's on its next reconnection", async () => {
    vi.stubGlobal('localStorage', browserStorage({ refuseWrites: true }));
    const { io, url, presented } = await identityServer();
    const sessions: string[] = [];
    const [page] = roomClients(io, url, (_, c) => sessions.push(c.playerId), 1);
    await waitFor(() => sessions.length === 1);
    okAck(await page!.claimSeat('good'));
    await waitFor(() => sessions.length === 2);
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await waitFor(() => sessions.length === 3);
    expect(presented).toEqual([undefined, 't9', 't9']);
    expect(sessions).toEqual(['p1', 'p9', 'p9']);
  });
});

describe("done with a seat held by link: the browser's own player again", () => {
  it('goBackToOwn: the page reconnects as the player it was before the claim, and storage says so', async () => {
    const store = browserStorage();
    vi.stubGlobal('localStorage', store);
    const { io, url, presented } = await identityServer();
    const sessions: string[] = [];
    const seen: boolean[] = [];
    const [page] = roomClients(
      io,
      url,
      (_, c) => sessions.push(c.playerId),
      1,
      (_, up) => seen.push(up),
    );
    await waitFor(() => sessions.length === 1);
    page!.goBackToOwn(); // its own player already: nothing
    expect(page!.seatRoom()).toBeNull();
    okAck(await page!.claimSeat('good'));
    expect(page!.seatRoom()).toBe('ABCDE');
    expect(JSON.parse(store.getItem('chipless.ownCredentials') ?? '')).toEqual({
      playerId: 'p1',
      token: 't1',
    });
    await waitFor(() => sessions.length === 2);
    page!.goBackToOwn();
    expect(page!.seatRoom()).toBeNull();
    await waitFor(() => sessions.length === 3);
    expect(presented).toEqual([undefined, 't9', 't1']);
    expect(sessions).toEqual(['p1', 'p9', 'p1']);
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({ playerId: 'p1', token: 't1' });
    expect(store.getItem('chipless.ownCredentials')).toBeNull();
    expect(seen).toEqual([true]);
  });

  it("a tab that became the seat's player from another tab's claim goes back to the browser's own player, not a new one", async () => {
    // The other tab, opened before the claim, never held the browser's own credentials in its memory:
    // going back, it forgot them (storage's own copy cleared) and came back as a new player.
    const store = browserStorage();
    vi.stubGlobal('localStorage', store);
    const { io, url, presented } = await identityServer();
    const sessions: [number, string][] = [];
    const [claiming] = roomClients(io, url, (i, c) => sessions.push([i, c.playerId]), 1);
    await waitFor(() => sessions.length === 1);
    const [other] = roomClients(io, url, (i, c) => sessions.push([i + 1, c.playerId]), 1);
    await waitFor(() => sessions.length === 2);
    okAck(await claiming!.claimSeat('good'));
    await waitFor(() => sessions.length === 3);
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await waitFor(() => sessions.filter(([i, id]) => i === 1 && id === 'p9').length === 1);
    expect(other!.seatRoom()).toBe('ABCDE');
    // The claiming tab's own reconnection (as the seat, t9) may land before or after this one: count
    // the browser's own token's presentations rather than read the last one (CI saw 't9' last).
    const ownBefore = presented.filter((t) => t === 't1').length;
    other!.goBackToOwn();
    await waitFor(() => sessions.filter(([i]) => i === 1).length === 3);
    expect(sessions.filter(([i]) => i === 1).map(([, id]) => id)).toEqual(['p1', 'p9', 'p1']);
    expect(presented.filter((t) => t === 't1').length).toBe(ownBefore + 1);
    expect(JSON.parse(store.getItem('chipless.credentials') ?? '')).toEqual({ playerId: 'p1', token: 't1' });
  });

  it.each([
    ['no room stored', null, 't1'],
    ["another room's code stored", 'ZZZZZ', 't1'],
    ["the seat's room still stored (a reload at its table)", 'ABCDE', 't9'],
    // Left with no connection: the leave goes as the seat's player first (use-room.ts).
    ["a leave of the seat's room still owed", 'owed', 't9'],
  ])('a page opened with the seat stored and %s presents %s first', async (_, roomCode, first) => {
    const store = browserStorage();
    store.setItem('chipless.credentials', JSON.stringify({ playerId: 'p9', token: 't9', room: 'ABCDE' }));
    store.setItem('chipless.ownCredentials', JSON.stringify({ playerId: 'p1', token: 't1' }));
    if (roomCode === 'owed') store.setItem('chipless.owedLeave', 'ABCDE');
    else if (roomCode !== null) store.setItem('chipless.roomCode', roomCode);
    vi.stubGlobal('localStorage', store);
    const { io, url, presented } = await identityServer();
    roomClients(io, url, () => {}, 1);
    await waitFor(() => presented.length === 1);
    expect(presented).toEqual([first]);
  });
});

function okAck(res: { ok: boolean }) {
  expect(res.ok).toBe(true);
}

/** A localStorage of the browser (in memory), whose writes may be refused (QuotaExceededError). */
function browserStorage({ refuseWrites = false } = {}) {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (refuseWrites) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
  };
}

/**
 * A server that signs players in as the app's does: a known token is the same player again, anything
 * else a new one (p1/t1, p2/t2, …). `presented`: each handshake's token. `holdFirst`: the sessions of
 * the first that many connections wait for `release()`, then go in order.
 */
async function identityServer({ holdFirst = 0 } = {}) {
  const httpServer = createServer();
  const io = new Server(httpServer);
  const presented: (string | undefined)[] = [];
  const known = new Map<string, SessionCredentials>();
  const held: (() => void)[] = [];
  let released = false;
  io.on('connection', (socket) => {
    const token = (socket.handshake.auth as { token?: string }).token;
    presented.push(token);
    const again = token === undefined ? undefined : known.get(token);
    const n = known.size + 1;
    const creds = again ?? { playerId: `p${n}`, token: `t${n}` };
    known.set(creds.token, creds);
    const send = () => socket.emit('session', creds);
    if (presented.length <= holdFirst && !released) held.push(send);
    else send();
    // A seat link: 'good' is Seat's in room ABCDE (p9/t9, room-scoped), anything else refused.
    socket.on('claimSeat', (req: { seat: string }, ack: (res: unknown) => void) => {
      if (req.seat !== 'good') return ack({ ok: false, error: 'no' });
      known.set('t9', { playerId: 'p9', token: 't9', room: 'ABCDE' });
      ack({
        ok: true,
        data: { roomCode: 'ABCDE', credentials: { playerId: 'p9', token: 't9', room: 'ABCDE' } },
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const release = () => {
    released = true;
    for (const send of held.splice(0)) send();
  };
  return { io, url, presented, release };
}

/** `count` room clients (a page each) of the test's server, closed after the test. */
function roomClients(
  io: Server,
  url: string,
  session: (index: number, creds: SessionCredentials) => void,
  count: number,
  connection: (index: number, up: boolean) => void = () => {},
) {
  const clients = Array.from({ length: count }, (_, i) =>
    createRoomClient(
      {
        session: (c) => session(i, c),
        room: () => {},
        gone: () => {},
        connection: (up) => connection(i, up),
      },
      { url },
    ),
  );
  closeAll = async () => {
    for (const c of clients) c.close();
    await io.close();
  };
  return clients;
}
