/**
 * Moving a seat to a new phone with the rooms on the room thread (thread-rooms.ts: the claim's
 * `prepare` and a non-member actor go through the thread's request) and on Redis with two servers
 * (the claim of one link raced on both: one seat, one move). seat-link.test.ts runs on a clock of its
 * own, which keeps it off both.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../engine';
import type { SeatClaim, SeatLinkResponse } from '../shared/protocol';
import { appsOnRedis } from './scale-out/apps-on-redis';
import { redisGate } from './scale-out/redis-available';
import { emitWithAck, okData, startServer, TestClient, type TestServer } from './test-helpers';

const gate = await redisGate('seat-link-modes');

const seatLink = (c: TestClient, roomCode: string, playerId: string) =>
  emitWithAck<SeatLinkResponse>(c.socket, 'seatLink', { commandId: crypto.randomUUID(), roomCode, playerId });
const claimSeat = (c: TestClient, seat: unknown) => emitWithAck<SeatClaim>(c.socket, 'claimSeat', { seat });

/** A started game of Ana (host, on `hostOn`) and Ben (on `benOn`), Ben's phone then gone. */
async function tableWithBenAway(
  phone: (s: TestServer, token?: string) => Promise<TestClient>,
  hostOn: TestServer,
  benOn: TestServer,
) {
  const ana = await phone(hostOn);
  const ben = await phone(benOn);
  const code = okData(await ana.createRoom('Ana', 5_000)).room.roomCode;
  okData(await ben.joinRoom(code, 'Ben', 5_000));
  okData(await ana.command(code, { type: 'approve', playerId: ben.playerId }));
  okData(await ana.command(code, { type: 'startGame' }));
  await ana.waitFor(() => ana.latest?.presence[ben.playerId] === true, 5000, 'Ben online');
  const benId = ben.playerId;
  ben.close();
  await ana.waitFor(() => ana.latest?.presence[benId] === false, 5000, 'Ben away');
  return { ana, benId, benToken: ben.token, code };
}

/**
 * Ben's seat taken by one phone's link (on `firstOn`), then, that phone away, by a newer link's (on
 * `secondOn`): the first phone's credentials are spent, on either server (the thread's whole view says
 * which link holds each seat).
 */
async function earlierLinkSpent(
  phone: (s: TestServer, token?: string) => Promise<TestClient>,
  ana: TestClient,
  benId: string,
  code: string,
  firstOn: TestServer,
  secondOn: TestServer,
) {
  const first = okData(await claimSeat(await phone(firstOn), okData(await seatLink(ana, code, benId)).seat));
  const held = await phone(firstOn, first.credentials.token);
  okData(await held.resume(code));
  await ana.waitFor(() => ana.latest?.presence[benId] === true, 5000, 'Ben in on the first phone');
  held.close();
  await ana.waitFor(() => ana.latest?.presence[benId] === false, 5000, 'the first phone away');
  const second = okData(
    await claimSeat(await phone(secondOn), okData(await seatLink(ana, code, benId)).seat),
  );
  expect(second.credentials.token).not.toBe(first.credentials.token);
  for (const s of [firstOn, secondOn]) {
    const stale = await phone(s, first.credentials.token);
    expect(await stale.resume(code)).toEqual({ ok: false, error: MSG.seatHeldElsewhere });
    expect(await stale.command(code, { type: 'leave' })).toEqual({ ok: false, error: MSG.seatHeldElsewhere });
    stale.close();
  }
  okData(await (await phone(firstOn, second.credentials.token)).resume(code));
}

