/**
 * Rebuy: the host adds chips to a player's stack and investment.
 */
import { type Draft, edit, emit, playerById } from './draft';
import { isPositiveCents, type Outcome } from './lobby';
import { MSG, rebuyInHand } from './messages';
import { chipsInRoom } from './room';

/**
 * rebuy (host; lobby or playing; rebuys enabled): adds `amount` cents to the player's stack and
 * totalInvestment. Table stakes: a player still in a hand that is being bet (before SHOWDOWN,
 * active, not folded) must wait until the showdown or until they fold.
 */
export function rebuy(d: Draft, actorId: string, playerId: string, amount: number): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostGameState;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (!d.room.settings.enableRebuys) return MSG.rebuysDisabled;
  if (!isPositiveCents(amount)) return MSG.invalidPositiveAmount;
  const target = playerById(d.players, playerId);
  if (target === undefined || !target.isApproved) return MSG.playerNotFound;
  // Every sum of the room's chips (a stack, the pots, the nets) must stay an exact integer.
  if (amount > Number.MAX_SAFE_INTEGER - chipsInRoom(d)) return MSG.invalidPositiveAmount;
  if (d.room.status === 'PLAYING' && d.gs.stage !== 'SHOWDOWN' && target.isActive && !target.hasFolded)
    return rebuyInHand(target.name);
  const p = edit(d, playerId);
  p.stack += amount;
  p.totalInvestment += amount;
  p.lastChipUpdate = d.now;
  emit(d, { type: 'rebuy', playerId, name: p.name, amount });
  return null;
}
