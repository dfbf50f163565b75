import { useRef, useState } from 'react';
import { formatCents } from '../../engine';
import type { Player } from '../../engine/types';
import type { Ack, RoomSnapshot } from '../../shared/protocol';
import { ConfirmModal } from '../components/ConfirmModal';
import { useArrivalFocus, useFocusRescue } from '../components/focus';
import { FormError, orFailed, SlowLine, useAction } from '../components/forms';
import { CloseIcon, GearIcon, LeaveIcon, RemoveIcon } from '../components/icons';
import { Presence } from '../components/Presence';
import { approvedPlayers, pendingPlayers } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { seats as seatsText, lobby as t } from '../room-texts';
import { common } from '../texts';
import { ConfirmRemove } from './ConfirmRemove';
import { PendingCard } from './PendingCard';
import { RoomInvite } from './RoomInvite';
import { SeatsModal } from './SeatsModal';
import { SettingsModal } from './SettingsModal';

export interface LobbyProps {
  snapshot: RoomSnapshot;
  me: string | null;
  send: SendCommand;
  onLeave: () => Promise<Ack<unknown>>;
  /** Origin used to build the join link; the page's own by default. */
  origin?: string;
  /** Whether the socket is connected (a 'No connection…' error goes when it is again). */
  online?: boolean;
}

type Open =
  | { kind: 'none' }
  | { kind: 'settings' }
  | { kind: 'seats' }
  | { kind: 'close' }
  | { kind: 'remove'; player: Player };

/** The lobby: share the code, see who is in, and (host) approve, remove, set blinds and start. */
export function Lobby({ snapshot, me, send, onLeave, origin, online = true }: LobbyProps) {
  const { room, presence } = snapshot;
  const isHost = me === room.hostId;
  const approved = approvedPlayers(room);
  const waiting = pendingPlayers(room).length;
  const mine = me ? room.players[me] : undefined;
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const close = () => setOpen({ kind: 'none' });
  // Removing a player who left (or was removed from the host's other tab) meanwhile would only earn
  // 'Selected player not found': the question no longer stands.
  if (open.kind === 'remove' && !room.players[open.player.id]) setOpen({ kind: 'none' });
  // Their errors answer the room as it was when pressed (see useAction).
  const action = useAction(online, snapshot.version);
  const start = useAction(online, snapshot.version);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRescue(heading);
  useArrivalFocus(heading);
  // A start the server could not carry out is the spec's 'Failed to start game. Please try again.'.
  const startGame = () => orFailed(send({ type: 'startGame' }), t.startFailed);

  const closeRoom = () => {
    if (isHost) setOpen({ kind: 'close' });
    else void action.run(onLeave);
  };

  return (
    <main className="screen lobby">
      <header className="topbar">
        <h1 ref={heading} tabIndex={-1}>
          {t.title}
        </h1>
        <div className="topbar-actions">
          {isHost ? (
            <button
              type="button"
              className="icon-button"
              aria-label={t.settings}
              aria-haspopup="dialog"
              onClick={() => setOpen({ kind: 'settings' })}
            >
              <GearIcon />
            </button>
          ) : null}
          <button
            type="button"
            className="icon-button"
            aria-label={isHost ? t.endSessionLabel : t.leaveLabel}
            onClick={closeRoom}
          >
            {isHost ? <CloseIcon /> : <LeaveIcon />}
          </button>
        </div>
      </header>

      {/* First on the host's screen: on a phone anything lower is below the fold. */}
      {isHost ? <PendingCard snapshot={snapshot} send={send} online={online} /> : null}

      <section className="card code-card" aria-labelledby="room-code-label">
        <RoomInvite roomCode={room.roomCode} origin={origin} labelId="room-code-label" />
      </section>

      <section className="card blinds-card" aria-label={t.blinds}>
        <div>
          <p className="label">{t.smallBlind}</p>
          <p className="amount">{formatCents(room.settings.smallBlind)}</p>
        </div>
        <div>
          <p className="label">{t.bigBlind}</p>
          <p className="amount">{formatCents(room.settings.bigBlind)}</p>
        </div>
      </section>

      <section className="card" aria-labelledby="players-title">
        <h2 id="players-title">{t.players(approved.length, room.settings.maxPlayers)}</h2>
        <ul className="player-list">
          {approved.map((p) => (
            <li key={p.id} className="player-item">
              <Presence online={presence[p.id] ?? false} />
              <span className="player-name">
                {p.name}
                {p.isHost ? <span className="tag host">{common.host}</span> : null}
                {p.id === me ? <span className="tag you">{common.you}</span> : null}
              </span>
              <span className="amount">{formatCents(p.stack)}</span>
              {isHost && !p.isHost ? (
                <button
                  type="button"
                  className="icon-button danger"
                  aria-label={t.remove(p.name)}
                  onClick={() => setOpen({ kind: 'remove', player: p })}
                >
                  <RemoveIcon />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        {waiting > 0 ? (
          <p className="muted">
            {t.morePending(
              waiting,
              approved.length + waiting >= room.settings.maxPlayers ? room.settings.maxPlayers : null,
            )}
          </p>
        ) : null}
        {/* The list is the seat order; the host makes it the table's (SeatsModal.tsx). */}
        {isHost && approved.length >= 2 ? (
          <div className="list-actions">
            <button
              type="button"
              className="button secondary small"
              aria-haspopup="dialog"
              onClick={() => setOpen({ kind: 'seats' })}
            >
              {seatsText.title}
            </button>
          </div>
        ) : null}
      </section>

      <FormError message={action.error ?? start.error} />
      <SlowLine pending={start.pending || action.pending} />

      <div className="bottom-actions">
        {isHost ? (
          <button
            type="button"
            className="button primary block large"
            disabled={approved.length < 2 || start.pending}
            onClick={() => void start.run(startGame, t.startFailed)}
          >
            {approved.length < 2 ? t.needPlayers : start.pending ? t.starting : t.start}
          </button>
        ) : (
          <p className="waiting" role="status">
            {mine && !mine.isApproved ? t.waitingYourApproval : t.waitingHost}
          </p>
        )}
      </div>

      {open.kind === 'seats' ? <SeatsModal room={room} send={send} onClose={close} /> : null}
      {open.kind === 'settings' ? (
        <SettingsModal settings={room.settings} send={send} onClose={close} />
      ) : null}
      {open.kind === 'close' ? (
        <ConfirmModal
          title={t.endSessionTitle}
          text={t.endSessionText}
          confirmLabel={t.endSessionConfirm}
          danger
          onConfirm={onLeave}
          onClose={close}
        />
      ) : null}
      {open.kind === 'remove' ? <ConfirmRemove player={open.player} send={send} onClose={close} /> : null}
    </main>
  );
}
