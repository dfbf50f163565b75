import { type FormEvent, useEffect, useId, useState } from 'react';
import { formatCents } from '../../engine';
import type { Room } from '../../engine/types';
import { MAX_AMOUNT_CENTS } from '../../shared/limits';
import { centsOrNull, Field, FormSubmit, useAction } from '../components/forms';
import { Modal } from '../components/Modal';
import { isolate } from '../game/bidi';
import { approvedPlayers } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { rebuy as t } from '../room-texts';

interface Props {
  room: Room;
  send: SendCommand;
  onClose: () => void;
}

/** "Player Rebuy" (host): add chips to a player's stack and investment. */
export function RebuyModal({ room, send, onClose }: Props) {
  const players = approvedPlayers(room);
  const selectId = useId();
  // A rebuy is nearly always for the one player who just went bust: chosen already when there is
  // exactly one at $0.00 (ours; the spec's select starts at "Choose a player...", still the first
  // option). Two or more, or none, and the host chooses.
  const [playerId, setPlayerId] = useState(() => {
    const bust = players.filter((p) => p.stack === 0);
    return bust.length === 1 ? (bust[0]?.id ?? '') : '';
  });
  const [amount, setAmount] = useState('');
  const { pending, error, setError, run } = useAction();
  const errorId = useId();
  // The last rebuy sent: the room's next log seq at that moment, the player and the amount. A rebuy
  // adds chips every time it is sent, so one whose answer was lost ('No connection…') but that the
  // server carried out must not be sent again: once the room's log shows it, the dialog is done.
  const [sent, setSent] = useState<{ from: number; playerId: string; amount: number } | null>(null);
  const landed =
    sent !== null &&
    room.log.some(
      (e) =>
        e.type === 'rebuy' && e.seq >= sent.from && e.playerId === sent.playerId && e.amount === sent.amount,
    );
  useEffect(() => {
    if (landed) onClose();
  }, [landed, onClose]);

  const cents = centsOrNull(amount);
  // Above the largest amount a command may carry the server would only say 'Invalid request'.
  const amountValid = cents !== null && cents > 0 && cents <= MAX_AMOUNT_CENTS;
  // The error line is about a field while it says what is still wrong with it (Field's errorId).
  const playerWrong = error === t.errorPlayer && !room.players[playerId];
  const amountWrong = error === t.errorAmount && !amountValid;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending || landed) return;
    if (!room.players[playerId]) return setError(t.errorPlayer);
    if (!amountValid || cents === null) return setError(t.errorAmount);
    setSent({ from: room.nextEventSeq, playerId, amount: cents });
    if (await run(() => send({ type: 'rebuy', playerId, amount: cents }))) onClose();
  };

  return (
    <Modal title={t.title} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={selectId}>{t.player}</label>
          <select
            id={selectId}
            value={playerId}
            data-autofocus
            aria-invalid={playerWrong ? true : undefined}
            aria-describedby={playerWrong ? errorId : undefined}
            onChange={(e) => setPlayerId(e.target.value)}
          >
            <option value="">{t.choose}</option>
            {/* With each stack: who is bust, or short, shows in the list itself. */}
            {players.map((p) => (
              <option key={p.id} value={p.id}>
                {t.option(isolate(p.name), formatCents(p.stack))}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={t.amount}
          errorId={amountWrong ? errorId : null}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t.placeholder}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <FormSubmit
          error={error}
          errorId={errorId}
          pending={pending}
          label={t.submit}
          pendingLabel={t.loading}
        />
      </form>
    </Modal>
  );
}
