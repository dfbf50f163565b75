import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logDelta } from '../shared/log-delta';
import type { RoomBroadcastEncoder } from './broadcaster';
import { createRedisAdapter, jsonParser, type RedisAdapterHandle } from './redis-adapter';
import { roomJsonParts } from './room-json';
import { REDIS_URL, redisGate, uniqueKeyPrefix } from './scale-out/redis-available';
import { keepSnapshotEventJson } from './snapshot-encoder';
import { sampleRoom } from './store/contract';

const gate = await redisGate('redis-adapter');

describe('jsonParser', () => {
  it("encodes exactly as JSON.stringify, a 'room' snapshot broadcast too (its room from roomJson)", () => {
    const snapshot = logDelta({ version: 7, room: sampleRoom('JSONP'), presence: { a: true, b: false } }, 0);
    const broadcast = [
      'uid123',
      { type: 2, data: ['room', snapshot], nsp: '/' },
      { rooms: ['JSONP'], except: [], flags: {} },
    ];
    const values: unknown[] = [
      broadcast,
      [
        'uid123',
        { type: 2, data: ['room', { version: 7, room: snapshot.room, presence: {} }], nsp: '/' },
        {},
      ],
      ['uid123', { type: 2, data: ['gone', { roomCode: 'JSONP', reason: 'expired' }], nsp: '/' }, {}],
      ['uid123', { data: ['room', snapshot], type: 2, nsp: '/' }, {}],
      { uid: 'x', type: 3, opts: { rooms: ['JSONP'] } },
      'text',
    ];
    for (const value of values) expect(jsonParser.encode(value)).toBe(JSON.stringify(value));
    expect(jsonParser.decode(Buffer.from(jsonParser.encode(broadcast)))).toEqual(broadcast);
  });
});

/** One "process": an HTTP server with Socket.IO on the Redis adapter, on a free port. */
interface Node {
  http: HttpServer;
  io: Server;
  adapter: RedisAdapterHandle;
  url: string;
}

