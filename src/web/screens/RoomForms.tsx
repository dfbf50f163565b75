import { type FormEvent, useId, useState } from 'react';
import {
  NAME_MAX_LENGTH,
  ROOM_CODE_LENGTH,
  STARTING_CHIPS_DEFAULT_DOLLARS,
  STARTING_CHIPS_MAX_DOLLARS,
  STARTING_CHIPS_MIN_DOLLARS,
} from '../../shared/limits';
import type { Ack } from '../../shared/protocol';
import {
  centsOrNull,
  Field,
  FormSubmit,
  isDollarTyping,
  orFailed,
  useAction,
  withDecimalPoint,
} from '../components/forms';
import { Modal } from '../components/Modal';
import { chipsErrors, createRoom as createTexts, joinRoom as joinTexts, notices } from '../texts';

/**
 * A name cut to NAME_MAX_LENGTH UTF-16 units (the engine's count), never through an emoji: the half of
 * one left at the 20th unit showed as "�" (the engine now drops it too).
 */
const upToMax = (text: string) => {
  const cut = text.slice(0, NAME_MAX_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
};

/** A code's letters and digits, upper case: what normaliseRoomCode keeps of typing. */
const cleanCode = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * Upper-cases a typed or pasted room code and keeps only its letters and digits, at most 5. A pasted
 * join link (`…/?join=CODE`) gives its code, and a pasted message ("Room code: F2EZ8") its word of 5
 * (one with a digit first, the last such). The field has no maxLength: the browser would cut a pasted
 * " F2EZ8" or "F2E-Z8" to 5 characters before this drops the space or the dash.
 */
export function normaliseRoomCode(text: string): string {
  const link = /[?&]join=([A-Za-z0-9]+)/.exec(text);
  const source = (link?.[1] ?? text).toUpperCase();
  const letters = cleanCode(source);
  if (letters.length > ROOM_CODE_LENGTH) {
    const words = source.split(/[^A-Z0-9]+/).filter((w) => w.length === ROOM_CODE_LENGTH);
    const withDigit = words.filter((w) => /\d/.test(w));
    // Not .at(-1): older than the browser floor (browser-support.test.ts).
    const word = withDigit[withDigit.length - 1] ?? words[words.length - 1];
    if (word !== undefined) return word;
  }
  return letters.slice(0, ROOM_CODE_LENGTH);
}

/**
 * Puts the cleaned code in the field before React does, with the caret after the same characters it
 * was after. React would set the value itself and leave the caret at the end, so a lower-case letter
 * typed in the middle of a code sent the next keystroke to the end (the session-31 browser check).
 * A pasted link or message gives its code with the caret at the end, as before.
 */
function showCodeKeepingCaret(input: HTMLInputElement, next: string) {
  const typed = input.value;
  const caret = input.selectionStart;
  if (typed === next) return;
  input.value = next;
  if (caret === null || cleanCode(typed).slice(0, ROOM_CODE_LENGTH) !== next) return;
  const at = Math.min(next.length, cleanCode(typed.slice(0, caret)).length);
  input.setSelectionRange(at, at);
}

/** Longer than any amount the field takes ("10,000.00" is 9): what a paste may put in it. */
const CHIPS_TYPED_MAX = 16;

/**
 * Starting Chips: what is typed stays as typed, and what is wrong with it is said under the field
 * (the spec's conversion and starting-chips errors) with Create/Join disabled. It used to drop a
 * keystroke that did not fit unseen, so "12,50" typed on a phone whose decimal key is a comma became
 * 1250 dollars (the session-31 audit).
 */
function useChipsField() {
  const [chips, setChips] = useState(String(STARTING_CHIPS_DEFAULT_DOLLARS));
  const typing = isDollarTyping(chips);
  // The amount as parseCurrency reads it, its point still to come ("12.") or its 0 left out (".5").
  const amount = withDecimalPoint(chips).replace(/[$\s]/g, '').replace(/\.$/, '');
  const cents = typing && amount !== '' ? centsOrNull(amount.startsWith('.') ? `0${amount}` : amount) : null;
  const problem = !typing
    ? chipsErrors.format
    : amount === ''
      ? null
      : cents === null // digits past what can be counted in cents
        ? chipsErrors.tooHigh
        : cents < STARTING_CHIPS_MIN_DOLLARS * 100
          ? chipsErrors.tooLow
          : cents > STARTING_CHIPS_MAX_DOLLARS * 100
            ? chipsErrors.tooHigh
            : null;
  const valid = cents !== null && problem === null;
  const onChange = (text: string) => setChips(text.slice(0, CHIPS_TYPED_MAX));
  return { chips, cents, valid, problem, onChange };
}

/** The fields both forms ask for: Your Name (max 20) and Starting Chips (dollars, 2 decimals). */
function PlayerFields({
  texts,
  name,
  setName,
  chips,
  autoFocusName,
  nameErrorId = null,
}: {
  texts: { name: string; namePlaceholder: string; chips: string; chipsHint: string };
  name: string;
  setName: (name: string) => void;
  chips: ReturnType<typeof useChipsField>;
  autoFocusName: boolean;
  /** The form's error line's id while it is about the name (Field's errorId). */
  nameErrorId?: string | null;
}) {
  return (
    <>
      <Field
        label={texts.name}
        errorId={nameErrorId}
        data-autofocus={autoFocusName ? true : undefined}
        value={name}
        maxLength={NAME_MAX_LENGTH}
        autoComplete="nickname"
        // A name, not a word: capitalised as one, not replaced by an autocorrecting keyboard that does
        // not know it, nor underlined as a misspelling.
        autoCapitalize="words"
        autoCorrect="off"
        spellCheck={false}
        placeholder={texts.namePlaceholder}
        onChange={(e) => setName(upToMax(e.target.value))}
      />
      <Field
        label={texts.chips}
        hint={texts.chipsHint}
        problem={chips.problem}
        value={chips.chips}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => chips.onChange(e.target.value)}
      />
    </>
  );
}

