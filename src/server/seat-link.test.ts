/**
 * Moving a seat to a new phone over the wire: the host's `seatLink` (the engine rules, the server signs
 * an expiring link) and a new phone's `claimSeat`, which gives it the seat's credentials; reconnected
 * with them, the new phone is that player: same seat, same chips, their turn.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../engine';
import {
  SEAT_LINK_EXPIRED,
  SEAT_LINK_INVALID,
  type SeatClaim,
  type SeatLinkResponse,
} from '../shared/protocol';
import { createIdentity } from './identity';
import { SEAT_LINK_TTL_MS } from './socket-gateway';
import { emitWithAck, okData, startServer, TestClient, type TestServer } from './test-helpers';

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

const seatLink = (
  c: TestClient,
  roomCode: string,
  playerId: string,
  commandId: string = crypto.randomUUID(),
) => emitWithAck<SeatLinkResponse>(c.socket, 'seatLink', { commandId, roomCode, playerId });
const claimSeat = (c: TestClient, seat: unknown) => emitWithAck<SeatClaim>(c.socket, 'claimSeat', { seat });

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

/** Closes `phone` and waits until `watcher` sees its player offline (the server's presence). */
async function away(phone: TestClient, watcher: TestClient): Promise<void> {
  const id = phone.playerId;
  phone.close();
  await watcher.waitFor(() => watcher.latest?.presence[id] === false, 5000, `${id} offline`);
}