describe('a seat link with the rooms on the room thread', () => {
  const clients: TestClient[] = [];
  let server: TestServer | undefined;
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
  });
  const phone = async (s: TestServer, token?: string) => {
    const c = await TestClient.connect(s.url, token ? { token } : {});
    clients.push(c);
    return c;
  };

  it('works once, the table sees the move, the same phone asking again gets its credentials', async () => {
    server = await startServer({ roomThread: true });
    const s = server;
    const { ana, benId, code } = await tableWithBenAway(phone, s, s);
    const { seat } = okData(await seatLink(ana, code, benId));
    const racers = await Promise.all([phone(s), phone(s), phone(s)]);
    const answers = await Promise.all(racers.map((c) => claimSeat(c, seat)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual([
      { ok: false, error: MSG.seatLinkUsed },
      { ok: false, error: MSG.seatLinkUsed },
    ]);
    await ana.waitFor(() => ana.latest?.room.log.at(-1)?.type === 'seatMoved', 5000, 'seatMoved');
    const winner = racers[answers.findIndex((a) => a.ok)]!;
    const version = (await s.store.load(code))!.version;
    expect(await claimSeat(winner, seat)).toEqual(answers.find((a) => a.ok));
    expect((await s.store.load(code))!.version).toBe(version);
    const moved = await phone(s, okData(answers.find((a) => a.ok)!).credentials.token);
    okData(await moved.resume(code));
    await ana.waitFor(() => ana.latest?.presence[benId] === true, 5000, 'Ben back');
    // With Ben's seat connected, a newer link is refused; the spent one stays spent.
    expect((await seatLink(ana, code, benId)).ok).toBe(false);
    expect(await claimSeat(await phone(s), seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    // The new phone in as Ben ended the claim kept on the seat (the thread's view says which seats
    // hold one): given back, and Ben's seat away, the phone that used the link takes nothing with it.
    await vi.waitFor(async () =>
      expect((await s.store.load(code))!.room.players[benId]?.seatClaim).toBeUndefined(),
    );
    moved.close();
    await ana.waitFor(() => ana.latest?.presence[benId] === false, 5000, 'Ben away again');
    expect(await claimSeat(winner, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
  });

  it("Ben's phone back voids his unused link (the thread's view says which seats have one)", async () => {
    server ??= await startServer({ roomThread: true });
    const s = server;
    const { ana, benId, benToken, code } = await tableWithBenAway(phone, s, s);
    const { seat } = okData(await seatLink(ana, code, benId));
    const back = await phone(s, benToken);
    okData(await back.resume(code));
    await ana.waitFor(() => ana.latest?.room.log.at(-1)?.type === 'seatLinkVoid', 5000, 'link voided');
    back.close();
    await ana.waitFor(() => ana.latest?.presence[benId] === false, 5000, 'Ben away again');
    expect(await claimSeat(await phone(s), seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
  });

  it("a phone holding Ben's seat by an earlier link is refused once a newer link's claim moved it", async () => {
    server ??= await startServer({ roomThread: true });
    const s = server;
    const { ana, benId, code } = await tableWithBenAway(phone, s, s);
    await earlierLinkSpent(phone, ana, benId, code, s, s);
  });
});

describe.skipIf(gate.skip)('a seat link on Redis, two servers', () => {
  const apps = appsOnRedis('seat-link-modes');
  afterAll(() => apps.close(gate.available));

  it('made on one server, raced on both: one phone gets the seat, the link is spent on both', async () => {
    gate.check();
    const a = await apps.start();
    const b = await apps.start();
    const { ana, benId, code } = await tableWithBenAway(apps.phone, a, b);
    const { seat } = okData(await seatLink(ana, code, benId));
    const racers = await Promise.all([apps.phone(a), apps.phone(b), apps.phone(a), apps.phone(b)]);
    const answers = await Promise.all(racers.map((c) => claimSeat(c, seat)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toHaveLength(3);
    for (const refused of answers.filter((x) => !x.ok))
      expect(refused).toEqual({ ok: false, error: MSG.seatLinkUsed });
    await ana.waitFor(() => ana.latest?.room.log.at(-1)?.type === 'seatMoved', 5000, 'seatMoved');
    const moves = (await a.store.load(code))!.room.log.filter((e) => e.type === 'seatMoved');
    expect(moves).toHaveLength(1);
    const winner = racers[answers.findIndex((x) => x.ok)]!;
    expect(await claimSeat(winner, seat)).toEqual(answers.find((x) => x.ok));
  });

  it("a phone holding Ben's seat by an earlier link is refused on both servers once a newer link's claim moved it", async () => {
    gate.check();
    const a = await apps.start();
    const b = await apps.start();
    const { ana, benId, code } = await tableWithBenAway(apps.phone, a, b);
    await earlierLinkSpent(apps.phone, ana, benId, code, b, a);
  });
});