interface CreateProps {
  onClose: () => void;
  onCreate: (name: string, startingChips: number) => Promise<Ack<unknown>>;
}

/** "Start a Game": name and starting chips, then "Create Room". */
export function CreateRoomModal({ onClose, onCreate }: CreateProps) {
  const t = createTexts;
  const [name, setName] = useState('');
  const chips = useChipsField();
  const { pending, error, setError, run } = useAction();
  const errorId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending || !chips.valid || chips.cents === null) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t.errorName);
      return;
    }
    void run(() => orFailed(onCreate(trimmed, chips.cents as number), t.errorFailed), t.errorFailed);
  };

  return (
    <Modal title={t.title} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        <PlayerFields
          texts={t}
          name={name}
          setName={setName}
          chips={chips}
          autoFocusName
          nameErrorId={error === t.errorName && !name.trim() ? errorId : null}
        />
        <FormSubmit
          error={error}
          errorId={errorId}
          pending={pending}
          disabled={!chips.valid}
          label={t.submit}
          pendingLabel={t.loading}
        />
      </form>
    </Modal>
  );
}

interface JoinProps {
  initialCode?: string;
  onClose: () => void;
  onJoin: (roomCode: string, name: string, startingChips: number) => Promise<Ack<unknown>>;
}

/** "Join a Game": room code (upper case, 5 characters), name and starting chips, then "Join Room". */
export function JoinRoomModal({ initialCode = '', onClose, onJoin }: JoinProps) {
  const t = joinTexts;
  const [code, setCode] = useState(() => normaliseRoomCode(initialCode));
  const [name, setName] = useState('');
  const chips = useChipsField();
  const { pending, error, setError, run } = useAction();
  const errorId = useId();
  // The error line is about the code while it is missing or short, and about the name while it is empty.
  const codeWrong =
    (error === t.errorMissing && !code) || (error === notices.not_found && code.length !== ROOM_CODE_LENGTH);
  const nameWrong = error === t.errorMissing && !name.trim();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending || !chips.valid || chips.cents === null) return;
    const trimmed = name.trim();
    if (!code || !trimmed) {
      setError(t.errorMissing);
      return;
    }
    if (code.length !== ROOM_CODE_LENGTH) {
      setError(notices.not_found);
      return;
    }
    void run(() => orFailed(onJoin(code, trimmed, chips.cents as number), t.errorFailed), t.errorFailed);
  };

  return (
    <Modal title={t.title} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        <Field
          label={t.code}
          errorId={codeWrong ? errorId : null}
          className="code-input"
          data-autofocus={code ? undefined : true}
          value={code}
          autoCapitalize="characters"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          placeholder={t.codePlaceholder}
          onChange={(e) => {
            const next = normaliseRoomCode(e.target.value);
            showCodeKeepingCaret(e.target, next);
            setCode(next);
          }}
        />
        <PlayerFields
          texts={t}
          name={name}
          setName={setName}
          chips={chips}
          autoFocusName={code !== ''}
          nameErrorId={nameWrong ? errorId : null}
        />
        <FormSubmit
          error={error}
          errorId={errorId}
          pending={pending}
          disabled={!chips.valid}
          label={t.submit}
          pendingLabel={t.loading}
        />
      </form>
    </Modal>
  );
}
