/**
 * A player takes over as host over the wire (`claimHost`), by the server's clock: the host's phone gone
 * (closed), the table waiting on the host to deal. Refused a second early, accepted at 3 minutes; every
 * phone gets the new host, who deals on; the old host, back, is a player.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACT_FOR_AFTER_MS, HOST_AWAY_MS } from '../engine';
import { okData, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer;
let clock = Date.UTC(2030, 0, 1, 20);
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startServer({ now: () => clock });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.close();
});

const connect = async (token?: string) => {
  const c = await TestClient.connect(server.url, token ? { token } : {});
  clients.push(c);
  return c;
};

/** A started game: the first name hosts, the others join with $50.00 each and are approved. */
async function startedTable(names: string[]): Promise<{ code: string; phones: TestClient[] }> {
  const phones = await Promise.all(names.map(() => connect()));
  const [host, ...guests] = phones as [TestClient, ...TestClient[]];
  const code = okData(await host.createRoom(names[0]!, 5_000)).room.roomCode;
  for (const [i, c] of guests.entries()) {
    okData(await c.joinRoom(code, names[i + 1]!, 5_000));
    okData(await host.command(code, { type: 'approve', playerId: c.playerId }));
  }
  okData(await host.command(code, { type: 'startGame' }));
  return { code, phones };
}

describe('taking over as host', () => {
  it('refused before the table has waited 3 minutes, accepted at 3; the new host deals, the old one cannot', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    // Everyone calls or checks: the host must deal the flop. Ana acts first (dealer), then Ben, Cal.
    for (const c of [ana, ben, cal]) okData(await c.command(code, { type: 'act', action: 'CALL' }));
    const last = (await server.store.load(code))!;
    expect(last.room.gameState.canAdvanceStage).toBe(true);
    ana.close(); // the host's phone went flat

    clock += HOST_AWAY_MS - 1_000;
    expect(await ben.command(code, { type: 'claimHost' })).toEqual({
      ok: false,
      error: 'The host can be replaced only after the table has waited 3 minutes for them',
    });
    clock += 1_000;
    const { version } = okData(await ben.command(code, { type: 'claimHost' }));
    const seen = await cal.waitForVersion(version);
    expect(seen.room.hostId).toBe(ben.playerId);
    expect(seen.room.log.at(-1)).toMatchObject({
      type: 'hostChanged',
      playerId: ben.playerId,
      claimed: true,
    });
    okData(await ben.command(code, { type: 'advanceStage' }));

    // Ana's phone is back: a player now, her host powers gone.
    const back = await connect(ana.token);
    expect(await back.command(code, { type: 'advanceStage' })).toEqual({
      ok: false,
      error: 'Only the host can advance stages',
    });
    expect((await server.store.load(code))!.room.gameState.stage).toBe('FLOP');
  });

  it('two players claim at once: one takes over, the other is told who did (regression, session 36 race audit)', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    ana.close();
    clock += HOST_AWAY_MS;
    const [byBen, byCal] = await Promise.all([
      ben.command(code, { type: 'claimHost' }),
      cal.command(code, { type: 'claimHost' }),
    ]);
    const [won, lost, winner] = byBen.ok ? [byBen, byCal, 'Ben'] : [byCal, byBen, 'Cal'];
    expect(won.ok).toBe(true);
    expect(lost).toEqual({ ok: false, error: `${winner} has just taken over as host. Nothing was done.` });
    const host = (await server.store.load(code))!.room.hostId;
    expect(host).toBe(winner === 'Ben' ? ben.playerId : cal.playerId);
  });

  it("refused while the host's phone is connected, however long the table waited; a phone cannot say who is online (regression, session 33 security audit)", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    clock += 10 * HOST_AWAY_MS;
    expect(await ben.command(code, { type: 'claimHost' })).toEqual({
      ok: false,
      error: "The host's phone is still connected: the host is at the table. Nothing was done.",
    });
    // The presence the engine reads is the server's: a phone that sends its own is refused outright.
    expect(await ben.command(code, { type: 'claimHost', online: [] } as never)).toEqual({
      ok: false,
      error: 'Invalid request',
    });
    expect((await server.store.load(code))!.room.hostId).toBe(ana.playerId);
  });
});

