/**
 * Results: ending the game (by the host, by the host leaving, or automatically), with every chip
 * of an unfinished hand returned first, then final chips, net results and the winner flags.
 */
import { type Draft, edit, emit, hasOwn, playerById } from './draft';
import { hostPlayingError } from './hand';
import type { Outcome } from './lobby';
import type { LedgerEntry, Player } from './types';

/**
 * Ends the game now. Chips committed to the unfinished hand go back to their owners (players who
 * already left get theirs back in their ledger entry), so the pots are emptied. A seated player who
 * had left earlier and came back (the same id, a ledger entry) is one person in the results: the
 * entry's chips and investment join the seat's and the entry goes, so they are ranked and settled
 * once. Then each player gets finalChips = stack (plus such an earlier stint's chips) and netResult =
 * finalChips - totalInvestment; isWinner marks the approved player(s) and ledger entries (players who
 * left) with the best net result of them all when it is positive (a rebuy never makes a winner),
 * isLoser a negative net result.
 */
export function finishGame(d: Draft, endedBy: string): void {
  for (const id in d.players) {
    const p = d.players[id] as Player;
    if (p.totalPotContribution > 0) {
      const q = edit(d, id);
      q.stack += q.totalPotContribution;
      q.lastChipUpdate = d.now;
      emit(d, { type: 'betReturned', playerId: id, name: q.name, amount: q.totalPotContribution });
    }
  }
  const departed = d.gs.departedContributions ?? {};
  if (Object.keys(departed).length > 0) {
    d.room.ledger = d.room.ledger.map((e): LedgerEntry => {
      // Own keys only (an id such as 'constructor' would read Object.prototype's member).
      const back = hasOwn(departed, e.id) ? (departed[e.id] as number) : 0;
      if (back === 0) return e;
      emit(d, { type: 'betReturned', playerId: e.id, name: e.name, amount: back });
      const finalChips = e.finalChips + back;
      return { ...e, finalChips, netResult: finalChips - e.totalInvestment };
    });
  }
  // Chips carried away by an earlier stint of a player seated again (merged below).
  const carried = new Map<string, number>();
  if (d.room.ledger.some((e) => playerById(d.players, e.id)?.isApproved)) {
    d.room.ledger = d.room.ledger.filter((e) => {
      if (!playerById(d.players, e.id)?.isApproved) return true;
      edit(d, e.id).totalInvestment += e.totalInvestment;
      carried.set(e.id, e.finalChips);
      return false;
    });
  }
  const finalChipsOf = (p: Player) => p.stack + (carried.get(p.id) ?? 0);
  // The night's winner is the best net result of everyone who played: seated, or gone with their
  // chips (a ledger entry), who may be the only one up.
  let best = 0;
  for (const id in d.players) {
    const p = d.players[id] as Player;
    if (p.isApproved && finalChipsOf(p) - p.totalInvestment > best)
      best = finalChipsOf(p) - p.totalInvestment;
  }
  for (const e of d.room.ledger) if (e.netResult > best) best = e.netResult;
  if (d.room.ledger.some((e) => (best > 0 && e.netResult === best) !== (e.isWinner ?? false)))
    d.room.ledger = d.room.ledger.map((e) => ({ ...e, isWinner: best > 0 && e.netResult === best }));
  for (const id in d.players) {
    const p = edit(d, id);
    p.currentRoundBet = 0;
    p.totalPotContribution = 0;
    p.finalChips = finalChipsOf(p);
    p.netResult = p.finalChips - p.totalInvestment;
    p.isWinner = p.isApproved && best > 0 && p.netResult === best;
    p.isLoser = p.netResult < 0;
  }
  const gs = d.gs;
  d.room.status = 'ENDED';
  gs.status = 'ENDED';
  gs.endedAt = d.now;
  gs.endedBy = endedBy;
  gs.currentTurnPlayerId = null;
  gs.canAdvanceStage = false;
  gs.nextStage = null;
  gs.nextStageName = null;
  gs.pots = [];
  gs.departedContributions = {};
  emit(d, { type: 'gameEnded', endedBy });
}

/** endGame (host, while playing). */
export function endGame(d: Draft, actorId: string): Outcome {
  const error = hostPlayingError(d, actorId);
  if (error !== null) return error;
  finishGame(d, actorId);
  return null;
}

/**
 * Ends the game with endedBy 'auto' when, at SHOWDOWN, at most one player is still active: seated
 * (approved, the spec's `active` status), whether or not dealt into this hand. A player approved
 * mid-hand sits out with chips; when one of two heads-up players leaves, the other wins the hand and
 * the game goes on with the newcomer (it ended, for good, when this counted only players dealt in).
 */
export function autoEnd(d: Draft): void {
  if (d.room.status !== 'PLAYING' || d.gs.stage !== 'SHOWDOWN') return;
  let seated = 0;
  for (const id in d.players) if ((d.players[id] as Player).isApproved) seated++;
  if (seated <= 1) finishGame(d, 'auto');
}