async function startNode(keyPrefix: string, onError?: (err: Error) => void): Promise<Node> {
  const adapter = await createRedisAdapter(REDIS_URL, { keyPrefix, ...(onError ? { onError } : {}) });
  const http = createServer();
  const io = new Server(http, { adapter: adapter.adapter });
  io.on('connection', (socket) => {
    socket.on('join', (room: string, ack: () => void) => {
      void socket.join(room);
      ack();
    });
    socket.on('shout', (room: string, msg: string) => {
      io.to(room).emit('heard', msg);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { http, io, adapter, url: `http://127.0.0.1:${port}` };
}

describe.skipIf(gate.skip)('Redis adapter', () => {
  const nodes: Node[] = [];
  const clients: Socket[] = [];

  beforeAll(() => gate.check());
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    for (const n of nodes) {
      await new Promise<void>((resolve) => n.io.close(() => resolve()));
      await n.adapter.close();
    }
  });

  it('a room broadcast from one server reaches clients connected to another', async () => {
    const prefix = uniqueKeyPrefix('adapter');
    nodes.push(await startNode(prefix), await startNode(prefix));
    const [a, b] = nodes as [Node, Node];
    const onA = connect(a.url, { transports: ['websocket'] });
    const onB = connect(b.url, { transports: ['websocket'] });
    const outsider = connect(b.url, { transports: ['websocket'] });
    clients.push(onA, onB, outsider);
    await Promise.all(clients.map((c) => c.emitWithAck('join', c === outsider ? 'OTHER' : 'ROOM1')));

    const heardOnB = new Promise<string>((resolve) => onB.once('heard', resolve));
    const heardOnA = new Promise<string>((resolve) => onA.once('heard', resolve));
    let outsiderHeard = false;
    outsider.on('heard', () => {
      outsiderHeard = true;
    });
    onA.emit('shout', 'ROOM1', 'hello from A');
    expect(await heardOnB).toBe('hello from A');
    expect(await heardOnA).toBe('hello from A');
    // Both servers see both sockets of the room (fetchSockets goes through the adapter too).
    expect((await b.io.in('ROOM1').fetchSockets()).length).toBe(2);
    await new Promise((r) => setTimeout(r, 50));
    expect(outsiderHeard).toBe(false);
  });

  it("a kept snapshot's publication comes cut around its room JSON, which a save can send once", async () => {
    const node = await startNode(uniqueKeyPrefix('adapter-parts'));
    nodes.push(node);
    const encoder = node.io.of('/').adapter as unknown as RoomBroadcastEncoder;
    const room = sampleRoom('PARTS');
    const kept = logDelta({ version: 9, room, presence: { a: true } }, room.nextEventSeq - 2);
    keepSnapshotEventJson(kept);
    const publication = encoder.encodeRoomBroadcast('PARTS', 'room', kept);
    const [uid, packet, opts] = JSON.parse(publication.message) as [string, unknown, unknown];
    // The message is what the adapter would publish for io.to('PARTS').emit('room', kept).
    expect(publication.message).toBe(jsonParser.encode([uid, packet, opts]));
    expect(packet).toEqual({ type: 2, data: ['room', JSON.parse(JSON.stringify(kept))], nsp: '/' });
    expect(opts).toEqual({ rooms: ['PARTS'], except: [], flags: {} });
    const parts = publication.parts!;
    expect(`${parts.head}${parts.before}${parts.mid}${parts.after}${parts.tail}`).toBe(publication.message);
    // Around the stored room's JSON (its log empty: the log is in slots), as the Redis store makes it.
    const stored = roomJsonParts({ ...room, log: [] });
    expect([parts.before, parts.after]).toEqual([stored[0], stored[2]]);
    expect(parts.mid).toBe(JSON.stringify(kept.room.log));
    expect(kept.room.log.length).toBeGreaterThan(0);
    // Not kept (or another event): the message alone, the same text.
    const plain = logDelta({ version: 9, room, presence: { a: true } }, room.nextEventSeq - 2);
    const whole = encoder.encodeRoomBroadcast('PARTS', 'room', plain);
    expect(whole.parts).toBeUndefined();
    expect(whole.message).toBe(publication.message);
    expect(encoder.encodeRoomBroadcast('PARTS', 'gone', kept).parts).toBeUndefined();
  });

  it('a broadcast publishes without an AbortSignal.timeout (a timer and an exception per publish)', async () => {
    const prefix = uniqueKeyPrefix('adapter-bounded');
    const pair = [await startNode(prefix), await startNode(prefix)] as const;
    nodes.push(...pair);
    const [a, b] = pair;
    const onA = connect(a.url, { transports: ['websocket'] });
    const onB = connect(b.url, { transports: ['websocket'] });
    clients.push(onA, onB);
    await Promise.all([onA.emitWithAck('join', 'ROOM2'), onB.emitWithAck('join', 'ROOM2')]);
    const spy = vi.spyOn(AbortSignal, 'timeout');
    try {
      const heardOnB = new Promise<string>((resolve) => onB.once('heard', resolve));
      onA.emit('shout', 'ROOM2', 'bounded');
      expect(await heardOnB).toBe('bounded');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("a process drops its own broadcasts without decoding them; the other's still arrive", async () => {
    const prefix = uniqueKeyPrefix('adapter-own');
    const [a, b] = [await startNode(prefix), await startNode(prefix)];
    nodes.push(a, b);
    // Count the msgpack decodes of each process's adapter (the real parser, counted).
    const decodes = new Map<Node, number>();
    for (const node of [a, b]) {
      const adapter = node.io.of('/').adapter as unknown as {
        parser: { encode: (v: unknown) => unknown; decode: (m: unknown) => unknown };
      };
      const parser = adapter.parser;
      decodes.set(node, 0);
      adapter.parser = {
        encode: (v) => parser.encode(v),
        decode: (m) => {
          decodes.set(node, decodes.get(node)! + 1);
          return parser.decode(m);
        },
      };
    }
    const onA = connect(a.url, { transports: ['websocket'] });
    const onB = connect(b.url, { transports: ['websocket'] });
    clients.push(onA, onB);
    await Promise.all([onA.emitWithAck('join', 'ROOM2'), onB.emitWithAck('join', 'ROOM2')]);
    const heard = new Map<Socket, string[]>([
      [onA, []],
      [onB, []],
    ]);
    for (const [client, list] of heard) client.on('heard', (msg: string) => list.push(msg));
    const until = async (count: number) => {
      for (let i = 0; i < 200 && [...heard.values()].some((l) => l.length < count); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    for (let i = 0; i < 5; i++) a.io.to('ROOM2').emit('heard', `A${i}`);
    await until(5);
    // B's broadcast goes through Redis after A's five: once A's client has it, A's subscriber has
    // received its own five copies too.
    for (let i = 0; i < 3; i++) b.io.to('ROOM2').emit('heard', `B${i}`);
    await until(8);

    const expected = ['A0', 'A1', 'A2', 'A3', 'A4', 'B0', 'B1', 'B2'];
    expect(heard.get(onA)).toEqual(expected);
    expect(heard.get(onB)).toEqual(expected);
    // A decoded only B's three broadcasts, B only A's five: nobody decoded its own.
    expect(decodes.get(a)).toBe(3);
    expect(decodes.get(b)).toBe(5);
  });

  it('a broadcast whose publish fails (here: after close) is no unhandled rejection', async () => {
    const errors: Error[] = [];
    const node = await startNode(uniqueKeyPrefix('adapter-closed'), (err) => errors.push(err));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const onNode = connect(node.url, { transports: ['websocket'] });
      clients.push(onNode);
      await onNode.emitWithAck('join', 'ROOM3');
      await node.adapter.close();
      node.io.to('ROOM3').emit('heard', 'after close');
      node.io.serverSideEmit('anything');
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
      expect(errors).toEqual([]); // closed on purpose: nothing to report
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await new Promise<void>((resolve) => node.io.close(() => resolve()));
    }
  });
});