describe("who is online is read when the command runs, in the room's order (regression, session 36 race audit)", () => {
  it("a claim queued behind the host's phone coming back is refused: the host is online by then", async () => {
    // The gateway read who was online before putting the claim in the room's queue, behind the host's
    // resume: the resume then made the host present, and the claim, applied after it, took the host
    // role from a host at the table (5 tables of 8 in the audit, on a loaded server). Here the room's
    // queue is held while both arrive, so the resume is still waiting when the claim comes.
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    ana.close(); // the host's phone goes flat; the table waits
    await ben.waitFor(() => ben.latest?.presence[ana.playerId] === false, 5000, 'Ana offline');
    clock += HOST_AWAY_MS;
    const back = await connect(ana.token);
    let release = () => {};
    const held = server.app.rooms.runExclusive(code, () => new Promise<void>((r) => (release = r)));
    const resumed = back.resume(code);
    await new Promise((r) => setTimeout(r, 50)); // the resume reaches the server and waits its turn
    const claim = ben.command(code, { type: 'claimHost' });
    await new Promise((r) => setTimeout(r, 100)); // the claim reaches the server and waits its turn
    release();
    await held;
    okData(await resumed);
    expect(await claim).toEqual({
      ok: false,
      error: "The host's phone is still connected: the host is at the table. Nothing was done.",
    });
    expect((await server.store.load(code))!.room.hostId).toBe(ana.playerId);
  });
});

describe("the host's Check for / Fold for (regression, session 33 security audit)", () => {
  it('refused for a connected player whose turn is younger than 30 s; taken once it has waited, or at once when the phone is gone', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    // Ana (dealer) raises; Ben (small blind) is to act, his phone connected.
    okData(await ana.command(code, { type: 'act', action: 'RAISE', amount: 1_000 }));
    const foldBen = { type: 'actFor', playerId: ben.playerId, action: 'FOLD' } as const;
    expect(await ana.command(code, foldBen)).toEqual({
      ok: false,
      error: 'Ben is at the table and can act. Nothing was done.',
    });
    expect(await ana.command(code, { ...foldBen, online: [] } as never)).toEqual({
      ok: false,
      error: 'Invalid request',
    });
    clock += ACT_FOR_AFTER_MS;
    okData(await ana.command(code, foldBen));
    // Cal's phone goes flat on his turn: the host folds for him at once.
    cal.close();
    await ana.waitFor(() => ana.latest?.presence[cal.playerId] === false, 5000, 'Cal offline');
    okData(await ana.command(code, { type: 'actFor', playerId: cal.playerId, action: 'FOLD' }));
    const room = (await server.store.load(code))!.room;
    expect(room.players[ben.playerId]!.hasFolded).toBe(true);
    expect(room.players[cal.playerId]!.hasFolded).toBe(true);
  });
});

describe("a phone loading the room is told how long the table has waited (RoomSnapshot.idle; the clock audit's reload)", () => {
  it("the resume's and a join's acknowledgements carry it by the server's clock; a broadcast does not; a clock gone back says 0", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    okData(await ana.command(code, { type: 'act', action: 'CALL' }));
    clock += 25_000;
    // Ben's phone reloads: the table's last move (Ana's call) was 25 s ago.
    expect(okData(await ben.resume(code)).idle).toBe(25_000);
    // A stranger asking to join is no move at the table (tableActivity): 40 s now, for the join's answer.
    clock += 15_000;
    const dan = await connect();
    const joined = okData(await dan.joinRoom(code, 'Dan', 5_000));
    expect(joined.idle).toBe(40_000);
    expect(Object.keys(joined)).toEqual(['version', 'room', 'presence', 'idle']);
    // Ben acts: the broadcast says nothing of it, and the next resume counts from his check.
    const { version } = okData(await ben.command(code, { type: 'act', action: 'CALL' }));
    await ana.waitForVersion(version);
    const broadcast = ana.snapshots.find((s) => s.version === version);
    expect(broadcast && Object.keys(broadcast)).toEqual(['version', 'room', 'presence', 'logFrom']);
    clock += 1_000;
    expect(okData(await ana.resume(code)).idle).toBe(1_000);
    // The server's clock stepped back since: never a negative wait.
    clock -= 60_000;
    expect(okData(await ana.resume(code)).idle).toBe(0);
    clock += 60_000;
  });
});
