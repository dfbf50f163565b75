import { type FormEvent, useState } from 'react';
import type { Room } from '../../engine/types';
import { FormSubmit, useAction } from '../components/forms';
import { DownIcon, UpIcon } from '../components/icons';
import { Modal } from '../components/Modal';
import { approvedPlayers } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { seats as t } from '../room-texts';

export interface SeatsModalProps {
  room: Room;
  send: SendCommand;
  onClose: () => void;
}

/**
 * "Arrange Seats" (host; the engine's `arrangeSeats`): the players in the order they really sit,
 * clockwise, which decides who deals, who posts the blinds and who acts next. In the lobby the first
 * deals the first hand; between hands the button moves on from the last hand's dealer.
 *
 * Up and down buttons rather than dragging: one thumb, no precision, a screen reader's too. A button
 * that cannot move its player further is `aria-disabled`, not `disabled`, so the focus stays on it when
 * its player reaches the end. Players who join, leave or are approved while the dialog is open: the
 * list keeps the host's order for those still at the table and adds newcomers at the end.
 */
export function SeatsModal({ room, send, onClose }: SeatsModalProps) {
  const table = approvedPlayers(room);
  const [moved, setMoved] = useState<string[] | null>(null);
  const [said, setSaid] = useState('');
  const { pending, error, run } = useAction();
  const byId = new Map(table.map((p) => [p.id, p]));
  const order = [
    ...(moved ?? []).filter((id) => byId.has(id)),
    ...table.map((p) => p.id).filter((id) => !(moved ?? []).includes(id)),
  ];
  const playing = room.status === 'PLAYING';
  const dealerId = playing ? room.gameState.dealerId : null;

  const move = (from: number, to: number) => {
    if (to < 0 || to >= order.length) return;
    const next = [...order];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id as string);
    setMoved(next);
    setSaid(t.moved(byId.get(id as string)?.name ?? '', to + 1));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    if (await run(() => send({ type: 'arrangeSeats', playerIds: order }))) onClose();
  };

  return (
    <Modal title={t.title} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="modal-text">
          {t.text} {playing ? t.tableNote : t.lobbyNote}
        </p>
        <ol className="seat-order">
          {order.map((id, i) => {
            const p = byId.get(id);
            if (!p) return null;
            // In the lobby the first seat deals first; between hands the button is where it was.
            const tag = playing ? (id === dealerId ? t.dealer : null) : i === 0 ? t.dealsFirst : null;
            return (
              <li key={id}>
                <span className="seat-number" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="seat-name">
                  {p.name}
                  {/* After a space, so it reads "Ann Dealer", not "AnnDealer". */}
                  {tag ? ' ' : null}
                  {tag ? <span className="tag">{tag}</span> : null}
                </span>
                <span className="seat-moves">
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t.up(p.name)}
                    aria-disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  >
                    <UpIcon />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t.down(p.name)}
                    aria-disabled={i === order.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    <DownIcon />
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
        <p className="sr-only" role="status">
          {said}
        </p>
        <FormSubmit error={error} pending={pending} label={t.submit} pendingLabel={t.loading} large />
      </form>
    </Modal>
  );
}
