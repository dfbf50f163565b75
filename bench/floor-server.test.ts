/**
 * The floor server's Redis variants (`--floor-redis`, `--floor-redis-save`): a command's snapshot is in
 * Redis, in the shape the variant claims, by the time its broadcast reaches a phone; the bare floor
 * stores nothing. Runs floor-server.ts through tsx as load.ts runs its build, against the real Redis.
 * The hop variant (`--floor-hop`): commands come back from the thread in order, each acked and
 * broadcast with its own version. The rooms variant (`--floor-rooms`): each command is a real room's,
 * acked and broadcast with what that room committed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeysWithPrefix,
  REDIS_URL,
  redisGate,
  uniqueKeyPrefix,
} from '../src/server/scale-out/redis-available';
import { connectRedis } from '../src/server/store/redis-client';
import type { RoomSnapshot } from '../src/shared/protocol';

const here = dirname(fileURLToPath(import.meta.url));
const gate = await redisGate('floor-server');

type RedisClient = Awaited<ReturnType<typeof connectRedis>>;

interface Floor {
  child: ChildProcess;
  url: string;
}

async function startFloor(env: Record<string, string>): Promise<Floor> {
  const child = fork(join(here, 'floor-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function stopFloor(floor: Floor | undefined): Promise<void> {
  if (!floor || floor.child.exitCode !== null) return;
  const exited = new Promise((r) => floor.child.once('exit', r));
  floor.child.kill('SIGTERM');
  await exited;
}

/** Joins `roomCode`, sends one command, and resolves with its ack and the broadcast of its version. */
async function oneCommand(
  url: string,
  roomCode: string,
): Promise<{ version: number; broadcast: RoomSnapshot }> {
  const socket: Socket = io(url, { transports: ['websocket'], reconnection: false });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const joined = (await socket.emitWithAck('join', { roomCode })) as { ok: boolean; data: RoomSnapshot };
    expect(joined.ok).toBe(true);
    const broadcast = new Promise<RoomSnapshot>((resolve) => {
      socket.on('room', (s: RoomSnapshot) => {
        if (s.version > joined.data.version) resolve(s);
      });
    });
    const ack = (await socket.emitWithAck('command', { roomCode })) as {
      ok: boolean;
      data: { version: number };
    };
    expect(ack.ok).toBe(true);
    return { version: ack.data.version, broadcast: await broadcast };
  } finally {
    socket.disconnect();
  }
}

describe.skipIf(gate.skip)('floor server with Redis', () => {
  const prefix = uniqueKeyPrefix('floor');
  let redis: RedisClient;
  let floor: Floor | undefined;

  beforeAll(async () => {
    gate.check();
    redis = await connectRedis(REDIS_URL);
  });
  afterAll(async () => {
    await stopFloor(floor);
    await deleteKeysWithPrefix(prefix);
    redis?.destroy();
  });

  it('SET: the snapshot a phone is sent is the one stored under the room', async () => {
    floor = await startFloor({ FLOOR_REDIS_URL: REDIS_URL, FLOOR_KEY_PREFIX: `${prefix}set:` });
    try {
      const { version, broadcast } = await oneCommand(floor.url, 'SETAA');
      expect(version).toBe(2);
      expect(broadcast.version).toBe(2);
      expect(JSON.parse((await redis.get(`${prefix}set:SETAA`)) ?? 'null')).toEqual(broadcast);
    } finally {
      await stopFloor(floor);
    }
  });

  it("save: the room's hash, its activity and the publication of the event, as the real save writes them", async () => {
    const publications: string[] = [];
    const subscriber = redis.duplicate();
    await subscriber.connect();
    await subscriber.subscribe(`${prefix}save:publications`, (message: string) => {
      publications.push(message);
    });
    floor = await startFloor({
      FLOOR_REDIS_URL: REDIS_URL,
      FLOOR_KEY_PREFIX: `${prefix}save:`,
      FLOOR_REDIS_SHAPE: 'save',
    });
    try {
      const { broadcast } = await oneCommand(floor.url, 'SAVEB');
      expect(broadcast.version).toBe(2);
      const hash = await redis.hGetAll(`${prefix}save:room:SAVEB`);
      // As the real save stores a commit's publication: the event, which holds the room, in place of a room field.
      expect(hash).toEqual({ v: '2', pub: JSON.stringify(['room', broadcast]), po: '0,0,0,0' });
      expect(await redis.ttl(`${prefix}save:room:SAVEB`)).toBeGreaterThan(800);
      expect(await redis.zScore(`${prefix}save:activity`, 'SAVEB')).toBeGreaterThan(0);
      await expect.poll(() => publications.length).toBe(1);
      expect(publications[0]).toBe(JSON.stringify(['room', broadcast]));
    } finally {
      await stopFloor(floor);
      subscriber.destroy();
    }
  });

  it('without FLOOR_REDIS_URL it stores nothing', async () => {
    floor = await startFloor({ FLOOR_KEY_PREFIX: `${prefix}bare:` });
    try {
      const { broadcast } = await oneCommand(floor.url, 'BAREC');
      expect(broadcast.version).toBe(2);
      const keys: string[] = [];
      for await (const batch of redis.scanIterator({ MATCH: `${prefix}bare:*` })) keys.push(...batch);
      expect(keys).toEqual([]);
    } finally {
      await stopFloor(floor);
    }
  });
});

