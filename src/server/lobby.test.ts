/**
 * Integration: the realtime protocol around the lobby, on a real server, real sockets and a real
 * SQLite file. Identity, create/join, broadcasts, host-only refusals, idempotent command ids,
 * presence, reconnect/resume, leaving and removal.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVALID_REQUEST, JOIN_ROOM_NOT_FOUND } from '../shared/protocol';
import { loadConfig } from './config';
import { NOT_IN_ROOM } from './socket-gateway';
import { okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer;
const clients: TestClient[] = [];

async function connect(token?: string): Promise<TestClient> {
  const c = await TestClient.connect(server.url, token ? { token } : {});
  clients.push(c);
  return c;
}

/** Host creates a room; `names` join and are approved. Returns the clients and the room code. */
async function lobby(...names: string[]) {
  const host = await connect();
  const created = okData(await host.createRoom('Hana', 5000));
  const code = created.room.roomCode;
  const guests: TestClient[] = [];
  for (const name of names) {
    const g = await connect();
    okData(await g.joinRoom(code, name, 5000));
    await host.must(code, { type: 'approve', playerId: g.playerId });
    guests.push(g);
  }
  return { host, guests, code };
}

beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.close();
});

describe('identity', () => {
  it('a client without a token gets a fresh player id and token; presenting it keeps the id', async () => {
    const a = await connect();
    expect(a.playerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.token.startsWith(`${a.playerId}.`)).toBe(true);
    const again = await connect(a.token);
    expect(again.creds).toEqual(a.creds);
    const other = await connect();
    expect(other.playerId).not.toBe(a.playerId);
  });

  it('a forged or malformed token gets a new identity', async () => {
    const a = await connect();
    const forged = `${a.playerId}.${'A'.repeat(43)}`;
    for (const token of [forged, 'garbage', `${a.playerId}.`, '.x', 'x'.repeat(5000)]) {
      const c = await connect(token);
      expect(c.playerId).not.toBe(a.playerId);
    }
  });

  it('tokens survive a restart on the same data dir (secret persisted in DATA_DIR)', async () => {
    const a = await connect();
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startServer({ dataDir });
    const again = await connect(a.token);
    expect(again.playerId).toBe(a.playerId);
  });
});

describe('create and join', () => {
  it('createRoom returns a snapshot: version 1, a 5-char code, the host present', async () => {
    const host = await connect();
    const snap = okData(await host.createRoom('Hana', 5000));
    expect(snap.version).toBe(1);
    expect(snap.room.roomCode).toMatch(/^[A-Z0-9]{5}$/);
    expect(snap.room.hostId).toBe(host.playerId);
    expect(snap.room.players[host.playerId]?.stack).toBe(5000);
    expect(snap.presence).toEqual({ [host.playerId]: true });
    expect(JSON.stringify(snap)).not.toContain(host.token);
  });

  it('createRoom refuses a blank name with the spec message and writes nothing', async () => {
    const host = await connect();
    expect(await host.createRoom('   ', 5000)).toEqual({ ok: false, error: 'Please enter your name' });
  });

  it('a repeated createRoom command id returns the same room', async () => {
    const host = await connect();
    const id = randomUUID();
    const a = okData(await host.createRoom('Hana', 5000, id));
    const b = okData(await host.createRoom('Hana', 5000, id));
    expect(b.room.roomCode).toBe(a.room.roomCode);
  });

  it('join: unknown room gets the spec message; lower-case code works; everyone gets the new snapshot', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const guest = await connect();
    expect(await guest.joinRoom(code === 'ZZZZZ' ? 'YYYYY' : 'ZZZZZ', 'Gus', 5000)).toEqual({
      ok: false,
      error: JOIN_ROOM_NOT_FOUND,
    });
    const joined = okData(await guest.joinRoom(code.toLowerCase(), 'Gus', 2500));
    expect(joined.version).toBe(2);
    expect(joined.room.players[guest.playerId]).toMatchObject({
      name: 'Gus',
      isApproved: false,
      stack: 2500,
    });
    expect(joined.presence).toEqual({ [host.playerId]: true, [guest.playerId]: true });
    const seen = await host.waitForVersion(2);
    expect(seen.room).toEqual(joined.room);
    expect(seen.presence[guest.playerId]).toBe(true);
  });

  it('join refusals use the spec messages: name taken', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const guest = await connect();
    expect(await guest.joinRoom(code, 'hana', 5000)).toEqual({
      ok: false,
      error: 'Name already taken. Please choose a different name.',
    });
  });
});

