/**
 * The Declare Winner dialog's preview of an award. Its own module, read only by the table's lazily
 * loaded chunk: it runs the engine's applyCommand, which the first page never needs (vite.config.ts
 * keeps the engine's modules out of it unless used there).
 */
import { applyCommand } from '../../engine';
import type { Command, Room } from '../../engine/types';
import { approvedPlayers } from './view';

/** One winner's share of an award: what their stack gains. */
export interface AwardShare {
  playerId: string;
  name: string;
  /** Cents. */
  amount: number;
}

/**
 * What `command` (a declareWinners) would give each player, in seat order, as the engine itself decides
 * it: the command applied to the room as the host would send it (applyCommand is pure), each stack
 * compared with the room's. So the split, the side pots and the odd cent shown before the host taps
 * Award are the ones the server will make, not a second copy of the rules. Null when the engine would
 * refuse the command (the dialog's own checks say why).
 */
export function awardShares(room: Room, command: Command): AwardShare[] | null {
  const result = applyCommand(room, room.hostId, command, room.lastActivity);
  if (!result.ok || result.room === null) return null;
  const after = result.room.players;
  return approvedPlayers(room)
    .map((p) => ({ playerId: p.id, name: p.name, amount: (after[p.id]?.stack ?? p.stack) - p.stack }))
    .filter((s) => s.amount > 0);
}
