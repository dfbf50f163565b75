import { type FormEvent, useState } from 'react';
import { dollarsToCents } from '../../engine';
import type { Settings } from '../../engine/types';
import { BLIND_MIN_DOLLARS, MAX_AMOUNT_CENTS } from '../../shared/limits';
import { Field, FormSubmit, useAction, withDecimalPoint } from '../components/forms';
import { Modal } from '../components/Modal';
import type { SendCommand } from '../net/use-room';
import { settings as t } from '../room-texts';

const toDollars = (cents: number) => (cents / 100).toFixed(2);

interface Props {
  settings: Settings;
  send: SendCommand;
  onClose: () => void;
  /** A line above the fields (at the table: the new blinds apply from the next hand). */
  note?: string;
  /** The dialog's title: the name of the button that opened it ("Change Blinds" at the table). */
  title?: string;
}

/**
 * A blind as typed, in cents, a decimal comma read as the point (withDecimalPoint). When it is refused,
 * the message names what was typed ("Invalid dollar amount: 1,250"), not the text with its comma turned
 * into a point: a text with a comma is refused by dollarsToCents, so asking again with it throws that.
 */
function blindCents(typed: string): number {
  try {
    return dollarsToCents(withDecimalPoint(typed));
  } catch {
    return dollarsToCents(typed);
  }
}

/** "Game Settings" (host): small and big blind in dollars, from the lobby or the table (TableFoot.tsx). */
export function SettingsModal({ settings, send, onClose, note, title = t.title }: Props) {
  // What the host typed; a field not typed in shows the room's blind as it is now, so blinds saved
  // meanwhile from the host's other tab show here and a Save does not quietly put the old ones back.
  const [typedSmall, setSmall] = useState<string | null>(null);
  const [typedBig, setBig] = useState<string | null>(null);
  const small = typedSmall ?? toDollars(settings.smallBlind);
  const big = typedBig ?? toDollars(settings.bigBlind);
  const { pending, error, setError, run } = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    if (small.trim() === '' || big.trim() === '') {
      setError(t.errorMissing);
      return;
    }
    let smallBlind: number;
    let bigBlind: number;
    try {
      smallBlind = blindCents(small);
      bigBlind = blindCents(big);
    } catch (err) {
      setError(err instanceof Error ? err.message : t.errorMissing);
      return;
    }
    // Above the largest amount a command may carry the server would only say 'Invalid request'.
    const tooLarge = smallBlind > MAX_AMOUNT_CENTS ? small : bigBlind > MAX_AMOUNT_CENTS ? big : null;
    if (tooLarge !== null) return setError(t.errorInvalid(tooLarge.trim()));
    // 0, or less than a cent (0.001 is 0 cents): the engine reads that as no blind and answers
    // 'Please enter both…', which puzzles a host who typed both (the session-31 audit).
    const min = Math.round(BLIND_MIN_DOLLARS * 100);
    if (smallBlind < min || bigBlind < min) return setError(t.errorMinimum);
    if (await run(() => send({ type: 'updateSettings', smallBlind, bigBlind }))) onClose();
  };

  return (
    <Modal title={title} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {note ? <p className="muted">{note}</p> : null}
        {/* Text fields with a decimal keypad, not type="number": a number field drops a comma unseen,
            so "0,5" typed on a phone whose decimal key is a comma saved a $5.00 blind (session 31).
            Here a decimal comma is read as the point ($0.50; withDecimalPoint), and any other comma
            is refused as typed ('Invalid dollar amount: 1,250'). */}
        <Field
          label={t.smallBlind}
          inputMode="decimal"
          autoComplete="off"
          value={small}
          data-autofocus
          onChange={(e) => {
            setSmall(e.target.value);
            setError(null);
          }}
        />
        <Field
          label={t.bigBlind}
          inputMode="decimal"
          autoComplete="off"
          value={big}
          onChange={(e) => {
            setBig(e.target.value);
            setError(null);
          }}
        />
        <FormSubmit error={error} pending={pending} label={t.submit} pendingLabel={t.loading} />
      </form>
    </Modal>
  );
}
