import { useEffect, useRef, useState } from 'react';
import type { Player } from '../../engine/types';
import { type Ack, type SeatLinkResponse, SOMETHING_WENT_WRONG } from '../../shared/protocol';
import { FormError } from '../components/forms';
import { LazyQrCode } from '../components/LazyQrCode';
import { Modal } from '../components/Modal';
import { ShareButtons } from '../components/ShareButtons';
import { seatLink as t } from '../room-texts';

/** How the host's phone asks for a seat link (RoomApi's `seatLink`, for the current room). */
export type SeatLinkRequest = (playerId: string) => Promise<Ack<SeatLinkResponse>>;

interface Props {
  /** The player whose seat moves, as the room is now. */
  player: Player;
  /** Whether the player's phone is connected now (the snapshot's presence). */
  online: boolean;
  seatLink: SeatLinkRequest;
  onClose: () => void;
  /** Origin of the link; the page's own by default. */
  origin?: string | undefined;
}

type State =
  | { kind: 'making' }
  | { kind: 'made'; url: string; minutes: number; linkId: string; replaced: boolean }
  | { kind: 'expired' }
  | { kind: 'failed'; error: string };

/** The link a new phone opens (Home.tsx reads `?seat=`). */
function seatUrlOf(seat: string, origin?: string): string {
  return `${origin ?? globalThis.location?.origin ?? ''}/?seat=${encodeURIComponent(seat)}`;
}

/**
 * The host's "Move Bob to a New Phone" (ours; the engine's seatLink, not in the spec): Bob's phone is
 * away (flat, dropped in a drink), Bob is still at the table. On open it asks the server for a link
 * that moves Bob's seat, chips and all, to whichever phone opens it, and shows it as a QR code, as
 * text, and with Copy Link / Share Link. A refusal (Bob's phone came back meanwhile, no connection)
 * shows as it is, with Try Again.
 *
 * While open: a link whose time runs out says so and offers a new one; Bob's phone connected again (the
 * new phone took the seat, or the old one came back) says there is nothing more to do, and the link
 * goes (the server would refuse it now). Table.tsx closes the dialog when Bob leaves or is removed.
 */
export function SeatLinkModal({ player, online, seatLink, onClose, origin }: Props) {
  const playerId = player.id;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>({ kind: 'making' });
  /** How long the link just made works (its answer's expiresInMs), for the timer that ends it. */
  const [expiresIn, setExpiresIn] = useState<number | null>(null);
  // One request an attempt: StrictMode runs the effect twice, and a re-render must not ask again.
  const askedFor = useRef(-1);
  const attemptRef = useRef(attempt);
  attemptRef.current = attempt;
  // The seat's link as the room shows it now: one there when a new one is asked for is replaced by it.
  const heldLinkRef = useRef(player.seatLink);
  heldLinkRef.current = player.seatLink;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (askedFor.current === attempt) return;
    askedFor.current = attempt;
    // A link the seat held when this one was asked for (the dialog opened again, or a new link after
    // one expired) stops working: the host may have shared it already (the exploratory test).
    const replaced = heldLinkRef.current !== undefined;
    const answered = (res: Ack<SeatLinkResponse>) => {
      if (!mounted.current || attemptRef.current !== attempt) return;
      setState(
        res.ok
          ? {
              kind: 'made',
              url: seatUrlOf(res.data.seat, origin),
              minutes: Math.max(1, Math.round(res.data.expiresInMs / 60_000)),
              // "ROOM.<playerId>.<linkId>.<expiry>.<signature>": the id the engine keeps on the seat.
              linkId: res.data.seat.split('.')[2] ?? '',
              replaced,
            }
          : { kind: 'failed', error: res.error || SOMETHING_WENT_WRONG },
      );
      if (res.ok) setExpiresIn(res.data.expiresInMs);
    };
    void seatLink(playerId).then(answered, () => answered({ ok: false, error: SOMETHING_WENT_WRONG }));
  }, [attempt, playerId, seatLink, origin]);

  // The link stops working after expiresInMs: the dialog says so rather than show a dead QR code.
  useEffect(() => {
    if (expiresIn === null) return;
    const timer = setTimeout(() => setState({ kind: 'expired' }), expiresIn);
    return () => clearTimeout(timer);
  }, [expiresIn]);

  // The seat has its phone again: connected now, or the link spent (used: the engine clears the seat's
  // link, so a new phone that sleeps a moment later does not bring it back; replaced by a newer one;
  // or void, Bob's own phone having resumed the room: the server's seatBack). Spent only once the seat
  // was seen holding it (the link's answer may come before the room).
  // Until the seat link's exploratory test "connected" was latched: Ben's own phone back for a moment
  // (a flat phone at 1%) left "Nothing more to do" over a link that still worked, his seat offline again.
  const [seen, setSeen] = useState(false);
  const holds = state.kind === 'made' && player.seatLink === state.linkId;
  if (holds && !seen) setSeen(true);
  const connected = state.kind === 'made' && (online || (seen && !holds));
  // Spent by a newer link (the host's other tab, or another phone of the host's): said as such, not as
  // the seat connected (the exploratory test).
  const newer = state.kind === 'made' && seen && player.seatLink !== undefined && !holds;

  const again = () => {
    setExpiresIn(null);
    setSeen(false);
    setState({ kind: 'making' });
    setAttempt((a) => a + 1);
  };

  const name = player.name;
  const shown = state.kind === 'made' && !connected ? state : null;
  const line =
    state.kind === 'making'
      ? t.making
      : state.kind === 'expired'
        ? t.expired
        : state.kind === 'made'
          ? connected
            ? newer
              ? t.newer(name)
              : t.connected(name)
            : t.text(name, state.minutes) + (state.replaced ? ` ${t.replaced}` : '')
          : '';
  return (
    <Modal title={t.title(name)} onClose={onClose}>
      <div className="seat-link">
        {/* One live region, there from the start, so each new line (made, expired, connected) is read. */}
        <div className="seat-link-status" role="status">
          {state.kind === 'making' ? <span className="spinner small" aria-hidden="true" /> : null}
          {line ? <p>{line}</p> : null}
        </div>
        {shown ? (
          <>
            <LazyQrCode text={shown.url} label={t.qrLabel(name)} />
            <div className="share-link">
              <p className="label">{t.linkLabel}</p>
              <p className="join-link">{shown.url.replace(/^https?:\/\//, '')}</p>
              <ShareButtons
                content={{ url: shown.url }}
                title={t.shareTitle(name)}
                labels={{ copy: t.copyLink, copied: t.copied, share: t.shareLink, byHand: t.copyByHand }}
              />
            </div>
          </>
        ) : null}
        <FormError message={state.kind === 'failed' ? state.error : null} />
        <div className="button-row">
          {state.kind === 'failed' || state.kind === 'expired' ? (
            <button type="button" className="button secondary" onClick={again}>
              {state.kind === 'failed' ? t.tryAgain : t.newLink}
            </button>
          ) : null}
          <button type="button" className="button primary" onClick={onClose}>
            {t.done}
          </button>
        </div>
      </div>
    </Modal>
  );
}
