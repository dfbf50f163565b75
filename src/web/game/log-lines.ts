import { formatCents, STAGE_NAMES } from '../../engine';
import type { GameEvent, LoggedEvent } from '../../engine/types';
import { log as t } from '../room-texts';
import { withIsolatedNames } from './bidi';

/**
 * What a command did, by its first event `first`, logged at `seq`: that event's line, or for an award of
 * several pots every pot's ("Pot $30.04 to Dan; Side pot 1 $17.58 to Dan"), read from `log`, where the
 * command's events follow one another. For the host's undo, which takes back the whole command: its
 * question named only the main pot of a three-pot award (the session-32 audit).
 */
export function describeCommand(first: GameEvent, seq: number, log: readonly LoggedEvent[]): string | null {
  if (first.type !== 'potAwarded') return describeEvent(first, log);
  let i = 0;
  while (i < log.length && (log[i] as LoggedEvent).seq < seq) i++;
  const lines: string[] = [];
  for (; i < log.length && (log[i] as LoggedEvent).seq === seq + lines.length; i++) {
    const e = log[i] as LoggedEvent;
    if (e.type !== 'potAwarded') break;
    lines.push(describeEvent(e) as string);
  }
  return lines.length > 1 ? lines.join('; ') : describeEvent(first);
}

/**
 * One line of the hand log for an engine event ("Ana raises to $6.00", "Pot $14.00 to Ben"), or null
 * to skip. An undo's line names what its command did, read from `log` when given (describeCommand).
 */
export function describeEvent(event: GameEvent, log: readonly LoggedEvent[] = []): string | null {
  // Names inside a line of text keep their order with the amounts beside them (bidi.ts).
  const e = withIsolatedNames(event);
  switch (e.type) {
    case 'playerJoined':
      return t.joined(e.name, formatCents(e.startingChips));
    case 'playerApproved':
      return t.approved(e.name);
    case 'playerRemoved':
      return t.removed(e.name);
    case 'playerLeft':
      return t.left(e.name);
    case 'settingsUpdated':
      return t.settings(formatCents(e.smallBlind), formatCents(e.bigBlind));
    case 'gameStarted':
      return t.gameStarted;
    case 'handStarted':
      return t.handStarted(e.handNumber);
    case 'blindPosted': {
      const line = (e.blind === 'SMALL' ? t.smallBlind : t.bigBlind)(e.name, formatCents(e.amount));
      return e.allIn ? line + t.allInSuffix : line;
    }
    case 'playerActed':
      switch (e.action) {
        case 'FOLD':
          return t.fold(e.name) + (e.byHost ? t.byHost : '');
        case 'CALL':
          if (e.amount === 0) return t.check(e.name) + (e.byHost ? t.byHost : '');
          return t.call(e.name, formatCents(e.amount)) + (e.allIn ? t.allInSuffix : '');
        case 'RAISE':
          return e.allIn
            ? t.allIn(e.name, formatCents(e.totalBet))
            : t.raise(e.name, formatCents(e.totalBet));
        case 'ALL_IN':
          return t.allIn(e.name, formatCents(e.totalBet));
      }
      return null;
    case 'betReturned':
      return t.returned(e.name, formatCents(e.amount));
    case 'stageChanged':
      return t.stage(STAGE_NAMES[e.stage]);
    case 'showdown':
      return e.message;
    case 'potAwarded': {
      // A split names each share: the odd cent went to someone, and the table should see to whom.
      const names = e.winners
        .map((w) => (e.winners.length > 1 ? t.share(w.name, formatCents(w.amount)) : w.name))
        .join(', ');
      return e.potId.startsWith('side-')
        ? t.sidePot(e.potId.slice(5), formatCents(e.amount), names)
        : t.pot(formatCents(e.amount), names);
    }
    case 'handCompleted':
      return t.handCompleted(e.handNumber);
    case 'rebuy':
      return t.rebuy(e.name, formatCents(e.amount));
    case 'gameEnded':
      return t.gameEnded;
    case 'roomDeleted':
      return t.roomDeleted;
    case 'seatsArranged':
      return t.seatsArranged(e.names);
    case 'sitOutChanged':
      return (e.away ? t.sitsOut(e.name) : t.back(e.name)) + (e.byHost ? t.byHost : '');
    case 'seatLinkMade':
      return t.seatLinkMade(e.name);
    case 'seatMoved':
      return t.seatMoved(e.name);
    case 'seatLinkVoid':
      return t.seatLinkVoid(e.name);
    case 'hostChanged':
      return e.claimed ? t.hostClaimed(e.name, e.fromName) : t.hostChanged(e.fromName, e.name);
    case 'undone': {
      const line = describeCommand(e.first, e.undoneSeq, log);
      return line === null ? null : t.undone(line);
    }
  }
}
