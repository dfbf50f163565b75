/**
 * Departure: a player leaving or being removed, in the lobby, during play and after the end, and what
 * leaving does to their chips in the hand (payUncontested, and stakeOnLeaving for the questions).
 */
import { type Draft, dropPlayer, edit, emit, hasOwn, playerById } from './draft';
import { contributions, progress, refreshPots } from './hand';
import { type Outcome, UNCHANGED } from './lobby';
import { MSG } from './messages';
import { buildPots, potTotal } from './pots';
import { finishGame } from './results';
import { seatIds } from './room';
import { canAct, inHand } from './seats';
import type { GameState, LedgerEntry, Player, Room, Stage } from './types';

/**
 * leave: the actor leaves the room.
 * - Lobby: the host leaving deletes the room (`d.deleted`); anyone else just disappears.
 * - Playing: the host leaving ends the game (endedBy = host id, results stay visible); anyone else
 *   leaves the table (see `leaveTable`).
 * - Ended, or not in the room: nothing changes (the results stay visible until idle cleanup).
 */
export function leave(d: Draft, actorId: string): Outcome | typeof UNCHANGED {
  const p = playerById(d.players, actorId);
  if (p === undefined || d.room.status === 'ENDED') return UNCHANGED;
  if (d.room.status === 'LOBBY') {
    if (actorId === d.room.hostId) {
      d.deleted = true;
      emit(d, { type: 'roomDeleted' });
      return null;
    }
    dropPlayer(d, actorId);
    emit(d, { type: 'playerLeft', playerId: actorId, name: p.name });
    return null;
  }
  emit(d, { type: 'playerLeft', playerId: actorId, name: p.name });
  if (actorId === d.room.hostId) finishGame(d, actorId);
  else leaveTable(d, actorId);
  return null;
}

/**
 * remove (host): deny a pending player or remove a seated one. The host cannot remove themself.
 * In the lobby the player disappears; during play see `leaveTable`.
 */
export function remove(d: Draft, actorId: string, playerId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostRemove;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const p = playerById(d.players, playerId);
  if (p === undefined) return MSG.playerNotFound;
  if (playerId === d.room.hostId) return MSG.hostCannotRemoveSelf;
  emit(d, { type: 'playerRemoved', playerId, name: p.name, wasApproved: p.isApproved });
  if (d.room.status === 'LOBBY') dropPlayer(d, playerId);
  else leaveTable(d, playerId, true);
  return null;
}

/**
 * A player leaves the table during play. A pending player simply disappears. A seated one is folded
 * (chips already in the pots stay there as dead money), leaves the players map and keeps a ledger
 * entry with their stack and investment (merged with an earlier entry of the same id), `removed` when
 * the host removed them. If it was their turn the turn passes on; if one player is left in the hand
 * they win it.
 */
function leaveTable(d: Draft, playerId: string, removed = false): void {
  const was = playerById(d.players, playerId);
  if (was === undefined) return;
  if (!was.isApproved) {
    dropPlayer(d, playerId);
    return;
  }
  payUncontested(d, playerId);
  const p = d.players[playerId] as Player;
  const seat = p.joinedAt;
  const wasTurn = d.gs.currentTurnPlayerId === playerId;
  if (p.totalPotContribution > 0) {
    const departed = { ...(d.gs.departedContributions ?? {}) };
    // Own keys only: an id such as 'constructor' (any id the server's pattern allows) would read
    // Object.prototype's member and turn the sum into text, the chips lost.
    departed[playerId] =
      (hasOwn(departed, playerId) ? (departed[playerId] as number) : 0) + p.totalPotContribution;
    d.gs.departedContributions = departed;
  }
  const previous = d.room.ledger.find((e) => e.id === playerId);
  const finalChips = p.stack + (previous?.finalChips ?? 0);
  const totalInvestment = p.totalInvestment + (previous?.totalInvestment ?? 0);
  const entry: LedgerEntry = {
    id: playerId,
    name: p.name,
    finalChips,
    totalInvestment,
    netResult: finalChips - totalInvestment,
    leftAt: d.now,
  };
  if (removed) entry.removed = true;
  d.room.ledger = [...d.room.ledger.filter((e) => e.id !== playerId), entry];
  dropPlayer(d, playerId);
  if (wasTurn) {
    d.gs.currentTurnPlayerId = null;
    progress(d, seat);
  } else {
    const holder = d.gs.currentTurnPlayerId === null ? undefined : d.players[d.gs.currentTurnPlayerId];
    progress(d, holder?.joinedAt ?? seat, holder !== undefined);
  }
}

