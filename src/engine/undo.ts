/**
 * Undo: the host takes back the last game command (a player's action, a stage dealt, a pot awarded, a
 * new hand, a rebuy), for the slips of a poker night: a thumb on the wrong button, the pot given to the
 * wrong player, a hand dealt before the winner was checked. One level, no redo, with one exception: a
 * New Hand keeps the point it replaced (`prev`), and undoing it brings that point back, so the award
 * of the hand before can still be taken back when the mistake is seen as the next hand is dealt (the
 * likeliest moment: the next hand is when everyone looks at their stacks). Only the New Hand's
 * snapshot carries two points; the next action replaces them.
 *
 * Every game command leaves an undo point in the room (types.ts `UndoPoint`): what it changed, as it was
 * before. An undo puts that back and logs an `undone` event; the log and `nextEventSeq` keep moving
 * forward, so the phones' logs still merge by seq. What is kept, and until when:
 * - Only what the command changed: the fields of its players and of the game state it changed, as they
 *   were. No game command changes the room's status or ledger: a game ends by End
 *   Game or when players leave (results.ts autoEnd needs a departure: a player who loses every chip in a
 *   hand is still dealt into it), and neither can be undone. Should a command ever change them, it
 *   leaves no undo point rather than one that would put back half of it.
 * - A join (a new key in the players map), a change of blinds (settings, read at the next hand), a
 *   player sitting out or coming back (`away`, read at the next deal) and a player still waiting for
 *   approval leaving or denied touch nothing the point restores, so the point survives them: a
 *   latecomer asking to join does not cost the host their undo, nor does a player stepping out (until
 *   session 29's audit, the winner of a wrong award could sit out and back and make it stick). Every
 *   other command clears it: approving, removing or a seated player leaving change who is at the
 *   table (and a departure moves chips into the ledger), End Game is a decision the host already
 *   confirmed, and an undo is not itself undone.
 * Only the host may undo: the host runs the table, and a player taking back their own action after the
 * others have seen it is what "action is binding" forbids at a real table.
 */
import { type Draft, edit, emit, hasOwn, playerById } from './draft';
import type { Outcome } from './lobby';
import { MSG } from './messages';
import type { Command, GameEvent, LoggedEvent, Player, Room, UndoPoint } from './types';

/** Commands that leave an undo point. */
const UNDOABLE: ReadonlySet<Command['type']> = new Set([
  'act',
  'actFor',
  'advanceStage',
  'declareWinners',
  'newHand',
  'rebuy',
]);

/**
 * Commands that keep the room's undo point (they change nothing it restores), with the event each
 * logs: those events may sit between an undone command and its undo without being taken back.
 * A leave or a removal keeps it only when the player was still waiting for approval (`keepsUndo`):
 * a stranger asking to join and leaving again, or the host denying them, touches nothing at the
 * table (the audit of session 26 found a stranger could wipe the host's undo that way, at will).
 * A seated player's departure clears the point, so such an event inside an undone stretch is
 * always a pending player's.
 */
const KEEPS_UNDO: Partial<Record<Command['type'], GameEvent['type']>> = {
  join: 'playerJoined',
  updateSettings: 'settingsUpdated',
  sitOut: 'sitOutChanged',
  leave: 'playerLeft',
  remove: 'playerRemoved',
  seatLink: 'seatLinkMade',
  claimSeat: 'seatMoved',
  seatBack: 'seatLinkVoid',
};
const KEPT_EVENTS: ReadonlySet<GameEvent['type']> = new Set(Object.values(KEEPS_UNDO));

/** Whether `command` (applied to `base` by `actorId`) keeps the room's undo point. */
function keepsUndo(base: Room, actorId: string, command: Command): boolean {
  if (KEEPS_UNDO[command.type] === undefined) return false;
  if (command.type !== 'leave' && command.type !== 'remove') return true;
  const who = playerById(base.players, command.type === 'leave' ? actorId : command.playerId);
  return who !== undefined && !who.isApproved;
}

/**
 * The fields of `before` that `after` changed, as they were in `before`, and the keys `after` added
 * (absent from `before`). Compared by reference: an array or object the command rebuilt (the pots) is
 * kept whole.
 */
