/**
 * applyCommand: the one entry point that changes a room. Opens a draft, dispatches on the command
 * type (exhaustive switch), ends the game automatically when it must, and on success stamps
 * lastActivity, appends the events to the log and sets the undo point (undo.ts).
 */
import { act, actFor } from './betting';
import { leave, remove } from './departure';
import { type Draft, openDraft, playerById } from './draft';
import { advanceStage, declareWinners, newHand, progress, startGame } from './hand';
import { claimHost, makeHost } from './host';
import { approve, join, type Outcome, type UNCHANGED, updateSettings } from './lobby';
import { appendLog } from './log';
import { MSG } from './messages';
import { rebuy } from './rebuy';
import { autoEnd, endGame } from './results';
import { tableActivity } from './room';
import { claimSeat, holdsSeat, seatBack, seatLink } from './seat-link';
import { arrangeSeats, sitOut } from './seating';
import type { Command, CommandResult, Player, Room } from './types';
import { nextUndoPoint, undo } from './undo';

function dispatch(d: Draft, actorId: string, command: Command): Outcome | typeof UNCHANGED {
  // The server's schema lets no other shape through; a command that is not an object is still answered.
  if (typeof command !== 'object' || command === null) return MSG.unknownCommand;
  switch (command.type) {
    case 'join':
      return join(d, actorId, command.name, command.startingChips);
    case 'approve':
      return approve(d, actorId, command.playerId);
    case 'remove':
      return remove(d, actorId, command.playerId);
    case 'updateSettings':
      return updateSettings(d, actorId, command.smallBlind, command.bigBlind);
    case 'leave':
      return leave(d, actorId);
    case 'startGame':
      return startGame(d, actorId);
    case 'act': {
      const error = act(d, actorId, command.action, command.amount, command.facing);
      if (error === null) progress(d, (d.players[actorId] as Player).joinedAt);
      return error;
    }
    case 'actFor': {
      const error = actFor(d, actorId, command.playerId, command.action, command.online);
      if (error === null) progress(d, (d.players[command.playerId] as Player).joinedAt);
      return error;
    }
    case 'advanceStage':
      return advanceStage(d, actorId);
    case 'declareWinners':
      return declareWinners(d, actorId, command.winnerIds, command.byPot);
    case 'newHand':
      return newHand(d, actorId);
    case 'rebuy':
      return rebuy(d, actorId, command.playerId, command.amount);
    case 'endGame':
      return endGame(d, actorId);
    case 'undo':
      return undo(d, actorId, command.seq);
    case 'makeHost':
      return makeHost(d, actorId, command.playerId);
    case 'claimHost':
      return claimHost(d, actorId, command.online);
    case 'arrangeSeats':
      return arrangeSeats(d, actorId, command.playerIds);
    case 'sitOut':
      return sitOut(d, actorId, command.away, command.playerId);
    case 'seatLink':
      return seatLink(d, actorId, command.playerId, command.linkId, command.online);
    case 'claimSeat':
      return claimSeat(d, actorId, command.playerId, command.linkId, command.online);
    case 'seatBack':
      return seatBack(d, actorId);
    default:
      return unknownCommand(command);
  }
}

/**
 * Whether `command` is no move at the table: a stranger's own business (asking to join, or leaving
 * while still waiting for approval), or a phone coming back (seatBack). It changes the room
 * (lastActivity) but not the table's last move (tableActivity), which the take-over waits count from.
 */
function offTable(room: Room, actorId: string, command: Command): boolean {
  if (command.type === 'join' || command.type === 'seatBack') return true;
  if (command.type !== 'leave') return false;
  const p = playerById(room.players, actorId);
  return p !== undefined && !p.isApproved;
}

function unknownCommand(_command: never): string {
  return MSG.unknownCommand;
}

/**
 * Applies `command` sent by `actorId` at time `now` (ms). Never mutates `room`.
 * Refused commands return `{ ok: false, error }` (the spec's wording where it has one).
 * Accepted ones return the new room (null when the room is deleted) and the events; the new room
 * has lastActivity = now and the events appended to its log. Idempotent repeats (a reconnecting
 * join, approving twice, leaving an ended game) return the same room object and no events.
 */
export function applyCommand(room: Room, actorId: string, command: Command, now: number): CommandResult {
  // A phone holding the actor's seat by the credentials of a link whose claim is no longer the seat's
  // newest (seat-link.ts holdsSeat) is not that player: a photo of an earlier QR code, or a phone
  // given back, was the player for good until session 42 (every claim's credentials were the same).
  const via = typeof command === 'object' && command !== null ? command.via : undefined;
  const seat = via === undefined ? undefined : playerById(room.players, actorId);
  if (seat !== undefined && !holdsSeat(seat, via as string))
    return { ok: false, error: MSG.seatHeldElsewhere };
  const d = openDraft(room, now);
  const outcome = dispatch(d, actorId, command);
  if (typeof outcome === 'symbol') return { ok: true, room, events: [] };
  if (outcome !== null) return { ok: false, error: outcome };
  if (d.deleted) return { ok: true, room: null, events: d.events };
  autoEnd(d);
  const out = d.room;
  out.lastActivity = now;
  out.tableActivity = offTable(room, actorId, command) ? tableActivity(room) : now;
  const undoPoint = nextUndoPoint(d, room, actorId, command);
  // Rooms that never had an undo point (stored before undo existed, or only a lobby so far) keep no key.
  if (undoPoint !== null || out.undo != null) out.undo = undoPoint;
  const { log, nextEventSeq } = appendLog(room, d.events, now, d.gs.handNumber);
  out.log = log;
  out.nextEventSeq = nextEventSeq;
  return { ok: true, room: out, events: d.events };
}