describe('floor server with the hop to a thread', () => {
  it('acks and broadcasts each command with its own version, in order, after the hop', async () => {
    const floor = await startFloor({ FLOOR_HOP: '1' });
    try {
      const first = await oneCommand(floor.url, 'HOPAA');
      expect(first.version).toBe(2);
      expect(first.broadcast.version).toBe(2);
      // Commands sent together come back from the thread in the order sent.
      const socket: Socket = io(floor.url, { transports: ['websocket'], reconnection: false });
      try {
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        await socket.emitWithAck('join', { roomCode: 'HOPBB' });
        const acks = (await Promise.all(
          [1, 2, 3, 4, 5].map(() => socket.emitWithAck('command', { roomCode: 'HOPBB' })),
        )) as Array<{ ok: boolean; data: { version: number } }>;
        expect(acks.map((a) => a.data.version)).toEqual([2, 3, 4, 5, 6]);
      } finally {
        socket.disconnect();
      }
    } finally {
      await stopFloor(floor);
    }
  });
});

describe('floor server with the rooms on a thread', () => {
  it("acks each command with the version the real room committed and broadcasts that room's snapshot", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-floor-rooms-'));
    const floor = await startFloor({ FLOOR_ROOMS: dataDir });
    try {
      // The room is made on its first command: created (version 1), joined by five (6), then the
      // strategy's first move, the host approving the first of them (7).
      const first = await oneCommand(floor.url, 'ROOMA');
      expect(first.version).toBe(7);
      expect(first.broadcast.version).toBe(7);
      const players = Object.values(first.broadcast.room.players);
      expect(players).toHaveLength(6);
      expect(players.filter((p) => p.isApproved)).toHaveLength(2);
      // Only the new events travel with a broadcast, as from the server.
      expect(first.broadcast.logFrom).toBe(first.broadcast.room.log[0]?.seq);
      expect(Object.values(first.broadcast.presence)).toEqual([true, true, true, true, true, true]);

      // Commands sent together are played one after another in their room.
      const socket: Socket = io(floor.url, { transports: ['websocket'], reconnection: false });
      try {
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        await socket.emitWithAck('join', { roomCode: 'ROOMA' });
        const seen: number[] = [];
        socket.on('room', (s: RoomSnapshot) => seen.push(s.version));
        const acks = (await Promise.all(
          [1, 2, 3, 4, 5].map(() => socket.emitWithAck('command', { roomCode: 'ROOMA' })),
        )) as Array<{ ok: boolean; data: { version: number } }>;
        expect(acks.map((a) => a.data.version)).toEqual([8, 9, 10, 11, 12]);
        await expect.poll(() => seen).toEqual([8, 9, 10, 11, 12]);
      } finally {
        socket.disconnect();
      }
      // Another floor room is another real room.
      const other = await oneCommand(floor.url, 'ROOMB');
      expect(other.version).toBe(7);
      expect(other.broadcast.room.roomCode).not.toBe(first.broadcast.room.roomCode);
    } finally {
      await stopFloor(floor);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
