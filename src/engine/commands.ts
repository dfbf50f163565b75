/**
 * applyCommand: the one entry point that changes a room. Opens a draft, dispatches on the command
 * type (exhaustive switch), and on success stamps lastActivity and appends the events to the log.
 */
import { leave, remove } from './departure';
import { type Draft, openDraft } from './draft';
import { approve, join, type Outcome, UNCHANGED, updateSettings } from './lobby';
import { appendLog } from './log';
import { MSG } from './messages';
import type { Command, CommandResult, Room } from './types';

const NOT_YET = 'Not implemented yet';

function dispatch(d: Draft, actorId: string, command: Command): Outcome | typeof UNCHANGED {
  switch (command.type) {
    case 'join':
      return join(d, actorId, command.name, command.startingChips);
    case 'approve':
      return approve(d, actorId, command.playerId);
    case 'remove':
      return remove(d, actorId, command.playerId, () => {
        throw new Error(NOT_YET);
      });
    case 'updateSettings':
      return updateSettings(d, actorId, command.smallBlind, command.bigBlind);
    case 'leave':
      return leave(
        d,
        actorId,
        () => {
          throw new Error(NOT_YET);
        },
        () => {
          throw new Error(NOT_YET);
        },
      );
    case 'startGame':
    case 'act':
    case 'advanceStage':
    case 'declareWinners':
    case 'newHand':
    case 'rebuy':
    case 'endGame':
      return NOT_YET;
    default:
      return unknownCommand(command);
  }
}

function unknownCommand(_command: never): string {
  return MSG.unknownCommand;
}

/**
 * Applies `command` sent by `actorId` at time `now` (ms). Never mutates `room`.
 * Refused commands return `{ ok: false, error }` (the spec's wording where it has one).
 * Accepted ones return the new room (null when the room is deleted) and the events; the new room
 * has lastActivity = now and the events appended to its log. Idempotent repeats (a reconnecting
 * join, leaving an ended game) return the same room object and no events.
 */
export function applyCommand(room: Room, actorId: string, command: Command, now: number): CommandResult {
  const d = openDraft(room, now);
  const outcome = dispatch(d, actorId, command);
  if (outcome === UNCHANGED) return { ok: true, room, events: [] };
  if (outcome !== null) return { ok: false, error: outcome };
  if (d.deleted) return { ok: true, room: null, events: d.events };
  const out = d.room;
  out.lastActivity = now;
  const { log, nextEventSeq } = appendLog(room, d.events, now, d.gs.handNumber);
  out.log = log;
  out.nextEventSeq = nextEventSeq;
  return { ok: true, room: out, events: d.events };
}
