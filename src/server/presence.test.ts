import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPresence, PRESENCE_CHANGED, type Presence, type PresenceOptions } from './presence';
import { adapterKey, createRedisAdapter, type RedisAdapterHandle } from './redis-adapter';
import { REDIS_URL, redisGate, uniqueKeyPrefix } from './scale-out/redis-available';
import type { ChiplessServer } from './socket-gateway';
import { connectRedis } from './store/redis-client';

const gate = await redisGate('presence');

/**
 * One server "process": Socket.IO (on the Redis adapter when given one) whose sockets say who they
 * are in the handshake and join or leave rooms on request, with its presence.
 */
interface Node {
  http: HttpServer;
  io: ChiplessServer;
  presence: Presence;
  adapter: RedisAdapterHandle | null;
  url: string;
  /** Requests sent to the other processes (real fetchSockets calls, counted). */
  fetches: () => number;
  /** Room names of the presence announcements received from other processes. */
  announced: unknown[];
  /** Rooms the settle listener was called with. */
  settled: string[];
}

const nodes: Node[] = [];
const clients: Socket[] = [];

async function startNode(
  opts: { keyPrefix?: string; requestsTimeoutMs?: number; announces?: boolean } & PresenceOptions = {},
): Promise<Node> {
  const adapter = opts.keyPrefix
    ? await createRedisAdapter(REDIS_URL, {
        keyPrefix: opts.keyPrefix,
        requestsTimeoutMs: opts.requestsTimeoutMs ?? 2000,
      })
    : null;
  const http = createServer();
  const io: ChiplessServer = new Server(http, adapter ? { adapter: adapter.adapter } : {});
  io.on('connection', (socket) => {
    const auth = socket.handshake.auth as { playerId: string };
    socket.data = { ...socket.data, playerId: auth.playerId };
    void socket.join(`p:${auth.playerId}`);
    const s = socket as unknown as { on(ev: string, fn: (room: string, ack: () => void) => void): void };
    s.on('join', (room, ack) => {
      void socket.join(room);
      ack();
    });
    s.on('leave', (room, ack) => {
      void socket.leave(room);
      ack();
    });
  });
  // Count the adapter's cross-process fetches (the real method, counted).
  const nspAdapter = io.of('/').adapter as unknown as { fetchSockets: (o: unknown) => Promise<unknown[]> };
  const fetchSockets = nspAdapter.fetchSockets.bind(nspAdapter);
  let fetches = 0;
  nspAdapter.fetchSockets = (o) => {
    const local = (o as { flags?: { local?: boolean } }).flags?.local === true;
    if (!local) fetches++;
    return fetchSockets(o);
  };
  // `announces: false` stands for a process that will vanish without a word (its presence never built).
  const presence = createPresence(io, {
    tracks: (room) => (opts.announces ?? true) && !room.startsWith('p:'),
    settleMs: 100,
    ...opts,
  });
  const announced: unknown[] = [];
  (io.of('/') as unknown as { on(ev: string, fn: (room: unknown) => void): void }).on(
    PRESENCE_CHANGED,
    (room) => announced.push(room),
  );
  const settled: string[] = [];
  presence.onSettle((room) => settled.push(room));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const node: Node = {
    http,
    io,
    presence,
    adapter,
    url: `http://127.0.0.1:${port}`,
    fetches: () => fetches,
    announced,
    settled,
  };
  nodes.push(node);
  return node;
}

async function stopNode(node: Node): Promise<void> {
  const i = nodes.indexOf(node);
  if (i < 0) return;
  nodes.splice(i, 1);
  await new Promise<void>((resolve) => node.io.close(() => resolve()));
  await node.adapter?.close();
}

/** A phone of `playerId` connected to `node`, in `rooms`. */
async function phone(node: Node, playerId: string, ...rooms: string[]): Promise<Socket> {
  const socket = connect(node.url, { transports: ['websocket'], auth: { playerId }, forceNew: true });
  clients.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  for (const room of rooms) await socket.emitWithAck('join', room);
  return socket;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `presence.online(room)` until it is exactly `expected`; returns how long that took (ms). */
async function until(presence: Presence, room: string, expected: string[], withinMs = 1000): Promise<number> {
  const started = Date.now();
  let last: string[] = [];
  while (Date.now() - started < withinMs) {
    last = [...(await presence.online(room))].sort();
    if (JSON.stringify(last) === JSON.stringify([...expected].sort())) return Date.now() - started;
    await sleep(10);
  }
  throw new Error(`presence of ${room} still ${JSON.stringify(last)}, expected ${JSON.stringify(expected)}`);
}

async function online(presence: Presence, room: string): Promise<string[]> {
  return [...(await presence.online(room))].sort();
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  for (const n of [...nodes]) await stopNode(n);
});

