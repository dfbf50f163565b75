import { type FormEvent, useState } from 'react';
import {
  NAME_MAX_LENGTH,
  ROOM_CODE_LENGTH,
  STARTING_CHIPS_DEFAULT_DOLLARS,
  STARTING_CHIPS_MAX_DOLLARS,
  STARTING_CHIPS_MIN_DOLLARS,
} from '../../shared/limits';
import type { Ack } from '../../shared/protocol';
import { acceptDollarTyping, centsOrNull, Field, FormSubmit, orFailed, useAction } from '../components/forms';
import { Modal } from '../components/Modal';
import { createRoom as createTexts, joinRoom as joinTexts, notices } from '../texts';

/** Upper-cases a typed room code and keeps only its letters and digits, at most 5. */
export function normaliseRoomCode(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, ROOM_CODE_LENGTH);
}

function useChipsField() {
  const [chips, setChips] = useState(String(STARTING_CHIPS_DEFAULT_DOLLARS));
  const cents = centsOrNull(chips);
  const valid = cents !== null && cents >= STARTING_CHIPS_MIN_DOLLARS * 100;
  const onChange = (text: string) => {
    if (acceptDollarTyping(text, STARTING_CHIPS_MAX_DOLLARS)) setChips(text);
  };
  return { chips, cents, valid, onChange };
}

/** The fields both forms ask for: Your Name (max 20) and Starting Chips (dollars, 2 decimals). */
function PlayerFields({
  texts,
  name,
  setName,
  chips,
  autoFocusName,
}: {
  texts: { name: string; namePlaceholder: string; chips: string; chipsHint: string };
  name: string;
  setName: (name: string) => void;
  chips: ReturnType<typeof useChipsField>;
  autoFocusName: boolean;
}) {
  return (
    <>
      <Field
        label={texts.name}
        data-autofocus={autoFocusName ? true : undefined}
        value={name}
        maxLength={NAME_MAX_LENGTH}
        autoComplete="nickname"
        placeholder={texts.namePlaceholder}
        onChange={(e) => setName(e.target.value.slice(0, NAME_MAX_LENGTH))}
      />
      <Field
        label={texts.chips}
        hint={texts.chipsHint}
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
        <PlayerFields texts={t} name={name} setName={setName} chips={chips} autoFocusName />
        <FormSubmit
          error={error}
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
          className="code-input"
          data-autofocus={code ? undefined : true}
          value={code}
          maxLength={ROOM_CODE_LENGTH}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          placeholder={t.codePlaceholder}
          onChange={(e) => setCode(normaliseRoomCode(e.target.value))}
        />
        <PlayerFields texts={t} name={name} setName={setName} chips={chips} autoFocusName={code !== ''} />
        <FormSubmit
          error={error}
          pending={pending}
          disabled={!chips.valid}
          label={t.submit}
          pendingLabel={t.loading}
        />
      </form>
    </Modal>
  );
}
