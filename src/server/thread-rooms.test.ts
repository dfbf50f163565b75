/**
 * The room thread (room-thread.ts) and its socket side (thread-rooms.ts): the text it sends is the
 * text the event loop's path (directRooms) sends, a commit's steps come back in announce's order, and
 * a thread that stops fails what waits on it and lets go of its data dir. The whole server over it is
 * tested by the integration suites again in the 'server-room-thread' project (vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command } from '../engine';
import { logDelta } from '../shared/log-delta';
import { createBroadcaster } from './broadcaster';
import { createLogger } from './logger';
import { SHUTTING_DOWN } from './room-service';
import type { EncodedSnapshot } from './snapshot-encoder';
import type { ChiplessServer } from './socket-gateway';
import type { StoredRoom } from './store/room-store';
import { okData, startServer, TestClient } from './test-helpers';
import { ROOM_THREAD_STOPPED, type RoomThread, startRoomThread, threadRooms } from './thread-rooms';

const HOST = 'host-1';
const GUEST = 'guest-2';
const dirs: string[] = [];
const threads: RoomThread[] = [];

/** Servers and clients a test started, stopped after it. */
const stops: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const thread of threads.splice(0)) await thread.terminate();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir = mkdtempSync(join(tmpdir(), 'chipless-room-thread-'))) {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const thread = await startRoomThread({ dataDir, logLevel: 'silent' });
  threads.push(thread);
  const io: ChiplessServer = new Server();
  const rooms = threadRooms(thread, io, createBroadcaster(io), createLogger('silent'));
  return { dataDir, thread, rooms };
}

let nextId = 0;
const commandId = () => `cmd-${nextId++}`;

/** A room of two, the guest approved, not started (version 3); its code. */
async function lobbyRoom(rooms: Awaited<ReturnType<typeof open>>['rooms']): Promise<string> {
  const created = await rooms.createRoom(HOST, commandId(), 'Ann', 100_00);
  if (!created.ok) throw new Error(created.error);
  const code = created.roomCode;
  const steps: [string, Command][] = [
    [GUEST, { type: 'join', name: 'Bob', startingChips: 100_00 }],
    [HOST, { type: 'approve', playerId: GUEST }],
  ];
  for (const [actor, command] of steps) {
    const outcome = await rooms.execute(code, actor, commandId(), command);
    if (!outcome.ok) throw new Error(outcome.error);
  }
  return code;
}

