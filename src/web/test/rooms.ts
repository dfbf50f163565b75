/**
 * Test rooms built with the real engine (createRoom/applyCommand), so component tests see exactly
 * what the server would broadcast. Player ids are the lower-cased names.
 */
import { applyCommand, createRoom } from '../../engine';
import type { Command, Room } from '../../engine/types';
import type { RoomSnapshot } from '../../shared/protocol';

let clock = 1_000;

const idOf = (name: string) => name.toLowerCase();

/** Applies a command; throws with the engine's error when it is refused. */
export function step(room: Room, actor: string, command: Command): Room {
  const res = applyCommand(room, actor, command, ++clock);
  if (!res.ok) throw new Error(`${command.type} refused: ${res.error}`);
  if (!res.room) throw new Error('room deleted');
  return res.room;
}

/**
 * A lobby hosted by the first name, with the others joined (and approved unless listed in
 * `pending`). Starting chips in cents, per name (default $50.00).
 */
export function lobby(
  names: string[],
  opts: { chips?: Record<string, number>; pending?: string[] } = {},
): Room {
  const [host, ...others] = names;
  if (!host) throw new Error('need a host');
  const chips = (name: string) => opts.chips?.[name] ?? 5_000;
  let room = createRoom({
    roomCode: 'ABCDE',
    hostId: idOf(host),
    hostName: host,
    startingChips: chips(host),
    now: ++clock,
  });
  for (const name of others) {
    room = step(room, idOf(name), { type: 'join', name, startingChips: chips(name) });
    if (!opts.pending?.includes(name))
      room = step(room, idOf(host), { type: 'approve', playerId: idOf(name) });
  }
  return room;
}

/** A started game (hand 1 dealt, blinds posted). */
export function started(names: string[], opts: { chips?: Record<string, number> } = {}): Room {
  const room = lobby(names, opts);
  return step(room, room.hostId, { type: 'startGame' });
}

/** Acts for whoever's turn it is. */
export function actNow(room: Room, action: 'FOLD' | 'CALL' | 'RAISE' | 'ALL_IN', amount?: number): Room {
  const turn = room.gameState.currentTurnPlayerId;
  if (!turn) throw new Error('nobody to act');
  return step(room, turn, amount === undefined ? { type: 'act', action } : { type: 'act', action, amount });
}

export function snapshot(room: Room, presence: Record<string, boolean> = {}): RoomSnapshot {
  const online = Object.fromEntries(Object.keys(room.players).map((id) => [id, presence[id] ?? true]));
  return { version: 1, room, presence: online };
}

/**
 * The snapshot a phone holds of `room` with the `offline` players' phones away, and (when given) the
 * table's wait as an acknowledgement tells it to a phone loading the room (RoomSnapshot.idle).
 */
export function heldSnapshot(room: Room, offline: string[], idle?: number): RoomSnapshot {
  const held = snapshot(room, Object.fromEntries(offline.map((id) => [id, false])));
  return idle === undefined ? held : { ...held, idle };
}