describe('commands', () => {
  it('host approves: version grows by one, every client gets the same snapshot', async () => {
    const { host, guests, code } = await lobby('Gus', 'Ivy');
    const [gus, ivy] = guests as [TestClient, TestClient];
    // create(1) join(2) approve(3) join(4) approve(5)
    const snaps = await Promise.all([host, gus, ivy].map((c) => c.waitForVersion(5)));
    expect(snaps.map((s) => s.version)).toEqual([5, 5, 5]);
    expect(snaps[1]).toEqual(snaps[0]);
    expect(snaps[2]).toEqual(snaps[0]);
    expect(snaps[0]?.room.players[ivy.playerId]?.isApproved).toBe(true);
    expect(code).toMatch(/^[A-Z0-9]{5}$/);
  });

  it('host-only lobby commands from a non-host are refused with the spec messages and change nothing', async () => {
    const { host, guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    const before = (await gus.waitForVersion(3)).version;
    const refusals: Array<[Parameters<TestClient['command']>[1], string]> = [
      [{ type: 'approve', playerId: gus.playerId }, 'Only the host can approve players'],
      [{ type: 'remove', playerId: host.playerId }, 'Only the host can remove players'],
      [{ type: 'updateSettings', smallBlind: 500, bigBlind: 1000 }, 'Only the host can update settings'],
    ];
    for (const [command, error] of refusals) {
      expect(await gus.command(code, command)).toEqual({ ok: false, error });
    }
    const resumed = okData(await gus.resume(code));
    expect(resumed.version).toBe(before);
  });

  it('a duplicated command id is applied once and acknowledged with the same version', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const id = randomUUID();
    const cmd = { type: 'updateSettings', smallBlind: 300, bigBlind: 600 } as const;
    const [a, b] = await Promise.all([host.command(code, cmd, id), host.command(code, cmd, id)]);
    expect(a).toEqual({ ok: true, data: { version: 2 } });
    expect(b).toEqual({ ok: true, data: { version: 2 } });
    expect(await host.command(code, cmd, id)).toEqual({ ok: true, data: { version: 2 } });
    const stored = await server.store.load(code);
    expect(stored?.version).toBe(2);
    // A different command id is a new command.
    expect(okData(await host.command(code, { ...cmd, smallBlind: 400 }))).toEqual({ version: 3 });
  });

  it('the same command id from another player is that player’s own command', async () => {
    const { host, guests, code } = await lobby('Gus');
    const id = randomUUID();
    expect(
      okData(await host.command(code, { type: 'updateSettings', smallBlind: 10, bigBlind: 20 }, id)),
    ).toEqual({
      version: 4,
    });
    expect(
      await guests[0]!.command(code, { type: 'updateSettings', smallBlind: 10, bigBlind: 20 }, id),
    ).toEqual({
      ok: false,
      error: 'Only the host can update settings',
    });
  });

  it('a refused command writes nothing (the version does not move)', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    expect((await host.command(code, { type: 'updateSettings', smallBlind: 0, bigBlind: 0 })).ok).toBe(false);
    expect((await server.store.load(code))?.version).toBe(1);
  });

  it('a command for an unknown room: Room not found', async () => {
    const host = await connect();
    expect(await host.command('QQQQQ', { type: 'startGame' })).toEqual({
      ok: false,
      error: 'Room not found',
    });
  });

  it('commands of one room are applied in order, one at a time', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const acks = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        host.command(code, { type: 'updateSettings', smallBlind: i + 1, bigBlind: 100 }),
      ),
    );
    expect(acks.map((a) => (a.ok ? a.data.version : -1))).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 2),
    );
    const last = await host.waitForVersion(31);
    expect(last.room.settings.smallBlind).toBe(30);
  });
});

