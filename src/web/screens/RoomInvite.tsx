import { Component, lazy, type ReactNode, Suspense } from 'react';
import { ShareButtons } from '../components/ShareButtons';
import { lobby as t } from '../room-texts';

const loadQrCode = () => lazy(() => import('../components/QrCode'));
let QrCode = loadQrCode();

const qrPlaceholder = <div className="qr qr-placeholder" />;

/**
 * The QR code's file fetched the first time an invite opens: one that cannot load (the table's "Room
 * ABCDE" tapped offline on a page reloaded at the table, so never through the lobby; or a file a new
 * deploy replaced, new-build.ts) leaves the placeholder, with the code and the join link beside it,
 * rather than the whole table's error screen (ErrorBoundary.tsx, around the app). React.lazy keeps a
 * failed import for good, so the next invite opened asks for the file again.
 */
class QrBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    QrCode = loadQrCode();
  }
  override render() {
    return this.state.failed ? qrPlaceholder : this.props.children;
  }
}

interface Props {
  roomCode: string;
  /** Origin used to build the join link; the page's own by default. */
  origin?: string | undefined;
  /** Id for the "Room Code" label, which names the card or dialog around it. */
  labelId: string;
}

/** The join link of a room: `/?join=CODE` on `origin` (the page's own by default). */
function joinUrlOf(roomCode: string, origin?: string): string {
  return `${origin ?? globalThis.location?.origin ?? ''}/?join=${roomCode}`;
}

/**
 * How a friend gets into the room: the code in large letters, "Share this code with friends", the QR
 * code of the join link, the link itself and Copy / Share. The lobby's code card, and the table's
 * invite dialog (TableFoot.tsx) for a friend who arrives once the game is under way.
 */
export function RoomInvite({ roomCode, origin, labelId }: Props) {
  const joinUrl = joinUrlOf(roomCode, origin);
  return (
    <>
      <p id={labelId} className="label">
        {t.roomCode}
      </p>
      <p className="room-code">{roomCode}</p>
      <p className="muted">{t.share}</p>
      <div className="share">
        <QrBoundary>
          <Suspense fallback={qrPlaceholder}>
            <QrCode text={joinUrl} label={t.qrLabel(roomCode)} />
          </Suspense>
        </QrBoundary>
        <div className="share-link">
          <p className="label">{t.joinLink}</p>
          <a className="join-link" href={joinUrl}>
            {joinUrl.replace(/^https?:\/\//, '')}
          </a>
          <ShareButtons
            content={{ url: joinUrl }}
            title={t.shareTitle}
            labels={{ copy: t.copyLink, copied: t.copied, share: t.shareLink, byHand: t.copyByHand }}
          />
        </div>
      </div>
    </>
  );
}
