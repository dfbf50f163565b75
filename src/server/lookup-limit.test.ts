/**
 * Integration: room codes cannot be found by probing. `resume` and `command` answer a room that does not
 * exist ('Room not found') differently from one the sender is not in (the app tells a removed player
 * what happened), so every such failed lookup costs a token from a bucket per IP
 * (FAILED_LOOKUP_RATE_PER_MIN), however many connections it comes through; once the bucket is empty
 * they are all answered 'Too many requests', room or no room. Members never pay and are never refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ack } from '../shared/protocol';
import { ROOM_NOT_FOUND } from './room-service';
import { NOT_IN_ROOM, TOO_MANY_REQUESTS } from './socket-gateway';
import { okData, startServer, TestClient, type TestServer } from './test-helpers';

/** The bucket: this many failed lookups at once, refilled at this many a minute. */
const LIMIT = 5;

let server: TestServer;
let t = 1_800_000_000_000;
const clients: TestClient[] = [];

async function connect(token?: string): Promise<TestClient> {
  const c = await TestClient.connect(server.url, token ? { token } : {});
  clients.push(c);
  return c;
}

const outcome = (ack: Ack<unknown>) => (ack.ok ? 'ok' : ack.error);

beforeEach(async () => {
  // A clock of our own: the bucket refills only when the test says so.
  server = await startServer({ now: () => t, env: { FAILED_LOOKUP_RATE_PER_MIN: String(LIMIT) } });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.close();
});

/** Codes of rooms that do not exist (`code` is the one that does). */
function missingCodes(code: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `ZZZ${String(i).padStart(2, '0')}`).filter((c) => c !== code);
}

describe('failed room lookups are limited per IP', () => {
  it('probes from many sockets of one IP: the first ones answered, then the same answer whether the room exists or not', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const probers = await Promise.all(Array.from({ length: 6 }, () => connect()));
    const missing = missingCodes(code, 12);
    const probe = (i: number) => {
      const prober = probers[i % probers.length]!;
      const target = i % 2 === 0 ? missing[i]! : code;
      return i % 4 < 2 ? prober.resume(target) : prober.command(target, { type: 'startGame' });
    };
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(outcome(await probe(i)));
    expect(answers).toEqual([
      ROOM_NOT_FOUND, // resume, no room
      NOT_IN_ROOM, // resume, a room the prober is not in
      ROOM_NOT_FOUND, // command, no room
      'Only the host can update game state', // command, a room the prober is not in
      ROOM_NOT_FOUND,
      ...Array.from({ length: 7 }, () => TOO_MANY_REQUESTS),
    ]);
    // 'gone' only for the answered resumes: a refused one tells nothing either.
    await probers[4]!.waitFor(() => probers[4]!.gone.length === 1);
    expect(probers.map((p) => p.gone)).toEqual([
      [{ roomCode: missing[0], reason: 'not_found' }],
      [{ roomCode: code, reason: 'removed' }],
      [],
      [],
      [{ roomCode: missing[4], reason: 'not_found' }],
      [],
    ]);
    // A new connection from the same IP is no way around it.
    const fresh = await connect();
    expect(await fresh.resume(code)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
    expect(await fresh.resume(missing[0]!)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
    expect(await fresh.command(code, { type: 'leave' })).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
    // The bucket refills at LIMIT a minute: one more answer after 60 / LIMIT seconds.
    t += 60_000 / LIMIT;
    expect(await fresh.resume(code)).toEqual({ ok: false, error: NOT_IN_ROOM });
    expect(await fresh.resume(code)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
    // Nothing was written, nobody was subscribed.
    expect((await server.store.load(code))?.version).toBe(1);
    expect([...probers, fresh].flatMap((p) => p.snapshots)).toEqual([]);
  });

  it('members never pay nor get refused: a table of 8 behind one IP gets back in, even while that IP is throttled', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const tokens = [host.token];
    for (let i = 1; i < 8; i++) {
      const guest = await connect();
      okData(await guest.joinRoom(code, `P${i}`, 5000));
      await host.must(code, { type: 'approve', playerId: guest.playerId });
      tokens.push(guest.token);
    }
    /** Every phone reconnects (a server restart, a network change) and resumes, twice over. */
    const tableReconnects = async () => {
      const phones = await Promise.all(tokens.map((token) => connect(token)));
      const acks = await Promise.all(phones.flatMap((p) => [p.resume(code), p.resume(code)]));
      expect(acks.map(outcome)).toEqual(acks.map(() => 'ok'));
      for (const p of phones) p.close();
    };
    for (let round = 0; round < 3; round++) await tableReconnects();
    // A command from a member's connection that has not resumed yet costs nothing either.
    const early = await connect(host.token);
    expect(await early.command(code, { type: 'updateSettings', smallBlind: 50, bigBlind: 100 })).toEqual({
      ok: true,
      data: { version: 16 },
    });

    // 48 resumes and a command later, a stranger on the same IP still has the whole bucket...
    const stranger = await connect();
    const probes = [];
    for (let i = 0; i <= LIMIT; i++) probes.push(outcome(await stranger.resume(code)));
    expect(probes).toEqual([...Array.from({ length: LIMIT }, () => NOT_IN_ROOM), TOO_MANY_REQUESTS]);

    // ...and with it empty, the members still get back in and play.
    await tableReconnects();
    const late = await connect(tokens[1]);
    expect(outcome(await late.command(code, { type: 'leave' }))).toBe('ok');
    expect(await stranger.resume(code)).toEqual({ ok: false, error: TOO_MANY_REQUESTS });
  });

  it('a join with a name or buy-in no room takes answers alike, room or no room (regression: it told an existing room apart once the bucket was empty)', async () => {
    const host = await connect();
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const prober = await connect();
    for (const missing of missingCodes(code, LIMIT))
      expect(outcome(await prober.resume(missing))).toBe(ROOM_NOT_FOUND);
    // The bucket is empty: a join the engine would refuse for its name or buy-in is refused before
    // any room is looked up, and says nothing about the code.
    const answers = [
      await prober.joinRoom(code, '', 5000),
      await prober.joinRoom('ZZZ99', '', 5000),
      await prober.joinRoom(code, 'Probe', 50),
      await prober.joinRoom('ZZZ99', 'Probe', 50),
    ].map(outcome);
    expect(answers).toEqual([
      'Please enter your name',
      'Please enter your name',
      'Starting chips must be at least $1.00',
      'Starting chips must be at least $1.00',
    ]);
    // A join that finds no room still costs a failed lookup, and is refused with the bucket empty.
    expect(outcome(await prober.joinRoom('ZZZ99', 'Probe', 5000))).toBe(TOO_MANY_REQUESTS);
    const stored = await server.store.load(code);
    expect(stored?.version).toBe(1);
    expect(Object.keys(stored!.room.players)).toEqual([host.playerId]);
  });
});