describe('moving a seat to a new phone', () => {
  it("the host's link gives a new phone Ben's seat: his chips, his turn, the table's log says so", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    // Ana (dealer) calls; Ben's turn (the small blind, $0.xx in) when his phone goes flat.
    okData(await ana.command(code, { type: 'act', action: 'CALL' }));
    const before = (await server.store.load(code))!.room;
    expect(before.gameState.currentTurnPlayerId).toBe(ben.playerId);
    await away(ben, ana);

    const link = okData(await seatLink(ana, code, ben.playerId));
    expect(link.expiresInMs).toBe(SEAT_LINK_TTL_MS);
    expect(link.seat.startsWith(`${code}.${ben.playerId}.`)).toBe(true);
    await cal.waitFor(() => cal.latest?.room.log.at(-1)?.type === 'seatLinkMade');
    expect(cal.latest!.room.log.at(-1)).toMatchObject({
      type: 'seatLinkMade',
      playerId: ben.playerId,
      name: 'Ben',
    });
    const linked = (await server.store.load(code))!.room;
    // The link's id, kept on Ben's seat (it works once), and nothing else.
    const linkId = linked.players[ben.playerId]!.seatLink;
    expect(link.seat.split('.')[2]).toBe(linkId);
    expect(linked.players).toEqual({
      ...before.players,
      [ben.playerId]: { ...before.players[ben.playerId], seatLink: linkId },
    });
    expect(linked.gameState).toEqual(before.gameState);

    // The new phone (a friend's, in a private tab): a player of its own until it claims the seat.
    const fresh = await connect();
    expect(fresh.playerId).not.toBe(ben.playerId);
    const claim = okData(await claimSeat(fresh, link.seat));
    // Ben in this room only: never his own credentials, which his browser keeps for every game.
    expect(claim.roomCode).toBe(code);
    expect(claim.credentials).toEqual({ playerId: ben.playerId, token: expect.any(String), room: code });
    expect(claim.credentials.token).not.toBe(ben.token);
    // Made for this link: they hold the seat until another link's claim moves it on.
    expect(claim.credentials.token.startsWith(`${code}:${ben.playerId}:${linkId}.`)).toBe(true);
    // The table sees the seat move; the link is spent.
    await cal.waitFor(() => cal.latest?.room.log.at(-1)?.type === 'seatMoved');
    expect(cal.latest!.room.log.at(-1)).toMatchObject({
      type: 'seatMoved',
      playerId: ben.playerId,
      name: 'Ben',
    });
    expect('seatLink' in (await server.store.load(code))!.room.players[ben.playerId]!).toBe(false);
    fresh.close();
    const newPhone = await connect(claim.credentials.token);
    expect(newPhone.creds).toEqual(claim.credentials);
    const resumed = okData(await newPhone.resume(code));
    expect(resumed.room.players[ben.playerId]!.stack).toBe(before.players[ben.playerId]!.stack);
    await ana.waitFor(() => ana.latest?.presence[ben.playerId] === true, 5000, 'Ben online again');
    // Ben's turn, from the new phone.
    const { version } = okData(await newPhone.command(code, { type: 'act', action: 'CALL' }));
    const seen = await cal.waitForVersion(version);
    expect(seen.room.log.at(-1)).toMatchObject({
      type: 'playerActed',
      playerId: ben.playerId,
      action: 'CALL',
    });
    // The link is spent.
    const other = await connect();
    expect(await claimSeat(other, link.seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });

    // Anywhere else the new phone is refused: another room, a new one (it goes back to its own first).
    const elsewhere = okData(await other.createRoom('Eve', 5_000)).room.roomCode;
    const only = `This phone holds a seat in game ${code} only.`;
    expect(await newPhone.createRoom('Ben', 5_000)).toEqual({ ok: false, error: only });
    expect(await newPhone.joinRoom(elsewhere, 'Ben', 5_000)).toEqual({ ok: false, error: only });
    expect(await newPhone.resume(elsewhere)).toEqual({ ok: false, error: only });
    expect(await newPhone.command(elsewhere, { type: 'leave' })).toEqual({ ok: false, error: only });
    expect(await seatLink(newPhone, elsewhere, other.playerId)).toEqual({ ok: false, error: only });
    expect(Object.keys((await server.store.load(elsewhere))!.room.players)).toEqual([other.playerId]);
    // Ben's own phone, back, is Ben everywhere as before: the same player as the new phone here.
    const own = await connect(ben.token);
    expect(own.creds).toEqual({ playerId: ben.playerId, token: ben.token });
    okData(await own.resume(code));
  });

  it('room-scoped credentials cannot be forged or moved to another room', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    await away(ben, ana);
    const { credentials } = okData(
      await claimSeat(await connect(), okData(await seatLink(ana, code, ben.playerId)).seat),
    );
    const sig = credentials.token.slice(credentials.token.lastIndexOf('.') + 1);
    expect(credentials.token).toMatch(new RegExp(`^${code}:${ben.playerId}:[A-Za-z0-9_-]{11}\\.`));
    const other = code === 'ZZZZZ' ? 'YYYYY' : 'ZZZZZ';
    for (const forged of [
      `${other}:${ben.playerId}.${sig}`,
      `${code}:${ana.playerId}.${sig}`,
      `${code}:${ben.playerId}.${sig.slice(0, -1)}${sig.at(-1) === 'A' ? 'B' : 'A'}`,
      `${code.toLowerCase()}:${ben.playerId}.${sig}`,
      `${code}:${ben.playerId}.${sig}=`,
      `:${ben.playerId}.${sig}`,
      `${code}:${ben.token}`,
      // The link's id dropped (the shape of session 42's credentials) or changed.
      `${code}:${ben.playerId}.${sig}`,
      `${code}:${ben.playerId}:AAAAAAAAAAA.${sig}`,
    ]) {
      const phone = await connect(forged);
      expect(phone.creds!.playerId, forged).not.toBe(ben.playerId);
      expect(phone.creds!.playerId, forged).not.toBe(ana.playerId);
      expect(phone.creds!.room, forged).toBeUndefined();
    }
  });

  it('refused to anyone but the host, for a player whose phone is connected, and through the command event', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    const version = (await server.store.load(code))!.version;
    expect(await seatLink(ana, code, ben.playerId)).toEqual({
      ok: false,
      error: "Ben's phone is still connected. Nothing was done.",
    });
    await away(ben, ana);
    expect(await seatLink(cal, code, ben.playerId)).toEqual({
      ok: false,
      error: 'Only the host can move a seat to a new phone',
    });
    expect(await seatLink(ana, code, ana.playerId)).toEqual({
      ok: false,
      error: 'Your own seat is on this phone',
    });
    // Only through its own event: the server, not a phone, says who is online, and only it signs links.
    expect(
      await ana.command(code, { type: 'seatLink', playerId: ben.playerId, linkId: 'AAAAAAAAAAA' }),
    ).toEqual({
      ok: false,
      error: 'Invalid request',
    });
    // Nor a claim: only the claimSeat event reads a signed link, whose id the engine then rules.
    expect(
      await cal.command(code, { type: 'claimSeat', playerId: ben.playerId, linkId: 'AAAAAAAAAAA' }),
    ).toEqual({ ok: false, error: 'Invalid request' });
    // Nor a seat's phone being back: the server says so, when it resumes the room.
    expect(await ana.command(code, { type: 'seatBack' })).toEqual({ ok: false, error: 'Invalid request' });
    expect(
      await emitWithAck(ana.socket, 'seatLink', {
        commandId: 'x',
        roomCode: code,
        playerId: ben.playerId,
        online: [],
      }),
    ).toEqual({
      ok: false,
      error: 'Invalid request',
    });
    // A stranger to the room: the engine's answer to anyone but the host; a room that is not there.
    const stranger = await connect();
    expect(await seatLink(stranger, code, ben.playerId)).toEqual({
      ok: false,
      error: 'Only the host can move a seat to a new phone',
    });
    expect(await seatLink(stranger, 'ZZZZZ', ben.playerId)).toEqual({ ok: false, error: 'Room not found' });
    // None of it changed the room.
    expect((await server.store.load(code))!.version).toBe(version);
  });

  it("a command id already applied is no pass: a player reusing their own command's id gets no link for anyone", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    // Cal's own command, applied under an id he chose; then that id on the seatLink event, for Ben's
    // seat and for the host's: the engine must still rule (only the host, never a connected phone).
    const own = crypto.randomUUID();
    okData(await cal.command(code, { type: 'sitOut', away: true }, own));
    expect(await seatLink(cal, code, ben.playerId, own)).toEqual({
      ok: false,
      error: 'Only the host can move a seat to a new phone',
    });
    expect(await seatLink(cal, code, ana.playerId, own)).toEqual({
      ok: false,
      error: 'Only the host can move a seat to a new phone',
    });
    // The host's own earlier link, its id sent again for another seat whose phone is connected.
    const first = crypto.randomUUID();
    okData(await seatLink(ana, code, ben.playerId, first));
    expect(await seatLink(ana, code, cal.playerId, first)).toEqual({
      ok: false,
      error: "Cal's phone is still connected. Nothing was done.",
    });
  });

  it("a link made for a player who has since become the host moves nothing: the host's seat never goes by link", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    // Ana hands Ben the host role (or leaves, handing it to him) while his link is still out.
    okData(await ana.command(code, { type: 'makeHost', playerId: ben.playerId }));
    const phone = await connect();
    expect(await claimSeat(phone, seat)).toEqual({ ok: false, error: MSG.seatLinkHost });
    // Ben's own phone back (which voids his link: seatBack) hands the role back to Ana; then away
    // again, a new link moves his seat.
    const bensOwn = await connect(ben.token);
    okData(await bensOwn.resume(code));
    okData(await bensOwn.command(code, { type: 'makeHost', playerId: ana.playerId }));
    bensOwn.close();
    await ana.waitFor(() => ana.latest?.presence[ben.playerId] === false, 5000, 'Ben away again');
    expect(await claimSeat(phone, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    const fresh = okData(await seatLink(ana, code, ben.playerId)).seat;
    expect(okData(await claimSeat(phone, fresh)).credentials.playerId).toBe(ben.playerId);
  });

  it('a claim is refused for a forged, altered, expired or foreign link, a seat gone from the table and a finished game', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    await away(cal, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const phone = await connect();
    const sig = seat.slice(seat.lastIndexOf('.') + 1);
    const body = seat.slice(0, seat.lastIndexOf('.'));
    const [room, player, linkId, expires] = body.split('.') as [string, string, string, string];
    const foreign = createIdentity('another-secret-entirely-123').seatLink(
      code,
      ben.playerId,
      linkId,
      clock + 60_000,
    );
    const otherId = `${linkId.slice(0, -1)}${linkId.at(-1) === 'A' ? 'B' : 'A'}`;
    for (const bad of [
      `${body}.${sig.slice(0, -1)}${sig.at(-1) === 'A' ? 'B' : 'A'}`,
      `${room}.${cal.playerId}.${linkId}.${expires}.${sig}`,
      `${room}.${player}.${otherId}.${expires}.${sig}`,
      `${room}.${player}.${linkId}.${Number(expires) + 3600}.${sig}`,
      `${room}.${player}.${expires}.${sig}`,
      `${seat}=`,
      seat.toLowerCase(),
      foreign,
      ana.token,
      '',
      'x'.repeat(300),
      42,
      null,
    ]) {
      const res = await claimSeat(phone, bad);
      expect(res.ok, JSON.stringify(bad)).toBe(false);
      if (!res.ok) expect([SEAT_LINK_INVALID, 'Invalid request']).toContain(res.error);
    }
    expect(await claimSeat(phone, `${room}.${cal.playerId}.${linkId}.${expires}.${sig}`)).toEqual({
      ok: false,
      error: SEAT_LINK_INVALID,
    });
    expect(phone.creds!.playerId).not.toBe(ben.playerId);

    // Expired: 15 minutes on.
    clock += SEAT_LINK_TTL_MS;
    expect(await claimSeat(phone, seat)).toEqual({ ok: false, error: SEAT_LINK_EXPIRED });
    clock -= SEAT_LINK_TTL_MS;
    expect(okData(await claimSeat(phone, seat)).credentials.playerId).toBe(ben.playerId);

    // Cal's link, then Cal removed: the seat is gone.
    const calLink = okData(await seatLink(ana, code, cal.playerId)).seat;
    okData(await ana.command(code, { type: 'remove', playerId: cal.playerId }));
    expect(await claimSeat(phone, calLink)).toEqual({ ok: false, error: MSG.seatLinkGone });
    // The game ended: nothing to move.
    const bensNewLink = okData(await seatLink(ana, code, ben.playerId)).seat;
    okData(await ana.command(code, { type: 'endGame' }));
    expect(await claimSeat(await connect(), bensNewLink)).toEqual({ ok: false, error: MSG.seatLinkEnded });
  });

  it('a link works once: the phone that used it may ask again, no other phone may, even with the seat away', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const first = await connect();
    const claimed = okData(await claimSeat(first, seat));
    const version = (await server.store.load(code))!.version;
    // Its answer lost on the way: the same phone asking again gets the same credentials, and nothing
    // more happens at the table.
    expect(okData(await claimSeat(first, seat))).toEqual(claimed);
    expect((await server.store.load(code))!.version).toBe(version);
    // Ben's seat is still away (the first phone has not reconnected as Ben): a photo of the QR code,
    // opened on another phone, takes nothing.
    const photo = await connect();
    expect(await claimSeat(photo, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    // A phone already at the table is refused before anything else about the link.
    expect(await claimSeat(cal, seat)).toEqual({
      ok: false,
      error: 'This phone already plays in this game: give the link to Ben.',
    });
    expect((await server.store.load(code))!.version).toBe(version);
  });

  it("the phone that used a link, given back, opening it again takes nothing the link could not: a seat connected, a newer link, the host's seat", async () => {
    // Dee's phone took Ben's seat, then gave it back ("Give This Phone Back": the phone its own player
    // again); the link is still in her chat. Her player is the actor, as for an answer lost on the way,
    // which must not pass what a first claim could not.
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben] = phones as [TestClient, TestClient, TestClient];
    const token = ben.token;
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const dee = await connect();
    okData(await claimSeat(dee, seat));
    // Ben's own phone is back at the table: a second Ben is no retry. Its resume ends Dee's claim
    // (seatBack, after the subscription): the link is spent for her, Ben's phone there or not.
    const bensOwn = await connect(token);
    okData(await bensOwn.resume(code));
    const claimOf = async () => (await server.store.load(code))!.room.players[ben.playerId]?.seatClaim;
    await vi.waitFor(async () => expect(await claimOf()).toBeUndefined(), { timeout: 5000 });
    expect(await claimSeat(dee, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    // Ben's own phone goes flat again: still spent. The host makes Eve's phone a newer link: Dee's is
    // replaced.
    await away(bensOwn, ana);
    expect(await claimSeat(dee, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    const newer = okData(await seatLink(ana, code, ben.playerId)).seat;
    expect(await claimSeat(dee, seat)).toEqual({ ok: false, error: MSG.seatLinkReplaced });
    // Eve's phone uses it; once Ben is the host, Dee's link is no way to the host's seat either.
    okData(await claimSeat(await connect(), newer));
    okData(await ana.command(code, { type: 'makeHost', playerId: ben.playerId }));
    expect(await claimSeat(dee, seat)).toEqual({ ok: false, error: MSG.seatLinkHost });
    expect((await server.store.load(code))!.room.log.filter((e) => e.type === 'seatMoved')).toHaveLength(2);
  });

  it("the phone that used a link, once in as Ben and given back, cannot retake the seat with it while Ben's phone sleeps", async () => {
    // Dee's phone took Ben's seat and played as Ben (it resumed the room with the seat's credentials),
    // then gave it back; Ben's phone (the one Dee lent) sleeps. The link, still in her chat and within
    // its 15 minutes, is spent: until session 42 her phone was answered as the claim's retry and was
    // Ben again, whenever the seat's phone was away.
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const dee = await connect();
    const { credentials } = okData(await claimSeat(dee, seat));
    // Before her phone is in, asking again (an answer lost) gets the same credentials, nothing logged.
    expect(okData(await claimSeat(dee, seat)).credentials).toEqual(credentials);
    const asBen = await connect(credentials.token);
    okData(await asBen.resume(code));
    const claimEnded = async () => (await server.store.load(code))!.room.players[ben.playerId]?.seatClaim;
    await ana.waitFor(() => ana.latest?.presence[ben.playerId] === true, 5000, 'Ben in on the new phone');
    await vi.waitFor(async () => expect(await claimEnded()).toBeUndefined(), { timeout: 5000 });
    await away(asBen, ana);
    expect(await claimSeat(dee, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    expect((await server.store.load(code))!.room.log.filter((e) => e.type === 'seatMoved')).toHaveLength(1);
  });

  it("a phone that held Ben's seat by an earlier link is not Ben once a newer link moved the seat: it cannot resume, act or leave for him", async () => {
    // A photo of the QR code was opened first (or a friend kept the credentials of the phone Ben gave
    // back): that phone holds Ben's seat. Once it is away, the host makes a newer link and Ben's own new
    // phone takes the seat. The older phone's credentials must be spent with it: until session 42 they
    // named the room and the player only, the same for every claim, so the photo's phone was Ben for
    // good, his turn, his chips and his Leave included.
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    okData(await ana.command(code, { type: 'act', action: 'CALL' }));
    await away(ben, ana);
    const first = okData(await seatLink(ana, code, ben.playerId)).seat;
    const photo = okData(await claimSeat(await connect(), first)).credentials;
    const thief = await connect(photo.token);
    okData(await thief.resume(code));
    await away(thief, ana);
    const newer = okData(await seatLink(ana, code, ben.playerId)).seat;
    const mine = okData(await claimSeat(await connect(), newer)).credentials;
    expect(mine.token).not.toBe(photo.token);
    const bensNew = await connect(mine.token);
    okData(await bensNew.resume(code));
    await cal.waitFor(() => cal.latest?.presence[ben.playerId] === true, 5000, 'Ben in on his new phone');
    const version = (await server.store.load(code))!.version;
    // The photo's phone back: refused everywhere in the room, and nothing changes at the table.
    const back = await connect(photo.token);
    expect(await back.resume(code)).toEqual({ ok: false, error: MSG.seatHeldElsewhere });
    expect(await back.command(code, { type: 'act', action: 'ALL_IN' })).toEqual({
      ok: false,
      error: MSG.seatHeldElsewhere,
    });
    expect(await back.command(code, { type: 'leave' })).toEqual({ ok: false, error: MSG.seatHeldElsewhere });
    expect(await back.joinRoom(code, 'Ben', 5_000)).toEqual({ ok: false, error: MSG.seatHeldElsewhere });
    expect(await claimSeat(back, newer)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    expect((await server.store.load(code))!.version).toBe(version);
    // Ben's new phone is Ben still.
    const { version: acted } = okData(await bensNew.command(code, { type: 'act', action: 'CALL' }));
    expect(acted).toBe(version + 1);
  });

  it("two phones that held Ben's seat by earlier links are two phones: one claiming a newer link's seat is no claim of the other's", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    await away(ben, ana);
    const first = okData(
      await claimSeat(await connect(), okData(await seatLink(ana, code, ben.playerId)).seat),
    );
    const second = okData(
      await claimSeat(await connect(), okData(await seatLink(ana, code, ben.playerId)).seat),
    );
    const seat = okData(await seatLink(ana, code, ben.playerId)).seat;
    // The first phone (its link spent twice over) opens the newest link: it takes the seat as any phone
    // would, its claim its own, not Ben's.
    const firstPhone = await connect(first.credentials.token);
    const taken = okData(await claimSeat(firstPhone, seat));
    expect(taken.credentials.token).not.toBe(first.credentials.token);
    const claim = (await server.store.load(code))!.room.players[ben.playerId]!.seatClaim;
    expect(claim?.by).not.toBe(ben.playerId);
    expect(okData(await claimSeat(firstPhone, seat))).toEqual(taken);
    // The second phone, with the same link, is refused: until session 42 both claimed as Ben's player
    // id, and it was answered as the first's claim.
    expect(await claimSeat(await connect(second.credentials.token), seat)).toEqual({
      ok: false,
      error: MSG.seatLinkUsed,
    });
  });

  it("a phone's own command under any id is no pass: a claim runs under an id of the server's", async () => {
    // Until session 42 a claim ran under `claim:<linkId>` (the link's id is in its text), and a phone
    // that first joined under that id had its claim answered as that retry, without the engine.
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben] = phones as [TestClient, TestClient, TestClient];
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const photo = await connect();
    const linkId = seat.split('.')[2]!;
    okData(
      await emitWithAck(photo.socket, 'joinRoom', {
        commandId: `claim:${linkId}`,
        roomCode: code,
        name: 'Eve',
        startingChips: 5_000,
      }),
    );
    // Ben's new phone uses the link first: it is spent for the photo's phone, whatever it sent before.
    okData(await claimSeat(await connect(), seat));
    expect(await claimSeat(photo, seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    // Nor, once Ben is the host, does it take the host's seat.
    okData(await ana.command(code, { type: 'makeHost', playerId: ben.playerId }));
    expect(await claimSeat(photo, seat)).toEqual({ ok: false, error: MSG.seatLinkHost });
  });

  it("a newer link replaces the host's earlier one", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    await away(ben, ana);
    const older = okData(await seatLink(ana, code, ben.playerId)).seat;
    const newer = okData(await seatLink(ana, code, ben.playerId)).seat;
    expect(newer).not.toBe(older);
    const phone = await connect();
    expect(await claimSeat(phone, older)).toEqual({ ok: false, error: MSG.seatLinkReplaced });
    expect(okData(await claimSeat(phone, newer)).credentials.playerId).toBe(ben.playerId);
  });

  it('two phones opening one link at the same moment: exactly one gets the seat', async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const racers = await Promise.all([connect(), connect(), connect()]);
    const answers = await Promise.all(racers.map((c) => claimSeat(c, seat)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual([
      { ok: false, error: MSG.seatLinkUsed },
      { ok: false, error: MSG.seatLinkUsed },
    ]);
    const moves = (await server.store.load(code))!.room.log.filter((e) => e.type === 'seatMoved');
    expect(moves).toHaveLength(1);
  });

  it("the seat's own phone opening its link is given its own credentials, online or not", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = phones as [TestClient, TestClient];
    const token = ben.token;
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const back = await connect(token);
    okData(await back.resume(code));
    expect(okData(await claimSeat(back, seat)).credentials).toEqual({ playerId: back.playerId, token });
    // A phone holding the seat by link, opening it again, keeps its room-scoped credentials.
    back.close();
    await ana.waitFor(() => ana.latest?.presence[ben.playerId] === false, 5000, 'Ben away');
    const again = okData(await seatLink(ana, code, ben.playerId)).seat;
    const scoped = okData(await claimSeat(await connect(), again)).credentials;
    const phone = await connect(scoped.token);
    expect(okData(await claimSeat(phone, again)).credentials).toEqual(scoped);
  });

  it("Ben's own phone back voids his unused link: a photo of its QR code takes nothing once that phone sleeps", async () => {
    const { code, phones } = await startedTable(['Ana', 'Ben', 'Cal']);
    const [ana, ben, cal] = phones as [TestClient, TestClient, TestClient];
    const token = ben.token;
    await away(ben, ana);
    const { seat } = okData(await seatLink(ana, code, ben.playerId));
    const before = (await server.store.load(code))!.room;
    // Ben found a charger: his phone resumes the room.
    const back = await connect(token);
    okData(await back.resume(code));
    await cal.waitFor(() => cal.latest?.room.log.at(-1)?.type === 'seatLinkVoid', 5000, 'link voided');
    expect(cal.latest!.room.log.at(-1)).toMatchObject({
      type: 'seatLinkVoid',
      playerId: ben.playerId,
      name: 'Ben',
    });
    const after = (await server.store.load(code))!.room;
    expect('seatLink' in after.players[ben.playerId]!).toBe(false);
    // Nothing else: no chips, no turn, not the table's last move (the take-over waits count from it).
    expect(after.gameState).toEqual(before.gameState);
    expect(after.tableActivity).toBe(before.tableActivity);
    // His phone sleeps: the link, photographed, takes nothing.
    await away(back, ana);
    expect(await claimSeat(await connect(), seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    // A resume with no link out writes nothing.
    const version = (await server.store.load(code))!.version;
    const again = await connect(token);
    okData(await again.resume(code));
    await ana.waitFor(() => ana.latest?.presence[ben.playerId] === true, 5000, 'Ben back');
    expect((await server.store.load(code))!.version).toBe(version);
  });

  it("a claim made by a phone holding Cal's seat in another game is no claim of Cal's: his own phone asking again with the link gets nothing", async () => {
    // Cal's seat in the first game is held by a friend's phone (room-scoped credentials, Cal's player
    // id). That phone takes Ben's seat in a second game, which Cal is not in. Until session 42 the claim
    // was kept as Cal's (the socket's player id), so any phone that was Cal (his own, or one holding a
    // seat of his in yet another game), with the link, was answered as that claim and got Ben's seat too.
    const first = await startedTable(['Ana', 'Cal']);
    const [ana, cal] = first.phones as [TestClient, TestClient];
    const calToken = cal.token;
    await away(cal, ana);
    const held = okData(
      await claimSeat(await connect(), okData(await seatLink(ana, first.code, cal.playerId)).seat),
    ).credentials;
    const friend = await connect(held.token);
    const second = await startedTable(['Dan', 'Ben']);
    const [dan, ben] = second.phones as [TestClient, TestClient];
    await away(ben, dan);
    const { seat } = okData(await seatLink(dan, second.code, ben.playerId));
    okData(await claimSeat(friend, seat));
    const claim = (await server.store.load(second.code))!.room.players[ben.playerId]!.seatClaim;
    expect(claim?.by).not.toBe(cal.playerId);
    // Nothing of the first game in the second's snapshots: not its code, not Cal's id.
    expect(claim?.by).not.toContain(first.code);
    expect(claim?.by).not.toContain(cal.playerId);
    // The friend's phone asking again is answered as its claim; Cal's own phone is any other phone.
    expect(okData(await claimSeat(friend, seat)).credentials.playerId).toBe(ben.playerId);
    expect(await claimSeat(await connect(calToken), seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
  });

  it("a phone holding Ben's seat in one game, opening his link to another, is Ben in that other game (its rules as any other phone's)", async () => {
    // Ben plays two games: the first's seat is held by a friend's phone (room-scoped credentials).
    const first = await startedTable(['Ana', 'Ben']);
    const [ana, ben] = first.phones as [TestClient, TestClient];
    const token = ben.token;
    await away(ben, ana);
    const { credentials } = okData(
      await claimSeat(await connect(), okData(await seatLink(ana, first.code, ben.playerId)).seat),
    );
    const friend = await connect(credentials.token);
    okData(await friend.resume(first.code));
    // Ben's second game, from his own phone, which then goes flat there too.
    const dan = await connect();
    const second = okData(await dan.createRoom('Dan', 5_000)).room.roomCode;
    const bensOwn = await connect(token);
    okData(await bensOwn.joinRoom(second, 'Ben', 5_000));
    okData(await dan.command(second, { type: 'approve', playerId: ben.playerId }));
    okData(await dan.command(second, { type: 'startGame' }));
    await away(bensOwn, dan);
    const first2nd = okData(await seatLink(dan, second, ben.playerId)).seat;
    // Ben's own phone back in the second game (voiding that link): the friend's phone is no own phone
    // of Ben's there.
    const back = await connect(token);
    okData(await back.resume(second));
    expect(await claimSeat(friend, first2nd)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    await away(back, dan);
    // The friend's phone opens a new one: Ben in the second game only, credentials it can resume it with.
    const { seat } = okData(await seatLink(dan, second, ben.playerId));
    const claim = okData(await claimSeat(friend, seat));
    expect(claim).toEqual({
      roomCode: second,
      credentials: { playerId: ben.playerId, token: expect.any(String), room: second },
    });
    const moved = await connect(claim.credentials.token);
    expect(okData(await moved.resume(second)).room.roomCode).toBe(second);
    // A link made before Ben became the second game's host: never his seat by link, on this phone either.
    await away(moved, dan);
    const again = okData(await seatLink(dan, second, ben.playerId)).seat;
    okData(await dan.command(second, { type: 'makeHost', playerId: ben.playerId }));
    expect(await claimSeat(friend, again)).toEqual({ ok: false, error: MSG.seatLinkHost });
    // Claimed from another game's seat, the friend's phone was subscribed to nothing here.
    expect(friend.latest?.room.roomCode).toBe(first.code);
  });
});
