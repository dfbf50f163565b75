import { useState } from 'react';
import { formatCents, settle } from '../../engine';
import { nameKey } from '../../engine/room';
import type { Room } from '../../engine/types';
import { ConfirmModal } from '../components/ConfirmModal';
import { approvedPlayers } from '../game/view';
import { common, gameOver as t } from '../texts';

interface Standing {
  id: string;
  name: string;
  finalChips: number;
  netResult: number;
  isWinner: boolean;
  left: boolean;
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
    left: false,
    label: p.name,
  }));
  const gone = room.ledger.map((e) => ({
    id: e.id,
    name: e.name,
    finalChips: e.finalChips,
    netResult: e.netResult,
    isWinner: e.isWinner ?? false,
    left: true,
    label: e.name,
  }));
  const all = [...seated, ...gone];
  for (const s of gone)
    if (all.some((o) => o !== s && nameKey(o.name) === nameKey(s.name))) s.label = `${s.name} ${t.left}`;
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

function signed(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}

export interface GameOverProps {
  room: Room;
  me: string | null;
  onHome: () => void;
}

/** Game over: headline, who owes whom (the engine's settle) and the rankings. */
export function GameOver({ room, me, onHome }: GameOverProps) {
  const ranking = standings(room);
  const settlements = settle(ranking.map(({ id, label, netResult }) => ({ id, name: label, netResult })));
  const [leaving, setLeaving] = useState(false);

  return (
    <main className="screen game-over">
      <header className="game-over-head">
        <p className="label">{t.title}</p>
        <h1>{headline(ranking)}</h1>
      </header>

      <section className="card" aria-labelledby="settlements-title">
        <h2 id="settlements-title">{t.settlements}</h2>
        {settlements.length === 0 ? (
          <p className="muted">{t.noSettlements}</p>
        ) : (
          <ul className="settlements">
            {settlements.map((s) => (
              <li key={`${s.fromPlayerId}-${s.toPlayerId}`}>
                <span>
                  <strong>{s.from}</strong>
                  <span className="owes">{t.owes}</span>
                  <strong>{s.to}</strong>
                </span>
                <span className="amount">{formatCents(s.amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="rankings-title">
        <h2 id="rankings-title">{t.rankings}</h2>
        <ol className="rankings">
          {ranking.map((s, i) => {
            return (
              <li key={s.id} className={s.isWinner ? 'ranking top' : 'ranking'}>
                <span className="rank">{i + 1}</span>
                <span className="player-name">
                  {s.name}
                  {s.id === me ? <span className="tag you">{common.you}</span> : null}
                  {s.left ? <span className="tag">{t.left}</span> : null}
                  <span className="sub">
                    {t.finalChips} <span className="nowrap">{formatCents(s.finalChips)}</span>
                  </span>
                </span>
                <span className={s.netResult > 0 ? 'net plus' : s.netResult < 0 ? 'net minus' : 'net'}>
                  <span className="sr-only">{t.net} </span>
                  {signed(s.netResult)}
                </span>
              </li>
            );
          })}
        </ol>
      </section>

      <p className="muted center">{t.screenshot}</p>
      <div className="bottom-actions">
        {/* Asks first: it is the biggest button under the thumb, and once home this phone cannot show
            the results again (the phone forgets the room). */}
        <button
          type="button"
          className="button primary block large"
          aria-haspopup="dialog"
          onClick={() => setLeaving(true)}
        >
          {common.backHome}
        </button>
      </div>
      {leaving ? (
        <ConfirmModal
          title={t.leaveTitle}
          text={t.leaveText}
          confirmLabel={common.backHome}
          onConfirm={async () => {
            onHome();
            return { ok: true, data: null };
          }}
          onClose={() => setLeaving(false)}
        />
      ) : null}
    </main>
  );
}
