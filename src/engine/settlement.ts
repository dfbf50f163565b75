import type { Settlement } from './types';

/**
 * Who owes whom: the biggest loser repeatedly pays the biggest winner until everyone is square.
 * Each transfer settles at least one side completely, so n players need at most n-1 transfers.
 * Ties are broken by the input order so the result is deterministic. Net results must sum to 0;
 * any remainder (which the engine never produces) is left unsettled rather than invented.
 */
export function settle(players: Array<{ id: string; name: string; netResult: number }>): Settlement[] {
  const creditors = players.map((p, i) => ({ ...p, i, left: p.netResult })).filter((p) => p.left > 0);
  const debtors = players.map((p, i) => ({ ...p, i, left: -p.netResult })).filter((p) => p.left > 0);
  const biggest = (list: typeof creditors) =>
    list.reduce<(typeof creditors)[number] | undefined>(
      (best, p) =>
        p.left > 0 && (!best || p.left > best.left || (p.left === best.left && p.i < best.i)) ? p : best,
      undefined,
    );
  const out: Settlement[] = [];
  for (;;) {
    const from = biggest(debtors);
    const to = biggest(creditors);
    if (!from || !to) break;
    const amount = Math.min(from.left, to.left);
    out.push({ from: from.name, to: to.name, amount, fromPlayerId: from.id, toPlayerId: to.id });
    from.left -= amount;
    to.left -= amount;
  }
  return out;
}
