import { type FormEvent, useState } from 'react';
import type { Room } from '../../engine/types';
import { FormSubmit, useAction } from '../components/forms';
import { Modal } from '../components/Modal';
import { approvedPlayers, canKeepSeat } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { handOver as t, table } from '../room-texts';

export interface HandOverModalProps {
  room: Room;
  me: string;
  send: SendCommand;
  onClose: () => void;
  /**
   * Present when this phone holds the host's seat by a link (Bob, on a friend's phone, made the host
   * since): "Give This Phone Back", as a player's leave question offers it (Table.tsx). The role and
   * the seat stay at the table for Bob's own phone, or a take-over.
   */
  onHandBack?: (() => void) | undefined;
}

/**
 * The host's leave button: under the spec the host leaving ends the game for everyone, so the host
 * first picks who runs the table after them (`makeHost`). Once the role has moved, the table shows the
 * leave question every player gets in this dialog's place (Table.tsx): the old host may leave, or stay
 * as a player. Only players at the table can be picked; a stranger waiting for approval cannot.
 */
export function HandOverModal({ room, me, send, onClose, onHandBack }: HandOverModalProps) {
  const others = approvedPlayers(room).filter((p) => p.id !== me);
  const [chosen, setChosen] = useState<string | null>(null);
  const { pending, error, run } = useAction();
  // The one chosen may have left or been removed meanwhile.
  const next = others.find((p) => p.id === chosen);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending || next === undefined) return;
    await run(() => send({ type: 'makeHost', playerId: next.id }));
  };

  const mine = room.players[me];
  // As for every player (Table.tsx): nothing to keep for a host with no chips who is not in the hand.
  const canSitOut = mine !== undefined && canKeepSeat(room, mine);

  return (
    <Modal title={table.leaveTitle} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {onHandBack ? (
          <>
            <p className="modal-text">{table.leaveOrHandBack}</p>
            <button type="button" className="button secondary block" onClick={onHandBack}>
              {table.handBack}
            </button>
          </>
        ) : null}
        {/* Stepping away, or running the table without playing: the host sits out and stays the host.
            First: a host steps away many times a night and leaves once, and with a full table the
            hand-over's list would push this under the fold of a small phone. */}
        {canSitOut ? (
          <>
            <p className="modal-text">{t.sitOut}</p>
            <button
              type="button"
              className="button secondary block"
              disabled={pending}
              onClick={async () => {
                if (await run(() => send({ type: 'sitOut', away: true }))) onClose();
              }}
            >
              {table.sitOutInstead}
            </button>
          </>
        ) : null}
        {others.length === 0 ? (
          <p className="modal-text">{t.nobody}</p>
        ) : (
          <>
            <p className="modal-text">{t.text}</p>
            <fieldset className="choices">
              <legend>{t.legend}</legend>
              {others.map((p) => (
                <label key={p.id} className={p.id === chosen ? 'choice checked' : 'choice'}>
                  <input
                    type="radio"
                    name="new-host"
                    checked={p.id === chosen}
                    onChange={() => setChosen(p.id)}
                  />
                  <span>{p.name}</span>
                </label>
              ))}
            </fieldset>
            <FormSubmit
              error={error}
              pending={pending}
              disabled={next === undefined}
              label={next ? t.confirm(next.name) : t.choose}
              pendingLabel={t.loading}
              large
            />
            <p className="muted">{t.endInstead}</p>
          </>
        )}
      </form>
    </Modal>
  );
}
