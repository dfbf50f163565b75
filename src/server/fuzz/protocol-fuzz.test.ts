/**
 * Protocol fuzz (issue 5, "Hostile input"): a real server with real rooms mid-game, then thousands of
 * random and malformed messages from many connections (seeded, reproducible with FUZZ_SEED):
 * wrong types, huge strings, deep nesting, arrays, null, binary, unknown events, raw broken packets,
 * forged tokens, player ids, room codes and seat links, commands for rooms the sender is not in, host commands
 * from non-hosts, actions for other players.
 *
 * Asserted: the server stays up (healthz, new connections, new rooms); every acknowledgement is
 * `{ ok: true, data }` or `{ ok: false, error }` with a short, clear error (never 'Something went
 * wrong', never a stack); the protected rooms are byte-for-byte as before (store and broadcasts) since
 * no message sent was a legal change for them; and their players then play on normally.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom as prng } from '../../../bench/stats';
import type { Command, Room } from '../../engine/types';
import { ROOM_CODE_LENGTH } from '../../shared/limits';
import { INVALID_REQUEST, type RoomSnapshot } from '../../shared/protocol';
import { joinRoomSchema, roomCommandSchema } from '../../shared/schemas';
import { SOMETHING_WENT_WRONG } from '../room-service';
import { TOO_MANY_REQUESTS } from '../socket-gateway';
import type { StoredRoom } from '../store/room-store';
import {
  getJson,
  okData,
  sleep,
  startServer,
  TestClient,
  type TestServer,
  withTimeout,
} from '../test-helpers';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);
/** Messages per fuzzing connection. */
const MESSAGES_PER_CLIENT = 400;
const STRANGERS = 8;
/** Acks awaited at once per connection. */
const IN_FLIGHT = 16;
const ACK_TIMEOUT_MS = 10_000;
/** Messages larger than this are not sent from the fuzzing connections (the transport limit is 64 KB). */
const TRANSPORT_SAFE_BYTES = 60_000;

/** A protected room: its players' clients and the record it had when fuzzing began. */
interface Table {
  code: string;
  host: TestClient;
  /** Every legit player, by player id. */
  players: Map<string, TestClient>;
  before?: StoredRoom;
}

let server: TestServer;
const tables: Table[] = [];
const extraClients: TestClient[] = [];

/** Waits until every player of the table holds `version`. */
async function converge(table: Table, version: number): Promise<void> {
  await Promise.all([...table.players.values()].map((c) => c.waitForVersion(version)));
}

/** The newest snapshot any player of the table holds. */
function latest(table: Table): RoomSnapshot {
  let best: RoomSnapshot | undefined;
  for (const c of table.players.values()) {
    const s = c.latest;
    if (s && (!best || s.version > best.version)) best = s;
  }
  if (!best) throw new Error(`no snapshot for ${table.code}`);
  return best;
}

/** One legal step of play (everyone checks or calls; the host runs stages, winners and hands). */
async function step(table: Table): Promise<number> {
  const room = latest(table).room;
  const gs = room.gameState;
  let actor = table.host;
  let command: Command;
  if (room.status === 'LOBBY') {
    const pending = Object.values(room.players).find((p) => !p.isApproved);
    command = pending ? { type: 'approve', playerId: pending.id } : { type: 'startGame' };
  } else if (gs.currentTurnPlayerId) {
    actor = table.players.get(gs.currentTurnPlayerId)!;
    command = { type: 'act', action: 'CALL' };
  } else if (gs.canAdvanceStage) {
    command = { type: 'advanceStage' };
  } else if (gs.stage === 'SHOWDOWN' && gs.pots.some((p) => p.amount > 0)) {
    const contender = Object.values(room.players).find(
      (p) => p.isActive && !p.hasFolded && gs.pots.every((pot) => pot.eligiblePlayers.includes(p.id)),
    );
    command = { type: 'declareWinners', winnerIds: [contender!.id] };
  } else {
    command = { type: 'newHand' };
  }
  const version = await actor.must(table.code, command);
  await converge(table, version);
  return version;
}

