/**
 * The draft: a copy-on-write working copy of a room for one command. The room, its players map and
 * its game state are shallow-copied once; a player is copied only when a rule first changes them.
 * The input room is never written to, so a refused command simply drops its draft. No deep copies:
 * this is the engine's hot path.
 */
import type { GameEvent, GameState, Player, Room } from './types';

/** The working state of one command: what it read, what it is building and what it emitted. */
export interface Draft {
  /** The room the command started from (never written). */
  readonly base: Room;
  /** Working copy; `room.players === players` and `room.gameState === gs`. */
  readonly room: Room;
  readonly players: Record<string, Player>;
  readonly gs: GameState;
  readonly events: GameEvent[];
  readonly now: number;
  /** Ids whose player object is already this draft's own copy. */
  owned: Set<string>;
  /** Seat order cache (player ids), cleared when players are added, approved or removed. */
  seatCache: string[] | null;
  /** Set when the command deletes the room. */
  deleted: boolean;
}

/** Starts a draft over `room` for a command at time `now`. */
export function openDraft(room: Room, now: number): Draft {
  const players = { ...room.players };
  const gs = { ...room.gameState };
  return {
    base: room,
    room: { ...room, players, gameState: gs },
    players,
    gs,
    events: [],
    now,
    owned: new Set(),
    seatCache: null,
    deleted: false,
  };
}

/**
 * Whether `key` is an own key of `obj`. Object.prototype.hasOwnProperty, not Object.hasOwn: the engine
 * runs in the phones' browsers too (limits, amounts), and Object.hasOwn needs Safari 15.4 / Chrome 93,
 * above the web app's support floor (src/web/README.md).
 */
export function hasOwn(obj: object, key: string): boolean {
  // biome-ignore lint/suspicious/noPrototypeBuiltins: its fix, Object.hasOwn, needs Safari 15.4 / Chrome 93, and this runs in the phones' browsers (src/web/browser-support.test.ts).
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * The player with id `id`, or undefined. Ids in commands come from phones, and a players map is a
 * plain object: `players['constructor']` or `players['toString']` would find Object.prototype's
 * members, which an engine reading "is there such a player" must not take for players (a host once
 * approved a 'constructor' into a room and wedged it). Own keys only (`hasOwn`).
 */
export function playerById(players: Readonly<Record<string, Player>>, id: string): Player | undefined {
  return hasOwn(players, id) ? players[id] : undefined;
}

/** The draft's writable copy of a player (copied on first write). The player must exist. */
export function edit(d: Draft, id: string): Player {
  const current = playerById(d.players, id);
  if (current === undefined) throw new Error(`edit: unknown player ${id}`);
  if (d.owned.has(id)) return current;
  const copy = { ...current };
  d.players[id] = copy;
  d.owned.add(id);
  return copy;
}

/** Adds a new player object owned by the draft. */
export function addPlayer(d: Draft, player: Player): void {
  d.players[player.id] = player;
  d.owned.add(player.id);
  d.seatCache = null;
}

/** Removes a player from the draft's players map. */
export function dropPlayer(d: Draft, id: string): void {
  delete d.players[id];
  d.owned.delete(id);
  d.seatCache = null;
}

/** Records an event. */
export function emit(d: Draft, event: GameEvent): void {
  d.events.push(event);
}