function changedFields<T extends object>(before: T, after: T): { fields: Partial<T>; added: string[] } {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  const added: string[] = [];
  for (const key in now) {
    if (!hasOwn(was, key)) added.push(key);
    else if (was[key] !== now[key]) fields[key] = was[key];
  }
  for (const key in was) if (!hasOwn(now, key)) fields[key] = was[key];
  return { fields: fields as Partial<T>, added };
}

/**
 * The undo point the room gets after `command` was applied to `base` (in draft `d`, which the command
 * changed): a new point for a game command, the old one kept by a join, a change of blinds or a pending
 * player leaving or denied, else null.
 * The point holds only the fields the command changed (a phone's snapshot carries it: a whole copy of
 * the players and the game state made every broadcast ~40% bigger, bench/README.md).
 */
export function nextUndoPoint(d: Draft, base: Room, actorId: string, command: Command): UndoPoint | null {
  if (keepsUndo(base, actorId, command)) return base.undo ?? null;
  // An undo of a New Hand brings back the point the New Hand replaced.
  if (command.type === 'undo') return base.undo?.prev ?? null;
  if (!UNDOABLE.has(command.type) || d.events.length === 0) return null;
  if (d.room.status !== base.status || d.room.ledger !== base.ledger) return null;
  const players: Record<string, Partial<Player>> = {};
  for (const id of d.owned) {
    const before = playerById(base.players, id);
    const after = playerById(d.players, id);
    // No game command adds or drops a player, or adds a field to one (results are set at the end).
    if (before === undefined || after === undefined) return null;
    const { fields, added } = changedFields(before, after);
    if (added.length > 0) return null;
    if (Object.keys(fields).length > 0) players[id] = fields;
  }
  const gs = changedFields(base.gameState, d.gs);
  // Nor a field to the game state (startGame sets the optional ones, and it is not undone).
  if (gs.added.length > 0) return null;
  const point: UndoPoint = {
    seq: base.nextEventSeq,
    first: d.events[0]!,
    gameState: gs.fields,
    players,
  };
  // The point before a New Hand (its own `prev` dropped: one hand back, no further).
  if (command.type === 'newHand' && base.undo) {
    const { prev: _older, ...last } = base.undo;
    point.prev = last;
  }
  return point;
}

/** undo (host): puts back what the command of the room's undo point changed, if `seq` still names it. */
export function undo(d: Draft, actorId: string, seq: number): Outcome {
  if (actorId !== d.base.hostId) return MSG.onlyHostUndo;
  const point = d.base.undo;
  if (point === undefined || point === null) return MSG.nothingToUndo;
  if (point.seq !== seq) return MSG.undoMovedOn;
  // Spread over the current object so every key keeps its place (the room's JSON is as it was).
  for (const id in point.players) Object.assign(edit(d, id), point.players[id]);
  const gs = d.gs as unknown as Record<string, unknown>;
  Object.assign(gs, point.gameState);
  emit(d, { type: 'undone', undoneSeq: point.seq, first: point.first });
  return null;
}

/**
 * Which events of a room's log an undo took back, as a test for one event (for what the screens derive
 * from the log: the hand log's lines, the fold-win overlay). The log keeps them, followed by an
 * `undone` event: the events from its `undoneSeq` up to its own `seq` were taken back, except those of
 * the commands that kept the undo point (a join, new blinds) and an earlier undo (undoing a New Hand,
 * then the award before it: the first undo sits in the second's stretch, and is never itself undone).
 */
export function takenBack(log: readonly LoggedEvent[]): (event: LoggedEvent) => boolean {
  const ranges: Array<{ from: number; to: number }> = [];
  for (const e of log) if (e.type === 'undone') ranges.push({ from: e.undoneSeq, to: e.seq });
  if (ranges.length === 0) return () => false;
  return (event) =>
    event.type !== 'undone' &&
    !KEPT_EVENTS.has(event.type) &&
    ranges.some(({ from, to }) => event.seq >= from && event.seq < to);
}