/** Plays legal steps until `done(room)` holds (at most `max` steps). */
async function playUntil(table: Table, done: (room: Room) => boolean, max = 60): Promise<void> {
  for (let i = 0; i < max && !done(latest(table).room); i++) await step(table);
  expect(done(latest(table).room)).toBe(true);
}

/** A room hosted by a new client, joined by `joiners` more, approved as listed. */
async function openTable(joiners: number, approve: number): Promise<Table> {
  const host = await TestClient.connect(server.url);
  const created = okData(await host.createRoom('Host', 100_00));
  const table: Table = { code: created.room.roomCode, host, players: new Map([[host.playerId, host]]) };
  host.snapshots.push(created);
  for (let i = 0; i < joiners; i++) {
    const client = await TestClient.connect(server.url);
    client.snapshots.push(okData(await client.joinRoom(table.code, `Player ${i + 1}`, 100_00)));
    table.players.set(client.playerId, client);
  }
  const pending = [...table.players.keys()].filter((id) => id !== host.playerId).slice(0, approve);
  let version = created.version;
  for (const id of pending) version = await host.must(table.code, { type: 'approve', playerId: id });
  await converge(table, version);
  return table;
}

// ---------- message generation ----------

type Sender = { kind: 'stranger' } | { kind: 'member'; table: Table; playerId: string };

/** One message to send: an event, its arguments, and whether an ack function goes last. */
interface Message {
  event: string;
  args: unknown[];
  withAck: boolean;
}

class Fuzz {
  readonly random: () => number;

  constructor(
    seed: number,
    private readonly codes: string[],
    private readonly ids: string[],
    /** A member's own room: half of their messages aim at it (actions out of turn, host commands). */
    private readonly ownCode?: string,
  ) {
    this.random = prng(seed);
  }