describe('the room thread', () => {
  it("sends the event loop's snapshot text, byte for byte: whole, without log, and a commit's broadcast", async () => {
    const { thread, rooms } = await open();
    const code = await lobbyRoom(rooms);
    const view = (await rooms.load(code, { whole: true }))!;
    const record = (await thread.request('record', code))!;
    expect(view.version).toBe(3);
    expect(record.version).toBe(3);
    expect([view.has(HOST), view.has(GUEST), view.has('constructor')]).toEqual([true, true, false]);
    // Nobody is connected: every player shows offline, in the room's order.
    const presence = { [HOST]: false, [GUEST]: false };
    const snapshot = { version: record.version, room: record.room, presence };
    const whole = (await rooms.snapshotOf(view, 'whole')) as EncodedSnapshot;
    expect(whole.version).toBe(3);
    expect(whole.json).toBe(JSON.stringify(snapshot));
    const none = (await rooms.snapshotOf(view, 'none')) as EncodedSnapshot;
    expect(none.json).toBe(JSON.stringify(logDelta(snapshot, record.room.nextEventSeq)));
    expect(JSON.parse(none.json).room.log).toEqual([]);
    expect(record.room.log.length).toBeGreaterThan(0);

    // A commit's broadcast: the room with the log this command added (the game and its first hand).
    const result = await thread.request(
      'execute',
      code,
      HOST,
      commandId(),
      { type: 'startGame' },
      false,
      false,
    );
    if (!result.ok) throw new Error(result.error);
    const next = (await thread.request('record', code)) as StoredRoom;
    expect(result.effects).toEqual([
      {
        kind: 'snapshot',
        version: 4,
        players: [HOST, GUEST],
        room: JSON.stringify(
          logDelta({ version: 4, room: next.room, presence }, record.room.nextEventSeq).room,
        ),
        logFrom: record.room.nextEventSeq,
      },
    ]);
  });

  it("hands back a commit's steps in announce's order: 'gone', the step after the commit, the broadcast", async () => {
    const { thread, rooms } = await open();
    const code = await lobbyRoom(rooms);
    const result = await thread.request(
      'execute',
      code,
      HOST,
      commandId(),
      { type: 'remove', playerId: GUEST },
      true,
      false,
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.effects.map((e) => e.kind)).toEqual(['gone', 'committed', 'snapshot']);
    expect(result.effects[0]).toEqual({ kind: 'gone', reason: 'removed', playerIds: [GUEST] });
    expect(result.view?.players).toEqual([HOST]);

    // Through the Rooms port the step runs with the committed view, before the broadcast.
    const seen: [number, boolean][] = [];
    const joined = await rooms.execute(
      code,
      'guest-3',
      commandId(),
      { type: 'join', name: 'Cy', startingChips: 100_00 },
      { onCommitted: (view) => void seen.push([view.version, view.has('guest-3')]) },
    );
    expect(joined.ok && joined.version).toBe(5);
    expect(seen).toEqual([[5, true]]);
    // A refused command: the engine's error, nothing written.
    const refused = await rooms.execute(code, GUEST, commandId(), { type: 'startGame' });
    expect(refused.ok).toBe(false);
    expect((await rooms.load(code))?.version).toBe(5);
  });

  it("runs a command's `prepare` in the room's queue, after what was queued before it, and applies what it gives", async () => {
    // The gateway adds who is online to actFor and claimHost there (session 36's race audit).
    const { rooms } = await open();
    const code = await lobbyRoom(rooms);
    const order: string[] = [];
    let release = () => {};
    const held = rooms.runExclusive(code, async () => {
      await new Promise<void>((r) => (release = r));
      order.push('earlier');
    });
    const outcome = rooms.execute(
      code,
      HOST,
      commandId(),
      { type: 'updateSettings', smallBlind: 100, bigBlind: 200 },
      {
        prepare: async (command) => {
          order.push('prepare');
          return { ...command, bigBlind: 300 } as Command;
        },
      },
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    release();
    await held;
    expect((await outcome).ok).toBe(true);
    expect(order).toEqual(['earlier', 'prepare']);
    const view = (await rooms.load(code, { whole: true }))!;
    const snapshot = JSON.parse(((await rooms.snapshotOf(view, 'whole')) as EncodedSnapshot).json);
    expect(snapshot.room.settings).toMatchObject({ smallBlind: 100, bigBlind: 300 });
  });

  it('expire keeps a game in progress active since `playingSince`, and deletes it, or a lobby, otherwise', async () => {
    const { rooms } = await open();
    const lobby = await lobbyRoom(rooms);
    const playing = await lobbyRoom(rooms);
    const started = await rooms.execute(playing, HOST, commandId(), { type: 'startGame' });
    expect(started.ok).toBe(true);
    expect(await rooms.expire(lobby, () => false, 0)).toBe(true);
    expect(await rooms.expire(playing, () => false, 0)).toBe(false);
    expect((await rooms.load(playing))?.version).toBe(4);
    expect(await rooms.expire(playing, () => false, Date.now() + 1)).toBe(true);
    expect(await rooms.load(playing)).toBeNull();
  });

  it('a stopped thread fails what waits on it and lets go of the data dir; a new one finds every room', async () => {
    const first = await open();
    const code = await lobbyRoom(first.rooms);
    // The data dir is the thread's alone while it runs.
    await expect(startRoomThread({ dataDir: first.dataDir, logLevel: 'silent' })).rejects.toThrow(
      'is in use by another Chipless server',
    );
    const stopping = first.thread.terminate();
    const waiting = first.thread.request('load', code, false);
    await stopping;
    await expect(waiting).rejects.toThrow(ROOM_THREAD_STOPPED);
    await expect(first.rooms.load(code)).rejects.toThrow(ROOM_THREAD_STOPPED);

    const second = await open(first.dataDir);
    expect((await second.rooms.load(code))?.version).toBe(3);
  });
});

const settings = (smallBlind: number): Command => ({
  type: 'updateSettings',
  smallBlind,
  bigBlind: smallBlind * 2,
});

describe('graceful shutdown on the room thread', () => {
  it('commands queued before stopAccepting still run (as directRooms runs them); later ones are refused', async () => {
    const { thread, rooms } = await open();
    const code = await lobbyRoom(rooms);
    // Two commands of one room at once (two phones), then the shutdown starts.
    const first = rooms.execute(code, HOST, commandId(), settings(100));
    const second = rooms.execute(code, HOST, commandId(), settings(200));
    rooms.stopAccepting();
    const late = rooms.execute(code, HOST, commandId(), settings(300));
    expect(await first).toMatchObject({ ok: true, version: 4 });
    expect(await second).toMatchObject({ ok: true, version: 5 });
    expect(await late).toEqual({ ok: false, error: SHUTTING_DOWN });
    expect(await rooms.createRoom(HOST, commandId(), 'Ann', 100_00)).toEqual({
      ok: false,
      error: SHUTTING_DOWN,
    });
    await rooms.drain();
    expect((await thread.request('record', code))?.version).toBe(5);
  });

  it("a phone's command accepted before the server starts closing is committed and acknowledged", async () => {
    const server = await startServer({ roomThread: true });
    const host = await TestClient.connect(server.url);
    stops.push(async () => {
      host.close();
      await server.close();
    });
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    // The shutdown starts right after the gateway handed the command to the rooms (SIGTERM then).
    const rooms = server.app.rooms;
    const execute = rooms.execute.bind(rooms);
    let closing: Promise<void> | undefined;
    rooms.execute = (...args) => {
      const outcome = execute(...args);
      closing ??= server.app.close();
      return outcome;
    };
    expect(await host.command(code, settings(100))).toEqual({ ok: true, data: { version: 2 } });
    await closing;
    expect((await server.store.load(code))?.version).toBe(2);
  });
});
