import { formatCents, inHand } from '../../engine';
import type { Player } from '../../engine/types';
import { PhoneIcon, RemoveIcon } from '../components/icons';
import { Presence } from '../components/Presence';
import { lobby, seatLink, table as t } from '../room-texts';
import { common } from '../texts';

/**
 * A player's row at the table: presence, name with the host and "(You)" tags, the D/SB/BB badge, the
 * host's "Move Bob to a New Phone" (while Bob's phone is away) and remove buttons, then the stack, the bet, what a winner won and the row's tags (turn, winner,
 * folded, all-in, why they are out).
 */
export function Seat({
  player: p,
  me,
  online,
  turn,
  winner,
  won,
  handDone,
  onRemove,
  onMove,
}: {
  player: Player;
  me: string | null;
  online: boolean;
  turn: boolean;
  winner: boolean;
  /** What a winner took from this hand's pots, in cents (handWinnings); absent when not known. */
  won?: number;
  /** The hand is over (every pot awarded): a player left with nothing is out of chips already. */
  handDone: boolean;
  /** The host's remove button for this seat (absent for everyone else and for the host's own seat). */
  onRemove?: () => void;
  /**
   * The host's "Move Bob to a New Phone" for this seat (SeatLinkModal.tsx): absent for everyone else,
   * the host's own seat, and a player whose phone is connected.
   */
  onMove?: (() => void) | undefined;
}) {
  const badge = t.badges[p.role];
  const out = outTag(p, handDone);
  const classes = [
    'seat',
    onMove && 'can-move',
    turn && 'turn',
    winner && 'winner',
    p.hasFolded && 'folded',
    !p.isActive && 'out',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={classes} aria-current={turn ? 'true' : undefined}>
      <Presence online={online} />
      <span className="player-name">
        {p.name}
        {p.isHost ? <span className="tag host">{common.host}</span> : null}
        {p.id === me ? <span className="tag you">{common.you}</span> : null}
      </span>
      {badge ? (
        <span className="badge" title={t.badgeNames[p.role]}>
          <span aria-hidden="true">{badge}</span>
          <span className="sr-only">{t.badgeNames[p.role]}</span>
        </span>
      ) : null}
      {onMove ? (
        <button
          type="button"
          className="icon-button seat-move"
          aria-label={seatLink.button(p.name)}
          aria-haspopup="dialog"
          onClick={onMove}
        >
          <PhoneIcon />
        </button>
      ) : null}
      {onRemove ? (
        <button
          type="button"
          className="icon-button danger seat-remove"
          aria-label={lobby.remove(p.name)}
          aria-haspopup="dialog"
          onClick={onRemove}
        >
          <RemoveIcon />
        </button>
      ) : null}
      <div className="seat-numbers">
        <span className="seat-stack">
          <span className="label">{t.stack}</span> <span className="nowrap">{formatCents(p.stack)}</span>
        </span>
        {p.currentRoundBet > 0 ? (
          <span className="seat-bet">
            <span className="label">{t.bet}</span>{' '}
            <span className="nowrap">{formatCents(p.currentRoundBet)}</span>
          </span>
        ) : null}
        {winner && won !== undefined ? (
          <span className="seat-won">
            <span className="label">{t.won}</span> <span className="nowrap">{formatCents(won)}</span>
          </span>
        ) : null}
        {turn ? <span className="tag turn-tag">{t.turn}</span> : null}
        {winner ? <span className="tag winner-tag">{t.winner}</span> : null}
        {p.hasFolded ? <span className="tag">{t.folded}</span> : null}
        {p.isAllIn ? <span className="tag allin-tag">{t.allIn}</span> : null}
        {out ? <span className="tag">{out}</span> : null}
      </div>
    </li>
  );
}

/**
 * Why a seat is not in the hand, or will not be in the next: sitting out (the engine's sitOut; "Sits
 * out next hand" while still holding cards in this one, then "Sitting out", folded or not: between
 * hands the table sees who the next deal leaves out), out of chips (as soon as the hand that took the
 * last chip is over: the host sees who needs a rebuy before dealing), or seated after the deal
 * (approved or rebought mid-hand). Null for a player in the hand.
 */
function outTag(p: Player, handDone: boolean): string | null {
  if (p.away) return inHand(p) ? t.sitsOutNext : t.sittingOut;
  if (p.stack === 0 && (handDone || !p.isActive)) return t.outOfChips;
  return p.isActive ? null : t.joinsNextHand;
}