describe('presence, reconnect and resume', () => {
  it('a disconnect flips presence for everyone; reconnecting with the token resumes the seat', async () => {
    const { host, guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    await host.waitForVersion(3);
    gus.close();
    await host.waitFor(() => host.latest?.presence[gus.playerId] === false, 5000, 'gus offline');
    expect(host.latest?.version).toBe(3);

    // Meanwhile the game moves on.
    await host.must(code, { type: 'updateSettings', smallBlind: 150, bigBlind: 300 });

    const back = await connect(gus.token);
    expect(back.playerId).toBe(gus.playerId);
    const started = Date.now();
    const snap = okData(await back.resume(code));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(snap.version).toBe(4);
    expect(snap.room.settings.smallBlind).toBe(150);
    expect(snap.presence[gus.playerId]).toBe(true);
    await host.waitFor(() => host.latest?.presence[gus.playerId] === true, 5000, 'gus online');
    // The resumed socket receives the next broadcasts.
    await host.must(code, { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    expect((await back.waitForVersion(5)).room.settings.smallBlind).toBe(200);
  });

  it("a resume's acknowledgement says how long the table has gone without a move, by the server's clock (idle)", async () => {
    const { host, guests, code } = await lobby('Gus');
    const before = Date.now();
    await host.must(code, { type: 'updateSettings', smallBlind: 150, bigBlind: 300 });
    const moved = Date.now();
    await sleep(80);
    const asked = Date.now();
    const snap = okData(await guests[0]!.resume(code));
    const answered = Date.now();
    // The move was stamped between `before` and `moved`, the answer between `asked` and `answered`.
    expect(snap.idle).toBeGreaterThanOrEqual(asked - moved);
    expect(snap.idle).toBeLessThanOrEqual(answered - before);
    expect(Object.keys(snap)).toEqual(['version', 'room', 'presence', 'idle']);
  });

  it('a phone reconnecting while its command is in flight: applied once, the retry gets its answer, resume the room', async () => {
    const { host, guests, code } = await lobby('Gus');
    const id = randomUUID();
    // Sent, and the connection dropped before any answer could come back.
    void host.command(code, { type: 'startGame' }, id).catch(() => undefined);
    host.close();
    const back = await connect(host.token);
    expect(await back.command(code, { type: 'startGame' }, id)).toEqual({ ok: true, data: { version: 4 } });
    const resumed = okData(await back.resume(code));
    expect([resumed.version, resumed.room.status]).toEqual([4, 'PLAYING']);
    expect(await back.command(code, { type: 'startGame' }, id)).toEqual({ ok: true, data: { version: 4 } });
    const stored = await server.store.load(code);
    expect(stored?.version).toBe(4);
    expect(stored?.room.log.filter((e) => e.type === 'gameStarted')).toHaveLength(1);
    expect((await guests[0]!.waitForVersion(4)).room.gameState.handNumber).toBe(1);
  });

  it('resume of a room the player is not in, or that does not exist, fails and says gone', async () => {
    const { code } = await lobby();
    const stranger = await connect();
    expect(await stranger.resume(code)).toEqual({ ok: false, error: NOT_IN_ROOM });
    expect(await stranger.resume('ZZZZ9')).toEqual({ ok: false, error: 'Room not found' });
    await stranger.waitFor(() => stranger.gone.length === 2);
    expect(stranger.gone).toEqual([
      { roomCode: code, reason: 'removed' },
      { roomCode: 'ZZZZ9', reason: 'not_found' },
    ]);
    // And receives nothing from that room afterwards.
    expect(stranger.snapshots).toEqual([]);
  });

  it('joining a room again (same player) is a resume, not a second seat', async () => {
    const { guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    const second = await connect(gus.token);
    const snap = okData(await second.joinRoom(code, 'Gus', 5000));
    expect(Object.keys(snap.room.players)).toHaveLength(2);
    expect(snap.version).toBe(3);
  });

  it('a second tab of the same player: closing one keeps the player present', async () => {
    const { host, guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    const tab = await connect(gus.token);
    okData(await tab.resume(code));
    gus.close();
    await sleep(200);
    expect(host.latest?.presence[gus.playerId]).toBe(true);
  });
});

describe('leaving and removal', () => {
  it('the host removes a player: they get gone {removed} and no further snapshots', async () => {
    const { host, guests, code } = await lobby('Gus', 'Ivy');
    const [gus, ivy] = guests as [TestClient, TestClient];
    const v = await host.must(code, { type: 'remove', playerId: gus.playerId });
    await gus.waitFor(() => gus.gone.length > 0);
    expect(gus.gone).toEqual([{ roomCode: code, reason: 'removed' }]);
    const snap = await ivy.waitForVersion(v);
    expect(snap.room.players[gus.playerId]).toBeUndefined();
    const count = gus.snapshots.length;
    await host.must(code, { type: 'updateSettings', smallBlind: 5, bigBlind: 10 });
    await ivy.waitForVersion(v + 1);
    expect(gus.snapshots.length).toBe(count);
    expect(await gus.resume(code)).toEqual({ ok: false, error: NOT_IN_ROOM });
  });

  it('a player who leaves: their other tab hears gone {left}, not that they were removed', async () => {
    const { host, guests, code } = await lobby('Gus', 'Ivy');
    const [gus, ivy] = guests as [TestClient, TestClient];
    const tab = await connect(gus.token);
    okData(await tab.resume(code));
    const v = await gus.must(code, { type: 'leave' });
    await tab.waitFor(() => tab.gone.length > 0);
    expect(tab.gone).toEqual([{ roomCode: code, reason: 'left' }]);
    // Everyone else only sees him go; a removal in the same room is still a removal.
    expect((await ivy.waitForVersion(v)).room.players[gus.playerId]).toBeUndefined();
    expect([host.gone, ivy.gone]).toEqual([[], []]);
    await host.must(code, { type: 'remove', playerId: ivy.playerId });
    await ivy.waitFor(() => ivy.gone.length > 0);
    expect(ivy.gone).toEqual([{ roomCode: code, reason: 'removed' }]);
  });

  it('a join sent right behind the same player\'s leave joins again, unanswered by "not in this room" (regression, session 36 race audit)', async () => {
    // The join read the room before the leave was applied, took the player for seated, and asked to
    // resume behind the leave: "You are not in this room" and a 'gone', where a second tap joined.
    // The room's queue is held while both arrive, so the leave is still waiting when the join reads.
    const { host, guests, code } = await lobby('Gus');
    const [gus] = guests as [TestClient];
    let release = () => {};
    const held = server.app.rooms.runExclusive(code, () => new Promise<void>((r) => (release = r)));
    const left = gus.command(code, { type: 'leave' });
    await sleep(50); // the leave reaches the server and waits its turn
    const joined = gus.joinRoom(code, 'Gus', 5000);
    await sleep(100); // the join reads the room (Gus still in it) and waits its turn
    release();
    await held;
    expect((await left).ok).toBe(true);
    const room = okData(await joined).room;
    expect(room.players[gus.playerId]).toMatchObject({ name: 'Gus', isApproved: false });
    await host.must(code, { type: 'approve', playerId: gus.playerId });
    // The leave tells the leaving socket so; never that he was removed.
    expect(gus.gone).toEqual([{ roomCode: code, reason: 'left' }]);
  });

  it('a removed player replaying their join command id gets no snapshot and no subscription', async () => {
    const { host, code } = await lobby();
    const eve = await connect();
    const joinId = randomUUID();
    okData(await eve.joinRoom(code, 'Eve', 5000, joinId));
    await host.must(code, { type: 'remove', playerId: eve.playerId });
    await eve.waitFor(() => eve.gone.length === 1);
    await host.must(code, { type: 'updateSettings', smallBlind: 300, bigBlind: 600 });
    const count = eve.snapshots.length;
    const held = eve.latest;
    // The retried joinRoom and the same id as a `join` command: answered as `resume` answers a non-member.
    expect(await eve.joinRoom(code, 'Eve', 5000, joinId)).toEqual({ ok: false, error: NOT_IN_ROOM });
    expect(await eve.command(code, { type: 'join', name: 'Eve', startingChips: 5000 }, joinId)).toEqual({
      ok: false,
      error: NOT_IN_ROOM,
    });
    await eve.waitFor(() => eve.gone.length === 3);
    expect(eve.gone).toEqual(Array.from({ length: 3 }, () => ({ roomCode: code, reason: 'removed' })));
    const serverSide = [...server.app.io.of('/').sockets.values()].find(
      (s) => s.data.playerId === eve.playerId,
    );
    expect(serverSide?.rooms.has(code)).toBe(false);
    // Later changes do not reach her (her next ack comes after anything sent before it).
    await host.must(code, { type: 'updateSettings', smallBlind: 400, bigBlind: 800 });
    expect(await eve.resume(code)).toEqual({ ok: false, error: NOT_IN_ROOM });
    expect(eve.snapshots.length).toBe(count);
    expect(eve.latest).toEqual(held);
    expect((await server.store.load(code))?.room.players[eve.playerId]).toBeUndefined();
  });

  it('the host leaving deletes the room: everyone gets gone {deleted}, the store forgets it', async () => {
    const { host, guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    okData(await host.command(code, { type: 'leave' }));
    await gus.waitFor(() => gus.gone.length > 0);
    expect(gus.gone).toEqual([{ roomCode: code, reason: 'deleted' }]);
    expect(await server.store.load(code)).toBeNull();
    expect(await gus.resume(code)).toEqual({ ok: false, error: 'Room not found' });
  });

  it('a player leaving is removed for everyone else', async () => {
    const { host, guests, code } = await lobby('Gus');
    const gus = guests[0]!;
    const v = await gus.must(code, { type: 'leave' });
    const snap = await host.waitForVersion(v);
    expect(snap.room.players[gus.playerId]).toBeUndefined();
    expect(snap.presence[gus.playerId]).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('join attempts are limited per connection', async () => {
    await server.close();
    server = await startServer({ env: { JOIN_RATE_PER_MIN: '3' } });
    const c = await connect();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await c.joinRoom('AAAAA', 'x', 5000));
    expect(results.map((r) => (r.ok ? 'ok' : r.error))).toEqual([
      JOIN_ROOM_NOT_FOUND,
      JOIN_ROOM_NOT_FOUND,
      JOIN_ROOM_NOT_FOUND,
      'Too many requests. Please wait a moment.',
      'Too many requests. Please wait a moment.',
    ]);
  });

  it('join attempts are limited per IP across connections', async () => {
    await server.close();
    server = await startServer({ env: { JOIN_RATE_PER_IP_PER_MIN: '3' } });
    const errors = [];
    for (let i = 0; i < 5; i++) {
      const c = await connect();
      const r = await c.joinRoom('AAAAA', 'x', 5000);
      errors.push(r.ok ? 'ok' : r.error);
    }
    expect(errors.slice(3)).toEqual([
      'Too many requests. Please wait a moment.',
      'Too many requests. Please wait a moment.',
    ]);
  });

  it('a whole table behind one home Wi-Fi joins under the default limits, a mistyped code among them (regression)', async () => {
    await server.close();
    const defaults = loadConfig({});
    server = await startServer({
      env: {
        JOIN_RATE_PER_MIN: String(defaults.joinRatePerMin),
        JOIN_RATE_PER_IP_PER_MIN: String(defaults.joinRatePerIpPerMin),
        FAILED_LOOKUP_RATE_PER_MIN: String(defaults.failedLookupRatePerMin),
      },
    });
    // Every phone connects from 127.0.0.1, as a table on one Wi-Fi reaches the server from one address.
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const typo = await connect();
    const wrong = code === 'ZZZZZ' ? 'YYYYY' : 'ZZZZZ';
    expect(await typo.joinRoom(wrong, 'Gus', 5000)).toEqual({ ok: false, error: JOIN_ROOM_NOT_FOUND });
    const results = [];
    for (let i = 0; i < 9; i++) {
      const guest = i === 0 ? typo : await connect();
      const r = await guest.joinRoom(code, `Guest ${i}`, 5000);
      results.push(r.ok ? 'ok' : r.error);
    }
    expect(results).toEqual(Array(9).fill('ok'));
  });

  it("joins that find no room cost the IP failed lookups, and the table's own joins still go through", async () => {
    await server.close();
    server = await startServer({ env: { FAILED_LOOKUP_RATE_PER_MIN: '3' } });
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const wrong = code === 'ZZZZZ' ? 'YYYYY' : 'ZZZZZ';
    const errors = [];
    for (let i = 0; i < 5; i++) {
      const prober = await connect();
      const r = await prober.joinRoom(wrong, 'x', 5000);
      errors.push(r.ok ? 'ok' : r.error);
    }
    expect(errors).toEqual([
      JOIN_ROOM_NOT_FOUND,
      JOIN_ROOM_NOT_FOUND,
      JOIN_ROOM_NOT_FOUND,
      'Too many requests. Please wait a moment.',
      'Too many requests. Please wait a moment.',
    ]);
    const guest = await connect();
    expect((await guest.joinRoom(code, 'Gus', 5000)).ok).toBe(true);
  });

  it('commands are limited per player, across every connection of theirs', async () => {
    await server.close();
    server = await startServer({ env: { COMMAND_RATE_PER_SEC: '1', COMMAND_BURST: '6' } });
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    // Three more connections with the host's token (tabs, or a script): one budget between them.
    const tabs = [host, await connect(host.token), await connect(host.token), await connect(host.token)];
    const acks = await Promise.all(
      tabs.flatMap((tab) =>
        [1, 2, 3].map(() => tab.command(code, { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })),
      ),
    );
    expect(acks.filter((a) => a.ok)).toHaveLength(6);
    expect(acks.filter((a) => !a.ok && a.error === 'Too many requests. Please wait a moment.')).toHaveLength(
      6,
    );
    // Another player's budget is their own.
    const guest = await connect();
    okData(await guest.joinRoom(code, 'Gus', 5000));
    expect((await guest.command(code, { type: 'leave' })).ok).toBe(true);
  });

  it('commands are limited per player; the connection goes on', async () => {
    await server.close();
    server = await startServer({ env: { COMMAND_RATE_PER_SEC: '1', COMMAND_BURST: '5' } });
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const acks = await Promise.all(
      Array.from({ length: 8 }, () =>
        host.command(code, { type: 'updateSettings', smallBlind: 1, bigBlind: 2 }),
      ),
    );
    expect(acks.filter((a) => a.ok)).toHaveLength(5);
    expect(acks.filter((a) => !a.ok && a.error === 'Too many requests. Please wait a moment.')).toHaveLength(
      3,
    );
    await sleep(1100);
    expect((await host.command(code, { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })).ok).toBe(true);
    expect(INVALID_REQUEST).toBe('Invalid request');
  });
});
