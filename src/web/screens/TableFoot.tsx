import { useId, useState } from 'react';
import { betweenHands, formatCents } from '../../engine';
import type { Room } from '../../engine/types';
import { Modal } from '../components/Modal';
import type { SendCommand } from '../net/use-room';
import { seats as seatsText, table as t } from '../room-texts';
import { RoomInvite } from './RoomInvite';
import { SeatsModal } from './SeatsModal';
import { SettingsModal } from './SettingsModal';

interface Props {
  room: Room;
  isHost: boolean;
  send: SendCommand;
  /** Origin of the invite's join link; the page's own by default. */
  origin?: string | undefined;
}

/**
 * The table's footer: the hand number and the blinds of the hand on the table, and, when the host has
 * set new blinds since it was dealt, the ones the next hand will post ("Next hand $0.50 / $1.00"), on
 * every phone.
 *
 * The host changes the blinds here ("Change Blinds", the lobby's settings dialog): not in the spec,
 * whose settings live in the lobby only, but raising the blinds as the night goes on is what a real
 * table does. The engine has always taken `updateSettings` during play and applied it from the next
 * hand (`gameState.blinds` keeps the hand's own); this is the way to it from the table. Between
 * hands the host's change shows as "Next hand" until New Hand deals with it.
 *
 * Between hands the host also gets "Arrange Seats" here (SeatsModal.tsx): a latecomer sits down
 * wherever there is a chair, and the app's order decides who deals, who posts and who acts next.
 *
 * Every phone's footer shows the room's code ("Room ABCDE"), a button opening the invite: the lobby's
 * code, QR code and join link (RoomInvite.tsx). Not in the spec, whose code shows in the lobby only;
 * but a friend often arrives once the game is under way, the engine seats them from the next hand once
 * the host approves them, and nobody at the table could find the code to give them (session 39).
 */
export function TableFoot({ room, isHost, send, origin }: Props) {
  const [editing, setEditing] = useState<'blinds' | 'seats' | 'invite' | null>(null);
  const inviteLabelId = useId();
  // The seats change only between hands (the engine's arrangeSeats).
  const seatsOpen = betweenHands(room.gameState);
  // A phone whose host role moved on (handed over, taken over) loses the dialog, for good; the seats'
  // too once the next hand is dealt (from the host's other tab).
  if ((editing && editing !== 'invite' && !isHost) || (editing === 'seats' && !seatsOpen)) setEditing(null);
  const gs = room.gameState;
  const now = gs.blinds ?? room.settings;
  const next = room.settings;
  const changed = next.smallBlind !== now.smallBlind || next.bigBlind !== now.bigBlind;
  return (
    <>
      <footer className="table-foot">
        <span>{t.hand(gs.handNumber)}</span>
        <span>{t.blinds(formatCents(now.smallBlind), formatCents(now.bigBlind))}</span>
        {changed ? (
          <span className="next-blinds">
            {t.nextBlinds(formatCents(next.smallBlind), formatCents(next.bigBlind))}
          </span>
        ) : null}
        <div className="foot-actions">
          {isHost && seatsOpen ? (
            <button
              type="button"
              className="button secondary small foot-button"
              aria-haspopup="dialog"
              onClick={() => setEditing('seats')}
            >
              {seatsText.title}
            </button>
          ) : null}
          {isHost ? (
            <button
              type="button"
              className="button secondary small foot-button"
              aria-haspopup="dialog"
              onClick={() => setEditing('blinds')}
            >
              {t.changeBlinds}
            </button>
          ) : null}
          <button
            type="button"
            className="button secondary small foot-button"
            aria-haspopup="dialog"
            aria-label={t.inviteLabel(room.roomCode)}
            onClick={() => setEditing('invite')}
          >
            {t.invite(room.roomCode)}
          </button>
        </div>
      </footer>
      {editing === 'invite' ? (
        <Modal title={t.inviteTitle} onClose={() => setEditing(null)}>
          <div className="code-card invite">
            <RoomInvite roomCode={room.roomCode} origin={origin} labelId={inviteLabelId} />
            <p className="muted">{t.inviteNote}</p>
          </div>
        </Modal>
      ) : null}
      {editing === 'blinds' && isHost ? (
        <SettingsModal
          settings={next}
          send={send}
          onClose={() => setEditing(null)}
          note={t.blindsNextHand}
          // Named as the button that opened it: a screen reader hears the name that was tapped.
          title={t.changeBlinds}
        />
      ) : null}
      {editing === 'seats' && isHost && seatsOpen ? (
        <SeatsModal room={room} send={send} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}