  int(n: number): number {
    return Math.floor(this.random() * n);
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  text(): string {
    switch (this.int(10)) {
      case 0:
        return '';
      case 1:
        return 'x'.repeat(17_000 + this.int(20_000)); // over MAX_MESSAGE_BYTES, under the transport limit
      case 2:
        return this.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
      case 3:
        return `\u0000\uffff\ud800 🂡 ${'é'.repeat(this.int(50))}`;
      case 4:
        return this.pick(this.codes);
      case 5:
        return this.pick(this.ids);
      case 6:
        return `${this.pick(this.ids)}.${randomUUID()}`;
      case 7:
        return '<script>alert(1)</script>';
      case 8:
        return String(this.random() * 1e6);
      default:
        return Math.random()
          .toString(36)
          .slice(2, 2 + this.int(30));
    }
  }

  number(): number {
    return this.pick([
      0,
      -1,
      1,
      0.5,
      -0,
      200,
      1e300,
      -1e300,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 2,
      2 ** 31,
      this.int(1_000_000),
    ]);
  }

  /** Deeply nested arrays or objects (depth 50..3000), built as JSON so the client does not recurse. */
  deep(): unknown {
    const depth = 50 + this.int(1500);
    const json = this.chance(0.5)
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    try {
      return JSON.parse(json) as unknown;
    } catch {
      return null;
    }
  }

  value(depth = 3): unknown {
    switch (this.int(depth > 0 ? 12 : 8)) {
      case 0:
        return null;
      case 1:
        return undefined;
      case 2:
        return this.chance(0.5);
      case 3:
        return this.number();
      case 4:
      case 5:
        return this.text();
      case 6:
        return Buffer.from(Array.from({ length: this.int(64) }, () => this.int(256)));
      case 7:
        return this.chance(0.1) ? this.deep() : [];
      case 8:
      case 9: {
        const obj: Record<string, unknown> = {};
        const keys = ['type', 'roomCode', 'commandId', 'command', 'playerId', 'actorId', 'hostId', 'version'];
        for (let i = this.int(5); i > 0; i--) {
          // defineProperty: an own '__proto__' key, as JSON.parse makes it, not a prototype change.
          Object.defineProperty(obj, this.chance(0.7) ? this.pick(keys) : this.text(), {
            value: this.value(depth - 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return obj;
      }
      default:
        return Array.from({ length: this.int(5) }, () => this.value(depth - 1));
    }
  }

  roomCode(): unknown {
    if (this.ownCode && this.chance(0.5)) return this.ownCode;
    if (this.chance(0.6)) {
      const code = this.pick(this.codes);
      return this.chance(0.2) ? code.toLowerCase() : code;
    }
    return this.pick([
      'ZZZZZ',
      'AAAAA',
      '',
      'AB',
      'ABCDEF',
      'AB DE',
      '../..',
      'ÄÖÜ12',
      12345,
      null,
      'A'.repeat(ROOM_CODE_LENGTH * 100),
    ]);
  }

  /** A schema-valid engine command with plausible (often forged) fields. */
  command(): Record<string, unknown> {
    const someone = () => (this.chance(0.8) ? this.pick(this.ids) : this.text());
    const cents = () => (this.chance(0.8) ? this.int(1_000_000) : this.number());
    switch (this.int(18)) {
      case 0:
        return { type: 'join', name: this.text().slice(0, 30), startingChips: cents() };
      case 1:
        return { type: 'approve', playerId: someone() };
      case 2:
        return { type: 'remove', playerId: someone() };
      case 3:
        return { type: 'updateSettings', smallBlind: cents(), bigBlind: cents() };
      case 4:
        return { type: 'startGame' };
      case 5:
      case 6:
        return {
          type: 'act',
          action: this.pick(['FOLD', 'CALL', 'RAISE', 'ALL_IN', 'CHECK', 'fold', 7]),
          ...(this.chance(0.5) ? { amount: cents() } : {}),
        };
      case 7:
        return { type: 'advanceStage' };
      case 8:
        return {
          type: 'declareWinners',
          winnerIds: Array.from({ length: 1 + this.int(3) }, someone),
          ...(this.chance(0.3) ? { byPot: { main: [someone()], 'side-1': [someone()] } } : {}),
        };
      case 9:
        return { type: 'newHand' };
      case 10:
        return { type: 'rebuy', playerId: someone(), amount: cents() };
      case 11:
        return { type: 'undo', seq: this.chance(0.8) ? this.int(300) : this.number() };
      case 12:
        return { type: 'actFor', playerId: someone(), action: this.pick(['CHECK', 'FOLD', 'CALL', 'check']) };
      case 13:
        return { type: 'makeHost', playerId: someone() };
      case 14:
        return this.chance(0.8) ? { type: 'claimHost' } : { type: 'claimHost', playerId: someone() };
      case 15: {
        // The room's players in a random order (mostly exactly the table), or junk.
        const ids = [...this.ids].sort(() => (this.chance(0.5) ? 1 : -1));
        if (this.chance(0.2)) ids.push(someone());
        return { type: 'arrangeSeats', playerIds: this.chance(0.9) ? ids : this.text() };
      }
      case 16:
        return this.chance(0.5)
          ? { type: 'sitOut', away: this.chance(0.5) }
          : { type: 'sitOut', away: this.chance(0.8) ? this.chance(0.5) : this.text(), playerId: someone() };
      default:
        return { type: this.pick(['endGame', 'leave', 'dealCards', 'setStack', '']) };
    }
  }

  /** Breaks one thing in `obj` (or returns it unchanged). */
  mutate(obj: Record<string, unknown>): unknown {
    const keys = Object.keys(obj);
    switch (this.int(6)) {
      case 0: {
        const copy = { ...obj };
        delete copy[this.pick(keys)];
        return copy;
      }
      case 1:
        return { ...obj, [this.pick(keys)]: this.value() };
      case 2:
        return { ...obj, [this.pick(['actorId', 'playerId', 'hostId', 'isHost', 'version'])]: this.value(1) };
      case 3:
        return this.value();
      default:
        return obj;
    }
  }

  message(): Message {
    const withAck = this.chance(0.92);
    const r = this.random();
    if (r < 0.08) {
      const event = this.pick([
        'dropTables',
        'room',
        'session',
        'gone',
        'Command',
        'command ',
        'toString',
        '__proto__',
        '',
        'x'.repeat(500),
      ]);
      return { event, args: Array.from({ length: this.int(3) }, () => this.value()), withAck };
    }
    if (r < 0.16) {
      const event = this.pick(['createRoom', 'joinRoom', 'resume', 'command', 'seatLink', 'claimSeat']);
      return { event, args: Array.from({ length: this.int(4) }, () => this.value()), withAck };
    }
    if (r < 0.24) {
      return {
        event: 'createRoom',
        args: [
          this.mutate({
            commandId: randomUUID(),
            name: this.text().slice(0, 25),
            startingChips: this.int(2_000_000),
          }),
        ],
        withAck,
      };
    }
    if (r < 0.36) {
      return {
        event: 'joinRoom',
        args: [
          this.mutate({
            commandId: randomUUID(),
            roomCode: this.roomCode(),
            name: this.text().slice(0, 25),
            startingChips: this.int(2_000_000),
          }),
        ],
        withAck,
      };
    }
    if (r < 0.44) return { event: 'resume', args: [this.mutate({ roomCode: this.roomCode() })], withAck };
    if (r < 0.48) {
      const playerId = this.chance(0.8) ? this.pick(this.ids) : this.text();
      const payload = { commandId: randomUUID(), roomCode: this.roomCode(), playerId };
      return { event: 'seatLink', args: [this.mutate(payload)], withAck };
    }
    if (r < 0.52) {
      // Forged seat links: a room code and player id the fuzzer knows, a link id and a time of the
      // right shape, a signature it cannot make.
      const seat = this.chance(0.7)
        ? `${String(this.roomCode())}.${String(this.pick(this.ids))}.${'A'.repeat(11)}.${this.int(4_000_000_000)}.${'A'.repeat(43)}`
        : this.text();
      return { event: 'claimSeat', args: [this.mutate({ seat })], withAck };
    }
    const commandId = this.chance(0.9) ? randomUUID() : this.pick(['', 'x'.repeat(100), 'dup', 42]);
    const command = this.chance(0.7) ? this.command() : this.mutate(this.command());
    return {
      event: 'command',
      args: [this.mutate({ commandId, roomCode: this.roomCode(), command })],
      withAck,
    };
  }
}

/**
 * True when `msg` from `sender` could be a LEGAL change of a protected room (a stranger joining, a
 * member leaving, the player to act acting): the fuzzer never sends those, so the rooms must stay exactly
 * as they were. Everything else must be refused or change nothing.
 */
function couldChangeProtected(msg: Message, sender: Sender): boolean {
  const protectedCodes = new Set(tables.map((t) => t.code));
  const memberOf = (code: string) => sender.kind === 'member' && sender.table.code === code;
  // Judge what the server will see: JSON drops undefined keys and turns NaN into null.
  let payload: unknown;
  try {
    payload = JSON.parse(JSON.stringify(msg.args[0]) ?? 'null');
  } catch {
    return false; // too deep to serialise: cannot be a valid message
  }
  if (msg.event === 'joinRoom') {
    const parsed = joinRoomSchema.safeParse(payload);
    return parsed.success && protectedCodes.has(parsed.data.roomCode) && !memberOf(parsed.data.roomCode);
  }
  if (msg.event !== 'command') return false;
  const parsed = roomCommandSchema.safeParse(payload);
  if (!parsed.success || !protectedCodes.has(parsed.data.roomCode)) return false;
  const { roomCode, command } = parsed.data;
  if (command.type === 'join') return !memberOf(roomCode);
  if (!memberOf(roomCode) || sender.kind !== 'member') return false;
  if (command.type === 'leave') return true;
  // Sitting out (or back) is a player's own call (seating.ts): legal for the member, for themself.
  if (command.type === 'sitOut' && (command.playerId ?? sender.playerId) === sender.playerId) return true;
  const turn = sender.table.before?.room.gameState.currentTurnPlayerId;
  return command.type === 'act' && turn === sender.playerId;
}

interface Stats {
  sent: number;
  skipped: number;
  unencodable: number;
  oversized: number;
  acks: number;
  ok: number;
  errors: Map<string, number>;
  problems: string[];
}

/** What an ack must look like; problems are collected, not thrown, so one run reports them all. */
function checkAck(ack: unknown, msg: Message, stats: Stats): void {
  stats.acks++;
  const where = `${msg.event} ${JSON.stringify(msg.args).slice(0, 200)}`;
  if (typeof ack !== 'object' || ack === null || typeof (ack as { ok?: unknown }).ok !== 'boolean') {
    stats.problems.push(`malformed ack ${JSON.stringify(ack)} to ${where}`);
    return;
  }
  const a = ack as { ok: boolean; error?: unknown; data?: unknown };
  if (!a.ok) {
    const error = a.error;
    if (
      typeof error !== 'string' ||
      error.length === 0 ||
      error.length > 200 ||
      /\n\s+at |Error:|undefined/.test(error)
    ) {
      stats.problems.push(`unclear error ${JSON.stringify(error)} to ${where}`);
    } else if (error === SOMETHING_WENT_WRONG) {
      stats.problems.push(`internal failure to ${where}`);
    }
    stats.errors.set(String(error), (stats.errors.get(String(error)) ?? 0) + 1);
    return;
  }
  stats.ok++;
  if (msg.event === 'claimSeat') stats.problems.push(`a forged seat link was taken: ${where}`);
  // An accepted message about a protected room must have changed nothing.
  const data = a.data as { version?: number; room?: { roomCode?: string } } | undefined;
  let code: string | undefined;
  if (msg.event === 'command' || msg.event === 'seatLink') {
    const rc = (msg.args[0] as { roomCode?: unknown } | undefined)?.roomCode;
    code = typeof rc === 'string' ? rc.toUpperCase() : undefined;
  } else {
    code = data?.room?.roomCode;
  }
  const table = tables.find((t) => t.code === code);
  if (table && data?.version !== table.before!.version) {
    stats.problems.push(`protected room ${code} moved to version ${data?.version} by ${where}`);
  }
}

/** JSON size of the arguments; deep or cyclic ones count as 0 (they are small on the wire anyway). */
function jsonSize(args: unknown[]): number {
  try {
    return JSON.stringify(args)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Sends `count` generated messages from `client`, IN_FLIGHT at a time, checking every ack. */
async function fuzzFrom(
  client: TestClient,
  sender: Sender,
  fuzz: Fuzz,
  count: number,
  stats: Stats,
): Promise<void> {
  const raw = client.socket as unknown as {
    emit(ev: string, ...args: unknown[]): void;
    timeout(ms: number): { emit(ev: string, ...args: unknown[]): void };
  };
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      const msg = fuzz.message();
      if (couldChangeProtected(msg, sender)) {
        stats.skipped++;
        continue;
      }
      // Frames over the transport limit cost the sender its connection: the throwaway sockets try those.
      if (jsonSize(msg.args) > TRANSPORT_SAFE_BYTES) {
        stats.oversized++;
        continue;
      }
      if (!client.socket.connected) {
        stats.problems.push(`${sender.kind} connection dropped before ${msg.event}`);
        return;
      }
      try {
        if (!msg.withAck) {
          raw.emit(msg.event, ...msg.args);
          stats.sent++;
          continue;
        }
        await new Promise<void>((resolve, reject) => {
          try {
            raw.timeout(ACK_TIMEOUT_MS).emit(msg.event, ...msg.args, (err: unknown, ack: unknown) => {
              if (err) stats.problems.push(`no ack within ${ACK_TIMEOUT_MS} ms to ${msg.event}`);
              else checkAck(ack, msg, stats);
              resolve();
            });
            stats.sent++;
          } catch (err) {
            reject(err);
          }
        });
      } catch {
        // socket.io-client itself refused to encode it (e.g. too deep for its binary scan): not sent.
        stats.unencodable++;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

describe('protocol fuzz', () => {
  beforeAll(async () => {
    server = await startServer();
    // A: four players mid-hand on the flop, someone to act.
    const a = await openTable(3, 3);
    await playUntil(
      a,
      (room) => room.gameState.stage === 'FLOP' && room.gameState.currentTurnPlayerId !== null,
    );
    await step(a);
    // B: three players at showdown with chips in the pot, waiting for the host's winner.
    const b = await openTable(2, 2);
    await playUntil(
      b,
      (room) => room.gameState.stage === 'SHOWDOWN' && room.gameState.pots.some((p) => p.amount > 0),
    );
    // C: lobby with one approved player and one waiting for approval.
    const c = await openTable(2, 1);
    tables.push(a, b, c);
    for (const t of tables) t.before = (await server.store.load(t.code))!;
  });

  afterAll(async () => {
    for (const t of tables) for (const c of t.players.values()) c.close();
    for (const c of extraClients) c.close();
    await server?.close();
  });

  it('forged and broken tokens never yield a protected identity', async () => {
    const protectedIds = new Set(tables.flatMap((t) => [...t.players.keys()]));
    const host = tables[0]!.host;
    const hostId = host.playerId;
    const other = [...tables[1]!.players.values()][1]!;
    const forged: unknown[] = [
      `${hostId}.${other.token.split('.')[1]}`,
      `${hostId}.`,
      hostId,
      `${host.token.slice(0, -2)}${host.token.endsWith('AA') ? 'BB' : 'AA'}`,
      `${host.token}.${host.token}`,
      ` ${host.token}`,
      // Room-scoped shapes (a seat claimed by link): a session token's signature is not a room's.
      `${tables[0]!.code}:${host.token}`,
      `${tables[0]!.code}:${hostId}.${other.token.split('.')[1]}`,
      `${tables[0]!.code}:${host.token.toUpperCase()}`,
      host.token.toUpperCase(),
      'x'.repeat(10_000),
      12345,
      { token: host.token },
      [host.token],
      null,
    ];
    for (const token of forged) {
      const client = await TestClient.connect(server.url, { token: token as string });
      extraClients.push(client);
      expect(protectedIds.has(client.playerId)).toBe(false);
      expect(client.token).not.toBe(host.token);
    }
  });

  it('thousands of random and malformed messages: clear answers, protected rooms untouched', async () => {
    const protectedCodes = tables.map((t) => t.code);
    const ids = tables.flatMap((t) => [...t.players.keys()]);
    const stats: Stats = {
      sent: 0,
      skipped: 0,
      unencodable: 0,
      oversized: 0,
      acks: 0,
      ok: 0,
      errors: new Map(),
      problems: [],
    };
    const senders: Array<{ client: TestClient; sender: Sender }> = [];
    for (let i = 0; i < STRANGERS; i++)
      senders.push({ client: await TestClient.connect(server.url), sender: { kind: 'stranger' } });
    // Members (second connections with their own tokens) who are neither the host nor the player to act.
    for (const table of tables) {
      const turn = table.before!.room.gameState.currentTurnPlayerId;
      const member = [...table.players.values()].find((c) => c !== table.host && c.playerId !== turn)!;
      const client = await TestClient.connect(server.url, { token: member.token });
      expect(client.playerId).toBe(member.playerId);
      senders.push({ client, sender: { kind: 'member', table, playerId: member.playerId } });
    }
    for (const s of senders) extraClients.push(s.client);

    // Throwaway connections: broken packets below Socket.IO (the server drops such a connection) and oversized frames.
    const rawPackets = [
      '2["command",{',
      '2[]',
      '2[1,2,3]',
      '2["connect"]',
      '2["disconnect",{}]',
      '2{"a":1}',
      '9',
      'x',
      '',
      '0/admin,',
      '3["command"]',
      '51-["command",{"_placeholder":true,"num":7}]',
      `2["command",${'['.repeat(100_000)}`,
      `2["command","${'y'.repeat(100_000)}"]`,
    ];
    const throwaways = await Promise.all(
      rawPackets.map(async (packet) => {
        const client = await TestClient.connect(server.url);
        (client.socket.io.engine as unknown as { write(msg: string): void }).write(packet);
        return client;
      }),
    );
    extraClients.push(...throwaways);

    const started = Date.now();
    await Promise.all(
      senders.map(({ client, sender }, i) =>
        fuzzFrom(
          client,
          sender,
          new Fuzz(SEED + i, protectedCodes, ids, sender.kind === 'member' ? sender.table.code : undefined),
          MESSAGES_PER_CLIENT,
          stats,
        ),
      ),
    );
    const summary = [...stats.errors.entries()].sort((x, y) => y[1] - x[1]);
    console.info(
      `fuzz seed ${SEED}: ${stats.sent} sent (${stats.skipped} legal changes skipped, ${stats.unencodable} unencodable, ${stats.oversized} over 60 KB), ${stats.acks} acks, ` +
        `${stats.ok} ok, ${Date.now() - started} ms; errors: ${JSON.stringify(summary)}`,
    );
    expect(stats.problems.slice(0, 20)).toEqual([]);
    expect(stats.sent).toBeGreaterThan(2000);
    expect(stats.errors.get(INVALID_REQUEST) ?? 0).toBeGreaterThan(500);
    for (const error of stats.errors.keys()) expect(error).not.toBe(TOO_MANY_REQUESTS);
    // Nothing pollutes prototypes on this side either.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    await sleep(200); // let messages sent without an ack land
    for (const table of tables) {
      expect(await server.store.load(table.code)).toEqual(table.before);
      for (const client of table.players.values()) expect(client.latest?.version).toBe(table.before!.version);
    }
  }, 60_000);

  it('the server is up: healthz, new connections and new rooms work', async () => {
    expect((await getJson(server.url, '/healthz')).status).toBe(200);
    const host = await TestClient.connect(server.url);
    const guest = await TestClient.connect(server.url);
    extraClients.push(host, guest);
    const created = okData(await host.createRoom('Fresh', 50_00));
    const joined = okData(await guest.joinRoom(created.room.roomCode, 'Guest', 50_00));
    expect(joined.version).toBe(created.version + 1);
    await withTimeout(host.waitForVersion(joined.version), 5000, 'host saw the join');
  });

  it('the protected rooms play on through legal commands only', async () => {
    const [a, b, c] = tables as [Table, Table, Table];
    for (const table of tables) {
      // The members' own connections still work and see the unchanged room.
      const snap = okData(await table.host.resume(table.code));
      expect(snap.version).toBe(table.before!.version);
    }
    // A finishes its hand and deals the next; B awards its pot and deals; C approves and starts.
    await playUntil(a, (room) => room.gameState.handNumber === a.before!.room.gameState.handNumber + 1);
    await playUntil(b, (room) => room.gameState.handNumber === b.before!.room.gameState.handNumber + 1);
    await playUntil(c, (room) => room.status === 'PLAYING');
    for (const table of tables) {
      const stored = (await server.store.load(table.code))!;
      expect(stored.version).toBeGreaterThan(table.before!.version);
      for (const client of table.players.values()) expect(client.latest?.version).toBe(stored.version);
      // Chips are conserved: stacks plus what sits in the pots equals everything bought in.
      const players = Object.values(stored.room.players);
      const chips =
        players.reduce((s, p) => s + p.stack, 0) +
        stored.room.gameState.pots.reduce((s, p) => s + p.amount, 0);
      expect(chips).toBe(players.reduce((s, p) => s + p.totalInvestment, 0));
    }
  });
});