/**
 * Before `playerId` leaves the hand (leaving or removed): leaving folds, and what the others matched
 * stays in the pots for them; the rest is the leaver's (then goes with their stack into the ledger):
 * 1. What nobody else can win: every chip put in above the most any other player still in the hand
 *    can be in for (their total, and before the showdown their stack too, which they may still bet).
 *    At an unpaid showdown that is a side pot the others folded out of; mid-round, a bet a short
 *    all-in covered in part with everyone else folded or shorter still. With other players' folded
 *    chips in it, those pots are paid to the leaver ('potAwarded', as at the showdown).
 * 2. What nobody matched: their own chips above the most anyone else (in the hand, folded or gone)
 *    has put in, a bet nobody has called ('betReturned', with 1 when it was their own chips only).
 * Without these, the pots rebuilt without the leaver made their chips dead money for the pot below,
 * and a short all-in player took chips they never covered (session 26 at the showdown; session 33
 * mid-round, where the same night gave the leaver $50 back or not by whether they left before or
 * after the last player's fold or call).
 */
function payUncontested(d: Draft, playerId: string): void {
  if (d.room.status !== 'PLAYING' || potTotal(d.gs.pots) === 0) return;
  const leaver = d.players[playerId] as Player;
  if (!inHand(leaver)) return;
  const cap = othersCanBeIn(d.players, d.gs.stage, playerId);
  let returned = 0;
  const own = leaver.totalPotContribution - cap;
  if (own > 0) {
    // The pots only they are eligible for, before anything moves (the events name them).
    const theirs = buildPots(contributions(d)).filter(
      (pot) => pot.amount > 0 && pot.eligiblePlayers.length === 1 && pot.eligiblePlayers[0] === playerId,
    );
    let paid = 0;
    for (const id of seatIds(d)) {
      const excess = (d.players[id] as Player).totalPotContribution - cap;
      if (excess <= 0) continue;
      const q = edit(d, id);
      q.totalPotContribution -= excess;
      q.currentRoundBet = Math.max(0, q.currentRoundBet - excess);
      paid += excess;
    }
    const departed = d.gs.departedContributions;
    if (departed !== undefined) {
      const capped = { ...departed };
      for (const id in capped) {
        const excess = (capped[id] as number) - cap;
        if (excess > 0) {
          capped[id] = cap;
          paid += excess;
        }
      }
      d.gs.departedContributions = capped;
    }
    edit(d, playerId).stack += paid;
    if (paid === own) returned = paid;
    else
      for (const pot of theirs)
        emit(d, {
          type: 'potAwarded',
          potId: pot.id,
          amount: pot.amount,
          winners: [{ playerId, name: leaver.name, amount: pot.amount }],
          reason: 'SHOWDOWN',
          message: null,
        });
  }
  const unmatched =
    (d.players[playerId] as Player).totalPotContribution - othersPutIn(d.players, d.gs, playerId);
  if (unmatched > 0) {
    const p = edit(d, playerId);
    p.totalPotContribution -= unmatched;
    p.currentRoundBet = Math.max(0, p.currentRoundBet - unmatched);
    p.stack += unmatched;
    returned += unmatched;
  }
  if (returned > 0) emit(d, { type: 'betReturned', playerId, name: leaver.name, amount: returned });
  if (own > 0 || unmatched > 0) {
    edit(d, playerId).lastChipUpdate = d.now;
    refreshPots(d);
  }
}

/**
 * The most any player still in the hand, other than `playerId`, can be in for: their total, and before
 * the showdown their stack too if they can still bet (payUncontested).
 */
function othersCanBeIn(players: Record<string, Player>, stage: Stage, playerId: string): number {
  const betting = stage !== 'SHOWDOWN';
  let cap = 0;
  for (const id in players) {
    const q = players[id] as Player;
    if (id === playerId || !q.isApproved || !inHand(q)) continue;
    cap = Math.max(cap, q.totalPotContribution + (betting && canAct(q) ? q.stack : 0));
  }
  return cap;
}

/** The most anyone other than `playerId` has put in this hand: seated (folded or not) or gone. */
function othersPutIn(players: Record<string, Player>, gs: GameState, playerId: string): number {
  let most = 0;
  for (const id in players)
    if (id !== playerId) most = Math.max(most, (players[id] as Player).totalPotContribution);
  const departed = gs.departedContributions ?? {};
  for (const id in departed) if (id !== playerId) most = Math.max(most, departed[id] as number);
  return most;
}

/**
 * What leaving (or being removed) now does to `playerId`'s chips in the hand: `bet`, what they have put
 * in, of which `stays` stays in the pots (payUncontested: what nobody else can win and what nobody
 * matched go with them). Null when they have nothing in an unpaid hand they are still in. The leave and
 * remove questions say it.
 */
export function stakeOnLeaving(room: Room, playerId: string): { bet: number; stays: number } | null {
  const p = playerById(room.players, playerId);
  if (p === undefined || room.status !== 'PLAYING' || !inHand(p) || p.totalPotContribution === 0) return null;
  if (potTotal(room.gameState.pots) === 0) return null;
  const cap = othersCanBeIn(room.players, room.gameState.stage, playerId);
  // After 1 every contribution is at most `cap`; 2 then keeps what the most of the others put in.
  const bet = p.totalPotContribution;
  return { bet, stays: Math.min(bet, cap, othersPutIn(room.players, room.gameState, playerId)) };
}
