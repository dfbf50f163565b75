/**
 * Integration: a player who left or was removed during the game sees its results once it has ended
 * ("Last Game's Results" on their home screen), on a real server with real sockets, both ways the
 * rooms are held (the room thread of `npm start` in SQLite mode, and the direct rooms of Redis mode).
 * Until the game ends they are answered GAME_STILL_GOING with no 'gone' notice; they are never
 * subscribed and never shown present; a stranger still learns nothing more than before, and pays for
 * the lookup, which they do not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GAME_STILL_GOING } from '../shared/protocol';
import { NOT_IN_ROOM, TOO_MANY_REQUESTS } from './socket-gateway';
import { okData, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer | undefined;
const clients: TestClient[] = [];

async function connect(token?: string): Promise<TestClient> {
  const c = await TestClient.connect(server!.url, token ? { token } : {});
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

describe.each([
  ['on the room thread', true],
  ['in direct rooms (Redis mode)', false],
])('a player who left during the game, %s', (_, roomThread) => {
  it('sees the results once it has ended, unsubscribed and unseen; GAME_STILL_GOING until then', async () => {
    // One failed lookup a minute for the whole IP: a stranger's spends it, the departed never need it.
    server = await startServer({ roomThread, env: { FAILED_LOOKUP_RATE_PER_MIN: '1' } });
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const [gus, ivy, eve, pat] = [await connect(), await connect(), await connect(), await connect()];
    for (const [guest, name] of [
      [gus, 'Gus'],
      [ivy, 'Ivy'],
      [eve, 'Eve'],
    ] as const) {
      okData(await guest.joinRoom(code, name, 5000));
      await host.must(code, { type: 'approve', playerId: guest.playerId });
    }
    await host.must(code, { type: 'startGame' });
    // Pat asks to join during the game and is denied: never seated, so no ledger entry.
    okData(await pat.joinRoom(code, 'Pat', 5000));
    await host.must(code, { type: 'remove', playerId: pat.playerId });
    await gus.must(code, { type: 'leave' });
    await host.must(code, { type: 'remove', playerId: ivy.playerId });
    await ivy.waitFor(() => ivy.gone.length === 1);
    await pat.waitFor(() => pat.gone.length === 1);

    // Gus's phone later, a new connection with his token; Ivy's phone as it is.
    const gusLater = await connect(gus.token);
    const stranger = await connect();
    expect(await gusLater.resume(code)).toEqual({ ok: false, error: GAME_STILL_GOING });
    expect(await ivy.resume(code)).toEqual({ ok: false, error: GAME_STILL_GOING });
    expect(await stranger.resume(code)).toEqual({ ok: false, error: NOT_IN_ROOM });
    // The IP's one failed lookup is spent: the stranger and the denied Pat are refused, Gus is not.
    expect(await pat.resume(code)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
    expect(await gusLater.resume(code)).toEqual({ ok: false, error: GAME_STILL_GOING });

    const ended = await host.must(code, { type: 'endGame' });
    await eve.waitForVersion(ended);
    const seen = eve.snapshots.length;
    const results = okData(await gusLater.resume(code));
    expect([results.version, results.room.status]).toEqual([ended, 'ENDED']);
    // Gus left with the small blind (100) in the pot and Ivy was removed with the big (200): ending
    // the game mid-hand gave both back (the engine's finishGame).
    expect(results.room.ledger.map((entry) => [entry.name, entry.finalChips, entry.netResult])).toEqual([
      ['Gus', 5000, 0],
      ['Ivy', 5000, 0],
    ]);
    expect(results.room.players[gusLater.playerId]).toBeUndefined();
    expect(results.presence[gusLater.playerId]).toBeUndefined();
    expect(okData(await ivy.resume(code)).version).toBe(ended);
    expect(await stranger.resume(code)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });

    // Not subscribed, and nobody was shown a new snapshot for it.
    const serverSide = [...server.app.io.of('/').sockets.values()].filter((s) =>
      [gusLater.playerId, ivy.playerId].includes(s.data.playerId),
    );
    expect(serverSide).toHaveLength(3);
    expect(serverSide.map((s) => s.rooms.has(code))).toEqual([false, false, false]);
    expect(okData(await eve.resume(code)).version).toBe(ended);
    expect(eve.snapshots.length).toBe(seen);
    // No 'gone' notice for asking: the room is not gone for them.
    expect([gus.gone, gusLater.gone, ivy.gone]).toEqual([
      [{ roomCode: code, reason: 'left' }],
      [],
      [{ roomCode: code, reason: 'removed' }],
    ]);
  });
});
