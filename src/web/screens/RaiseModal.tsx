import { type FormEvent, useId, useState } from 'react';
import { facingOf, formatCents, raiseError, raiseLimits } from '../../engine';
import type { Room } from '../../engine/types';
import { caretFirst, centsOrNull, Field, FormError, SlowLine, useAction } from '../components/forms';
import { Modal } from '../components/Modal';
import { canRaise } from '../game/raise';
import type { SendCommand } from '../net/use-room';
import { raise as t } from '../room-texts';
import { common } from '../texts';

const toDollars = (cents: number) => (cents / 100).toFixed(2);

interface Props {
  room: Room;
  playerId: string;
  send: SendCommand;
  onClose: () => void;
}

/**
 * The raise dialog. Every number comes from the engine's raiseLimits: current bet, stack, min and
 * max total bet, the Pot preset and whether the max is capped by the opponents' stacks.
 */
export function RaiseModal({ room, playerId, send, onClose }: Props) {
  const limits = raiseLimits(room, playerId);
  const [text, setText] = useState(() => (limits ? toDollars(Math.min(limits.min, limits.max)) : ''));
  const { pending, error, setError, run } = useAction();
  const errorId = useId();

  if (!limits) return null;
  // The engine's own check, shown before sending (null amount: the text did not parse).
  const problem = (amount: number | null) => raiseError(limits, amount);
  const possible = canRaise(limits);
  // The error line is about the amount field while it says what the engine's check says of the text.
  const amountWrong = error !== null && error === problem(centsOrNull(text));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const amount = centsOrNull(text);
    const message = problem(amount);
    if (message !== null || amount === null) return setError(message);
    // With what the dialog shows its player facing: refused if the table moved on meanwhile (Facing).
    const facing = facingOf(room, playerId);
    if (await run(() => send({ type: 'act', action: 'RAISE', amount, facing }))) onClose();
  };

  const presets = [
    { label: t.minRaise, amount: limits.min },
    { label: t.pot, amount: limits.pot },
    { label: t.allIn, amount: limits.max },
  ];

  return (
    <Modal title={t.title} onClose={onClose} className="raise-modal">
      <form className="form raise-form" onSubmit={submit} noValidate>
        <dl className="facts">
          <div>
            <dt>{t.currentBet}</dt>
            <dd>{formatCents(limits.currentBet)}</dd>
          </div>
          <div>
            <dt>{t.stack}</dt>
            <dd>{formatCents(limits.stack)}</dd>
          </div>
        </dl>
        <Field
          label={t.amount}
          errorId={amountWrong ? errorId : null}
          className="amount-input"
          inputMode="decimal"
          autoComplete="off"
          data-autofocus={caretFirst() ? true : undefined}
          value={text}
          hint={
            <>
              {t.min} {formatCents(limits.min)} · {t.max} {formatCents(limits.max)}
              {limits.limitedByOpponents ? (
                <>
                  <br />
                  {t.limited}
                </>
              ) : null}
            </>
          }
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
        <fieldset className="presets">
          <legend className="sr-only">{t.title}</legend>
          {presets.map((p) => (
            <button
              key={p.label}
              type="button"
              className="button secondary"
              disabled={problem(p.amount) !== null}
              onClick={() => {
                setText(toDollars(p.amount));
                setError(null);
              }}
            >
              <span>{p.label}</span>
              <span className="preset-amount">{formatCents(p.amount)}</span>
            </button>
          ))}
        </fieldset>
        {!possible ? (
          <p className="muted">{t.cannotRaise}</p>
        ) : limits.limitedByOpponents && limits.max < limits.min ? (
          <p className="muted">{t.capped}</p>
        ) : null}
        <FormError message={error} id={errorId} />
        {/* Above the buttons, which stay at the sheet's bottom edge (styles.css, .raise-form). */}
        <SlowLine pending={pending} />
        <div className="button-row">
          <button type="button" className="button secondary" onClick={onClose}>
            {common.cancel}
          </button>
          <button type="submit" className="button primary" disabled={pending || !possible}>
            {pending ? t.loading : t.confirm}
          </button>
        </div>
      </form>
    </Modal>
  );
}
