/** Integration: idle rooms are deleted; rooms with a connected player count as active. */
import { afterEach, describe, expect, it } from 'vitest';
import { createRoom } from '../engine';
import { TOUCH_BATCH } from './cleanup';
import { randomRoomCode } from './room-service';
import { isRoomCode, MAX_ROOMS_PER_SOCKET } from './socket-gateway';
import { okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer | undefined;
const clients: TestClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

async function hostRoom(s: TestServer): Promise<{ host: TestClient; code: string }> {
  const host = await TestClient.connect(s.url);
  clients.push(host);
  return { host, code: okData(await host.createRoom('Hana', 5000)).room.roomCode };
}

describe('idle room cleanup', () => {
  it('deletes rooms idle longer than ROOM_IDLE_MS; keeps rooms with a connected player (fake clock)', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({
      now: () => t,
      env: { ROOM_IDLE_MS: '600000', CLEANUP_INTERVAL_MS: '3600000' },
    });
    const watched = await hostRoom(server);
    const abandoned = await hostRoom(server);
    const recent = await hostRoom(server);
    abandoned.host.close();
    recent.host.close();
    await sleep(50);

    t += 9 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 1, deleted: 0 });
    // The recent room gets a command, so its activity moves on.
    const again = await TestClient.connect(server.url, { token: recent.host.token });
    clients.push(again);
    await again.must(recent.code, { type: 'updateSettings', smallBlind: 100, bigBlind: 200 });
    again.close();
    await sleep(50);

    t += 2 * 60_000; // 11 minutes after creation
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 1, deleted: 1 });
    expect(await server.store.load(abandoned.code)).toBeNull();
    expect(await server.store.load(watched.code)).not.toBeNull();
    expect(await server.store.load(recent.code)).not.toBeNull();

    t += 10 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 1, deleted: 1 });
    expect(await server.store.load(recent.code)).toBeNull();
    // Still connected, so still there, hours later.
    t += 5 * 60 * 60_000;
    await server.app.cleanup.runOnce();
    expect(await server.store.load(watched.code)).not.toBeNull();
    expect(okData(await watched.host.resume(watched.code)).version).toBe(1);
  });

  it('a game in progress outlives a break with every phone locked: kept PLAYING_IDLE_MS after its last command, a lobby only ROOM_IDLE_MS', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({
      now: () => t,
      env: { ROOM_IDLE_MS: '600000', CLEANUP_INTERVAL_MS: '3600000' },
    });
    const lobby = await hostRoom(server);
    const { host, code } = await hostRoom(server);
    const guest = await TestClient.connect(server.url);
    clients.push(guest);
    okData(await guest.joinRoom(code, 'Gus', 5000));
    await host.must(code, { type: 'approve', playerId: guest.playerId });
    const started = await host.must(code, { type: 'startGame' });
    // The break: every phone locked, every socket closed.
    for (const c of [lobby.host, host, guest]) c.close();
    await sleep(50);

    t += 11 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 1 });
    expect(await server.store.load(lobby.code)).toBeNull();
    t += 12 * 60 * 60_000 - 11 * 60_000 - 1; // 1 ms short of 12 hours after the last command
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 0 });
    // Back from the break: the table resumes where it was, and plays on (heads-up, the host's turn).
    const back = await TestClient.connect(server.url, { token: host.token });
    clients.push(back);
    const resumed = okData(await back.resume(code));
    expect([resumed.version, resumed.room.status, resumed.room.gameState.handNumber]).toEqual([
      started,
      'PLAYING',
      1,
    ]);
    const acted = await back.must(code, { type: 'act', action: 'CALL' });
    back.close();
    await sleep(50);
    // Abandoned for good: once more than 12 hours have passed since its last command, it goes.
    t += 12 * 60 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 0 });
    t += 1;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 1 });
    expect(await server.store.load(code)).toBeNull();
    expect(acted).toBe(started + 1);
  });

  it('a finished game keeps its results PLAYING_IDLE_MS after End Game, phones asleep or gone home; then it goes', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({
      now: () => t,
      env: { ROOM_IDLE_MS: '600000', CLEANUP_INTERVAL_MS: '3600000' },
    });
    const { host, code } = await hostRoom(server);
    const guest = await TestClient.connect(server.url);
    clients.push(guest);
    okData(await guest.joinRoom(code, 'Gus', 5000));
    await host.must(code, { type: 'approve', playerId: guest.playerId });
    await host.must(code, { type: 'startGame' });
    const endedAt = t;
    const ended = await host.must(code, { type: 'endGame' });
    // Still on the results: the room stays while someone looks at it.
    t += 11 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 1, deleted: 0 });
    // "Back to Home" on both phones; the phones stay open on the home screen.
    expect(await host.command(code, { type: 'leave' })).toEqual({ ok: true, data: { version: ended } });
    // The guest, still on the results, sees the host's phone gone from the room.
    await guest.waitFor(
      () => guest.snapshots.at(-1)?.presence[host.playerId] === false,
      5000,
      'the host shown offline',
    );
    t += 1000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 1, deleted: 0 });
    expect(await guest.command(code, { type: 'leave' })).toEqual({ ok: true, data: { version: ended } });
    // Every phone away from the room (home, or locked on the results): 10 minutes once cost the table
    // its results; a finished game is kept as a game in progress is.
    t += 11 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 0 });
    const later = await TestClient.connect(server.url, { token: guest.token });
    clients.push(later);
    const results = okData(await later.resume(code));
    expect([results.version, results.room.status]).toEqual([ended, 'ENDED']);
    later.close();
    await sleep(50);
    t = endedAt + 12 * 60 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 0 });
    t += 1;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: 0, deleted: 1 });
    expect(await server.store.load(code)).toBeNull();
    expect([host.gone, guest.gone]).toEqual([[], []]);
  });

  it('runs on its own every CLEANUP_INTERVAL_MS (real clock)', async () => {
    server = await startServer({ env: { ROOM_IDLE_MS: '300', CLEANUP_INTERVAL_MS: '100' } });
    const watched = await hostRoom(server);
    const abandoned = await hostRoom(server);
    abandoned.host.close();
    const deadline = Date.now() + 5000;
    while ((await server.store.load(abandoned.code)) !== null && Date.now() < deadline) await sleep(50);
    expect(await server.store.load(abandoned.code)).toBeNull();
    expect(await server.store.load(watched.code)).not.toBeNull();
    expect(watched.host.gone).toEqual([]);
  });

  it('touches every watched room when there are more than one write takes, and only those', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({
      now: () => t,
      env: { ROOM_IDLE_MS: '600000', CLEANUP_INTERVAL_MS: '3600000' },
    });
    const codes = new Set<string>();
    while (codes.size < 2 * TOUCH_BATCH + 51) codes.add(randomRoomCode());
    const [unwatched, ...watched] = [...codes] as [string, ...string[]];
    for (const code of codes) {
      const room = createRoom({ roomCode: code, hostId: 'h', hostName: 'Hana', startingChips: 5000, now: t });
      expect(await server.store.create({ room, version: 1, appliedCommands: [] })).toBe(true);
    }
    // One phone watching all but one of the rooms.
    const phone = await TestClient.connect(server.url);
    clients.push(phone);
    const [socket] = await server.app.io.fetchSockets();
    socket?.join(watched);

    t += 9 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: watched.length, deleted: 0 });
    t += 2 * 60_000; // 11 minutes after creation, 2 after the touch
    expect(await server.store.listIdle(t - 600_000)).toEqual([unwatched]);
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: watched.length, deleted: 1 });
    expect(await server.store.load(unwatched)).toBeNull();
    for (const code of watched) expect((await server.store.load(code))?.version).toBe(1);
  });

  it('one connection keeps at most MAX_ROOMS_PER_SOCKET rooms from cleanup: opening one more lets the earliest go', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({
      now: () => t,
      env: { ROOM_IDLE_MS: '600000', CLEANUP_INTERVAL_MS: '3600000' },
    });
    const { host, code: first } = await hostRoom(server);
    const guest = await TestClient.connect(server.url);
    clients.push(guest);
    okData(await guest.joinRoom(first, 'Gus', 5000));
    await host.must(first, { type: 'approve', playerId: guest.playerId });
    // The same connection opens more rooms than it may watch (a script keeping lobbies alive).
    const more: string[] = [];
    for (let i = 0; i < MAX_ROOMS_PER_SOCKET; i++)
      more.push(okData(await host.createRoom('Hana', 5000)).room.roomCode);
    // The earliest is no longer watched by it: the host shows offline there.
    await guest.waitFor(
      () => guest.latest?.presence[host.playerId] === false,
      3000,
      'host offline in the first room',
    );
    guest.close();
    await sleep(50);

    t += 11 * 60_000;
    expect(await server.app.cleanup.runOnce()).toEqual({ touched: MAX_ROOMS_PER_SOCKET, deleted: 1 });
    expect(await server.store.load(first)).toBeNull();
    for (const code of more) expect((await server.store.load(code))?.version).toBe(1);
    // It watched the first room no more when it went: no notice; asking for it finds no room.
    expect(host.gone).toEqual([]);
    expect(await host.resume(first)).toEqual({ ok: false, error: 'Room not found' });
  });

  it('resumes sent at once on one connection still leave it watching MAX_ROOMS_PER_SOCKET rooms, the latest', async () => {
    server = await startServer();
    const { host, code } = await hostRoom(server);
    const codes = [code];
    for (let i = 0; i < 11; i++) codes.push(okData(await host.createRoom('Hana', 5000)).room.roomCode);
    const tab = await TestClient.connect(server.url, { token: host.token });
    clients.push(tab);
    const socket = server.app.io.of('/').sockets.get(tab.socket.id!)!;
    // The order the socket joined its rooms in (each resume joins when its turn in its room's queue comes).
    const joined: string[] = [];
    const join = socket.join.bind(socket);
    socket.join = (room) => {
      joined.push(...[room].flat());
      return join(room);
    };
    const watched = () => [...socket.rooms].filter(isRoomCode).sort();
    const lastJoined = () => [...new Set(joined.toReversed())].slice(0, MAX_ROOMS_PER_SOCKET).sort();
    const acks = await Promise.all(codes.map((c) => tab.resume(c)));
    expect(acks.filter((a) => !a.ok)).toEqual([]);
    expect(joined.toSorted()).toEqual(codes.toSorted());
    // Watched: the last four to join.
    expect(watched()).toEqual(lastJoined());
    // And a resume of a room being dropped meanwhile: answered, and watched.
    const [, again] = await Promise.all([
      tab.resume(codes[0]!),
      tab.resume([...socket.rooms].filter(isRoomCode)[0]!),
    ]);
    expect(again.ok).toBe(true);
    expect(watched()).toHaveLength(MAX_ROOMS_PER_SOCKET);
    expect(watched()).toEqual(lastJoined());
  });

  it('a room expiring while a player watches it from elsewhere tells them gone {expired}', async () => {
    let t = 1_900_000_000_000;
    server = await startServer({ now: () => t, env: { CLEANUP_INTERVAL_MS: '3600000' } });
    const { host, code } = await hostRoom(server);
    // Another process's socket: simulated by expiring through the service while this one is counted out.
    t += 11 * 60_000;
    expect(await server.app.rooms.expire(code, () => false)).toBe(true);
    await host.waitFor(() => host.gone.length > 0);
    expect(host.gone).toEqual([{ roomCode: code, reason: 'expired' }]);
    expect(await host.resume(code)).toEqual({ ok: false, error: 'Room not found' });
  });
});
