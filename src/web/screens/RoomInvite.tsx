import { LazyQrCode } from '../components/LazyQrCode';
import { ShareButtons } from '../components/ShareButtons';
import { lobby as t } from '../room-texts';

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
        <LazyQrCode text={joinUrl} label={t.qrLabel(roomCode)} />
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
