import { formatCents, nameKey, settle } from '../../engine';
import type { Room, Settlement } from '../../engine/types';
import { gameOver as t } from '../room-texts';
import { isolate } from './bidi';
import { approvedPlayers } from './view';

/** The game over's results, computed from the ended room: the rankings, the headline, the settlements. */

export interface Standing {
  id: string;
  name: string;
  finalChips: number;
  netResult: number;
  isWinner: boolean;
  /** How a player who left went, said after their name: "(left)", or "(removed)" by the host; '' if seated. */
  goneTag: string;
  /**
   * The name the headline and the settlements use: the name, with "(left)" after it for a player who
   * left when someone else in the results has the same name (a departed Bob and a new phone that
   * joined later as Bob are two people, each settled apart, and "Bob owes Ana" must say which).
   */
  label: string;
}

/**
 * Final standings: seated players plus those who left during the game (the ledger), best first.
 * isWinner is the engine's: the best positive net result of everyone, seated or gone.
 */
export function standings(room: Room): Standing[] {
  const seated = approvedPlayers(room).map((p) => ({
    id: p.id,
    name: p.name,
    finalChips: p.finalChips ?? p.stack,
    netResult: p.netResult ?? 0,
    isWinner: p.isWinner ?? false,
    goneTag: '',
    label: p.name,
  }));
  const gone = room.ledger.map((e) => ({
    id: e.id,
    name: e.name,
    finalChips: e.finalChips,
    netResult: e.netResult,
    isWinner: e.isWinner ?? false,
    goneTag: e.removed ? t.removed : t.left,
    label: e.name,
  }));
  const all = [...seated, ...gone];
  for (const s of gone)
    if (all.some((o) => o !== s && nameKey(o.name) === nameKey(s.name))) s.label = `${s.name} ${s.goneTag}`;
  // By final chips (the spec's ranking); equal chips: the better net result first, then seat order.
  return all.sort((a, b) => b.finalChips - a.finalChips || b.netResult - a.netResult);
}

/**
 * The spec's headline: everyone at 0; otherwise the winner the engine marked (isWinner: the best
 * positive net result), so the headline always names the highlighted player. Several winners, or
 * nobody up (everyone broke even), is a tie. A rebuy that merely matches the top stack is no win.
 */
export function headline(ranking: Standing[]): string {
  if (ranking.length === 0 || ranking.every((s) => s.finalChips === 0)) return t.everyoneChipless;
  const winners = ranking.filter((s) => s.isWinner);
  if (winners.length === 1) return t.winner((winners[0] as Standing).label);
  return t.tie;
}

/** A net result with its sign: "+$8.15", "-$70.00", "$0.00". */
export function signed(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}

/** Who owes whom (the engine's settle), named as the results name them (`label`). */
export function settlementsOf(ranking: Standing[]): Settlement[] {
  return settle(ranking.map(({ id, label, netResult }) => ({ id, name: label, netResult })));
}

/**
 * The results as plain text, for the group chat (the game over's Copy and Share): the day, the
 * headline, who owes whom, and the rankings with net results and final chips, labelled (a bare "$63.00"
 * in a chat reads as winnings). The day, not the room code: the code means nothing once the night is
 * over, the day tells one week's results from the next.
 */
export function resultsText(room: Room, ranking: Standing[]): string {
  const settlements = settlementsOf(ranking);
  const { endedAt } = room.gameState;
  const day =
    endedAt === null
      ? null
      : new Date(endedAt).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return [
    t.shareHeading(day),
    headline(ranking),
    '',
    `${t.settlements}:`,
    ...(settlements.length === 0
      ? [t.noSettlements]
      : settlements.map((s) => `${isolate(s.from)}${t.owes}${isolate(s.to)} ${formatCents(s.amount)}`)),
    '',
    `${t.rankings}:`,
    // As the screen's rankings: "(left)" or "(removed)" after everyone gone, whether or not a name is shared.
    ...ranking.map((s, i) =>
      t.shareRanking(
        i + 1,
        `${isolate(s.name)}${s.goneTag ? ` ${s.goneTag}` : ''}`,
        signed(s.netResult),
        formatCents(s.finalChips),
      ),
    ),
  ].join('\n');
}