describe('presence with the in-memory adapter (one process)', () => {
  it('is exactly the players with a socket in the room, read live; nothing is sent or settled', async () => {
    const node = await startNode();
    expect(node.presence.crossProcess).toBe(false);
    const alice = await phone(node, 'alice', 'ROOM1');
    const alice2 = await phone(node, 'alice', 'ROOM1');
    await phone(node, 'bob', 'ROOM1');
    await phone(node, 'carol', 'ROOM2');
    expect(await online(node.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(await online(node.presence, 'ROOM2')).toEqual(['carol']);
    expect(await online(node.presence, 'NOONE')).toEqual([]);

    // One of Alice's two phones goes: she is still there. The other goes too: she is not.
    alice.disconnect();
    await sleep(50);
    expect(await online(node.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    await alice2.emitWithAck('leave', 'ROOM1');
    expect(await online(node.presence, 'ROOM1')).toEqual(['bob']);

    await sleep(150);
    expect(node.settled).toEqual([]);
    expect(node.fetches()).toBe(0);
  });
});

describe.skipIf(gate.skip)('presence across processes (Redis adapter)', () => {
  beforeAll(() => gate.check());
  afterAll(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    for (const n of [...nodes]) await stopNode(n);
  });

  it('asks the other processes once, then answers from what it holds until a change is announced', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix });
    expect(b.presence.crossProcess).toBe(true);
    await phone(a, 'alice', 'ROOM1');
    await phone(b, 'bob', 'ROOM1');
    await sleep(50);

    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(b.fetches()).toBe(1);
    for (let i = 0; i < 20; i++) expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(b.fetches()).toBe(1);

    // A player appearing on this process is seen at once, without asking anyone.
    const dave = await phone(b, 'dave', 'ROOM1');
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob', 'dave']);
    expect(b.fetches()).toBe(1);
    dave.disconnect();
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(b.fetches()).toBe(1);

    // A player appearing on the other process: announced, asked again once.
    const carol = await phone(a, 'carol', 'ROOM1');
    expect(await until(b.presence, 'ROOM1', ['alice', 'bob', 'carol'])).toBeLessThan(1000);
    expect(b.fetches()).toBe(2);
    // ...and going.
    carol.disconnect();
    expect(await until(b.presence, 'ROOM1', ['alice', 'bob'])).toBeLessThan(1000);
    expect(b.fetches()).toBe(3);
    expect(a.announced).toEqual(['ROOM1', 'ROOM1', 'ROOM1']); // Bob came, Dave came and went (on B)
    expect(b.announced).toEqual(['ROOM1', 'ROOM1', 'ROOM1']); // Alice came, Carol came and went (on A)
  });

  it("a player's second socket, or a room that is not a game room, announces nothing", async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix });
    const first = await phone(a, 'alice', 'ROOM1');
    await sleep(50);
    expect(b.announced).toEqual(['ROOM1']);
    const second = await phone(a, 'alice', 'ROOM1');
    first.disconnect();
    await second.emitWithAck('join', 'p:someone');
    await sleep(100);
    expect(b.announced).toEqual(['ROOM1']);
    second.disconnect();
    await sleep(100);
    expect(b.announced).toEqual(['ROOM1', 'ROOM1']);
    expect(await online(b.presence, 'ROOM1')).toEqual([]);
  });

  it('a malformed announcement changes nothing', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix });
    await phone(a, 'alice', 'ROOM1');
    await phone(b, 'bob', 'ROOM1');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    const emit = a.io.of('/') as unknown as { serverSideEmit(ev: string, ...args: unknown[]): void };
    for (const bad of [42, null, { room: 'ROOM1' }, ['ROOM1']]) emit.serverSideEmit(PRESENCE_CHANGED, bad);
    await sleep(100);
    expect(b.announced).toEqual(['ROOM1', 42, null, { room: 'ROOM1' }, ['ROOM1']]);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(b.fetches()).toBe(1);
  });

  it('settle: listeners hear of a room settleMs after its players changed here', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix, settleMs: 200 });
    const b = await startNode({ keyPrefix, settleMs: 200 });
    await phone(a, 'alice', 'ROOM1');
    await sleep(50);
    expect(a.settled).toEqual([]);
    await sleep(300);
    expect(a.settled).toEqual(['ROOM1']);
    // A second change while one is scheduled: the scheduled one runs, and one more after it.
    await phone(a, 'bob', 'ROOM1');
    await phone(a, 'carol', 'ROOM1');
    await phone(a, 'dave', 'ROOM2');
    await sleep(100);
    expect(a.settled).toEqual(['ROOM1']);
    await sleep(200);
    expect(a.settled.sort()).toEqual(['ROOM1', 'ROOM1', 'ROOM2']);
    await sleep(200);
    expect(a.settled.sort()).toEqual(['ROOM1', 'ROOM1', 'ROOM1', 'ROOM2']);
    // Only the process where the change happened.
    expect(b.settled).toEqual([]);
  });

  it('news of a change elsewhere: settles here too when this process answered for the room around then', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix });
    await phone(a, 'alice', 'ROOM1', 'ROOM2');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(await online(b.presence, 'ROOM2')).toEqual(['alice']);
    await sleep(1200);
    // B answered for ROOM1 just now, for ROOM2 more than the clock margin (1 s) ago.
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    await phone(a, 'bob', 'ROOM1', 'ROOM2');
    await sleep(300);
    expect(b.settled).toEqual(['ROOM1']);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(await online(b.presence, 'ROOM2')).toEqual(['alice', 'bob']);
  });

  it('drops the answers held for rooms left here once they are maxAgeMs old (they would pile up)', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix, maxAgeMs: 300 });
    const rooms = Array.from({ length: 30 }, (_, i) => `ROOM${i}`);
    await phone(a, 'alice', ...rooms);
    const bob = await phone(b, 'bob', 'KEPT', ...rooms);
    await sleep(50);
    for (const room of [...rooms, 'KEPT']) await online(b.presence, room);
    expect(b.presence.heldRooms()).toBe(31);
    // Bob leaves every room but one; the gateway then asks each room's presence for its snapshot.
    for (const room of rooms) await bob.emitWithAck('leave', room);
    for (const room of rooms) expect(await online(b.presence, room)).toEqual(['alice']);
    await sleep(350);
    expect(await online(b.presence, 'KEPT')).toEqual(['bob']);
    expect(b.presence.heldRooms()).toBe(1);
  });

  it('the held answer is dropped after maxAgeMs (an announcement may have been lost)', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix, maxAgeMs: 300 });
    await phone(a, 'alice', 'ROOM1');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(b.fetches()).toBe(1);
    await sleep(350);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(b.fetches()).toBe(2);
  });

  it('a clock stepped back does not keep the held answer past maxAgeMs (clock audit)', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    let offset = 0;
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix, maxAgeMs: 300, now: () => Date.now() + offset });
    await phone(a, 'alice', 'ROOM1');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(b.fetches()).toBe(1);
    // NTP steps B's clock back a minute: its answer is not a minute younger; past maxAgeMs it is asked again.
    offset = -60_000;
    await sleep(350);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice']);
    expect(b.fetches()).toBe(2);
  });

  it('a process that goes away unannounced: its players are dropped once the process count changes', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix, announces: false });
    const b = await startNode({ keyPrefix, serverCheckMs: 50 });
    await phone(a, 'alice', 'ROOM1');
    await phone(b, 'bob', 'ROOM1');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    await sleep(60);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    expect(b.fetches()).toBe(1);
    await stopNode(a);
    expect(b.announced).toEqual([]);
    expect(await until(b.presence, 'ROOM1', ['bob'])).toBeLessThan(1000);
    // B is alone now: the count that dropped Alice also tells it there is nobody left to ask.
    expect(b.fetches()).toBe(1);
  });

  it('alone on the adapter: asks nobody once the count says so; a process that appears is seen at its first announcement', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    // One count, at the first question: nothing but an announcement can tell A of another process.
    const a = await startNode({ keyPrefix, serverCheckMs: 60_000, maxAgeMs: 100 });
    await phone(a, 'alice', 'ROOM1', 'ROOM2');
    await sleep(50);
    // Before the first count is in, it asks as with several processes.
    expect(await online(a.presence, 'ROOM1')).toEqual(['alice']);
    expect(a.fetches()).toBe(1);
    await sleep(120); // the count (one process) is in, and the held answer is past maxAgeMs
    for (let i = 0; i < 10; i++) {
      expect(await online(a.presence, 'ROOM1')).toEqual(['alice']);
      expect(await online(a.presence, 'ROOM2')).toEqual(['alice']);
    }
    await sleep(120);
    expect(await online(a.presence, 'ROOM1')).toEqual(['alice']);
    expect(a.fetches()).toBe(1);

    // Another process starts and Bob joins ROOM1 there: his announcement alone makes A ask again,
    // and A settles the room it answered for.
    const b = await startNode({ keyPrefix, serverCheckMs: 60_000 });
    const aCount = a.fetches();
    await phone(b, 'bob', 'ROOM1');
    expect(await until(a.presence, 'ROOM1', ['alice', 'bob'])).toBeLessThan(1000);
    expect(a.fetches()).toBeGreaterThan(aCount);
    expect(a.announced).toEqual(['ROOM1']);
    await expect.poll(() => a.settled, { timeout: 2000 }).toContain('ROOM1');
    // ROOM2, where nobody joined elsewhere, is right either way.
    expect(await online(a.presence, 'ROOM2')).toEqual(['alice']);
  });

  it('an unresponsive process does not stall presence: one timed-out request, then local answers', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    const a = await startNode({ keyPrefix });
    const b = await startNode({ keyPrefix, requestsTimeoutMs: 300, localOnlyMs: 1000 });
    await phone(a, 'alice', 'ROOM1');
    await phone(b, 'bob', 'ROOM1');
    await sleep(50);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
    // A process that Redis counts but that never answers (a frozen one): a bare subscriber.
    const frozen = await connectRedis(REDIS_URL);
    try {
      await frozen.subscribe(`${adapterKey(keyPrefix)}-request#/#`, () => {});
      await phone(a, 'carol', 'ROOM1'); // announced: B must ask again
      await sleep(50);
      let t = Date.now();
      // The request times out: B answers with what it sees itself.
      expect(await online(b.presence, 'ROOM1')).toEqual(['bob']);
      expect(Date.now() - t).toBeGreaterThanOrEqual(250);
      expect(Date.now() - t).toBeLessThan(1000);
      // For localOnlyMs it does not ask again: answers at once.
      t = Date.now();
      for (let i = 0; i < 5; i++) expect(await online(b.presence, 'ROOM1')).toEqual(['bob']);
      expect(Date.now() - t).toBeLessThan(100);
      expect(b.fetches()).toBe(2);
    } finally {
      await frozen.close();
    }
    // Once the unresponsive process is gone and the window passed, B asks again and sees everyone.
    await sleep(1000);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob', 'carol']);
    expect(b.fetches()).toBe(3);
  });

  it('a clock stepped back does not stretch the local-only window after a timed-out request (clock audit)', async () => {
    const keyPrefix = uniqueKeyPrefix('presence');
    let offset = 0;
    const a = await startNode({ keyPrefix });
    const b = await startNode({
      keyPrefix,
      requestsTimeoutMs: 300,
      localOnlyMs: 1000,
      now: () => Date.now() + offset,
    });
    await phone(a, 'alice', 'ROOM1');
    await phone(b, 'bob', 'ROOM1');
    const frozen = await connectRedis(REDIS_URL);
    try {
      await frozen.subscribe(`${adapterKey(keyPrefix)}-request#/#`, () => {});
      await sleep(50);
      expect(await online(b.presence, 'ROOM1')).toEqual(['bob']);
      expect(b.fetches()).toBe(1);
    } finally {
      await frozen.close();
    }
    // B's clock steps back a minute inside the window: the window is not a minute longer. Asked again
    // (once, or twice when the process count's change lands meanwhile), Alice is seen.
    offset = -60_000;
    await sleep(1100);
    expect(await online(b.presence, 'ROOM1')).toEqual(['alice', 'bob']);
  });
});
