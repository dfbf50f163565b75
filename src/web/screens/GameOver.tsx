import { useRef, useState } from 'react';
import { formatCents } from '../../engine';
import type { Room } from '../../engine/types';
import { ConfirmModal } from '../components/ConfirmModal';
import { useArrivalFocus } from '../components/focus';
import { ShareButtons } from '../components/ShareButtons';
import { headline, resultsText, settlementsOf, signed, standings } from '../game/standings';
import { gameOver as t } from '../room-texts';
import { common } from '../texts';

export interface GameOverProps {
  room: Room;
  me: string | null;
  onHome: () => void;
  /**
   * This phone holds the seat by a link (a borrowed phone): back home it is its own player again and
   * cannot show these results (use-room.ts forget), so Back to Home's question says so.
   */
  byLink?: boolean;
}

/**
 * Game over: headline, who owes whom (the engine's settle) and the rankings; Copy Results and Share
 * Results put them in the group chat as text (`resultsText`), beside the spec's screenshot hint.
 */
export function GameOver({ room, me, onHome, byLink = false }: GameOverProps) {
  const ranking = standings(room);
  const settlements = settlementsOf(ranking);
  const [leaving, setLeaving] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(heading);

  return (
    <main className="screen game-over">
      <header className="game-over-head">
        <p className="label">{t.title}</p>
        <h1 ref={heading} tabIndex={-1}>
          {headline(ranking)}
        </h1>
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
                  {s.isWinner ? <span className="tag winner">{t.winnerTag}</span> : null}
                  {s.id === me ? <span className="tag you">{common.you}</span> : null}
                  {s.goneTag ? <span className="tag">{s.goneTag}</span> : null}
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

      <div className="share-results">
        <ShareButtons
          content={{ text: resultsText(room, ranking) }}
          title={t.shareTitle}
          labels={{ copy: t.copyResults, copied: t.copied, share: t.shareResults, byHand: t.copyRefused }}
        />
      </div>
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
          text={byLink ? t.leaveTextByLink : t.leaveText}
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
