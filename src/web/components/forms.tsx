import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { parseCurrency } from '../../engine';
import { type Ack, SOMETHING_WENT_WRONG } from '../../shared/protocol';
import { common } from '../texts';

/** Dollar text on its way to an amount: digits with at most two decimals, the point or decimals still to come. */
const DOLLAR_TYPING = /^\d*(\.\d{0,2})?$/;

/** A decimal comma: one comma, at most two digits after it, no point (dollar signs and spaces aside). */
const DECIMAL_COMMA = /^\d*,\d{0,2}$/;

/**
 * `text` with a decimal comma read as the point: a phone whose decimal key is a comma (the decimal
 * keypad of a phone set to most European languages has no point) types "2,50" for $2.50, and could
 * type no cents at all while a comma was refused (sessions 31–34). Only a comma that can be nothing
 * else is read so: one, followed by at most two digits, with no point. "1,250" (a thousands separator,
 * or three decimals) and "1,000.50" stay as typed, for the field to refuse.
 */
export function withDecimalPoint(text: string): string {
  return DECIMAL_COMMA.test(text.replace(/[$\s]/g, '')) ? text.replace(',', '.') : text;
}

/**
 * Whether `text` (dollar signs and spaces aside, as parseCurrency reads it, a decimal comma as a point)
 * is an amount or one being typed ("12.", "."): a field says "Invalid currency format…" only when it is
 * neither.
 */
export function isDollarTyping(text: string): boolean {
  return DOLLAR_TYPING.test(withDecimalPoint(text).replace(/[$\s]/g, ''));
}

/** Cents of a dollar text (a decimal comma as a point) through the engine's parseCurrency, or null when it does not parse. */
export function centsOrNull(text: string): number | null {
  try {
    return parseCurrency(withDecimalPoint(text));
  } catch {
    return null;
  }
}

/**
 * Whether the socket is connected, for every action under a room screen (HomeView provides it): a
 * dialog's 'No connection…' goes when the phone is back, as the table's own does, without each
 * dialog being handed the state (the Raise dialog kept it after the phone was back; session 31).
 */
export const OnlineContext = createContext(true);

/**
 * Pending flag and error of one async action (a form submit, a button press). `online` is the
 * socket's state (by default OnlineContext's): a 'No connection…' error goes when the phone is
 * connected again (a resume that finds the room unchanged brings no new snapshot to replace it).
 *
 * `moment`, where given, is what the room was when the action ran (its snapshot version, its next log
 * seq): an error belongs to that moment and is not shown once the room has moved on. Another phone's
 * change that crossed this one (the player to approve left, a ticked winner left) is broadcast before
 * this refusal arrives, and the screen already shows the new room; a refusal of the old one would
 * only puzzle ('Selected player not found' under the next player's row).
 */
export function useAction(onlineProp?: boolean, moment?: number) {
  const contextOnline = useContext(OnlineContext);
  const online = onlineProp ?? contextOnline;
  const [pending, setPending] = useState(false);
  const [shownError, setShownError] = useState<{ message: string | null; at: number | undefined }>({
    message: null,
    at: moment,
  });
  const momentRef = useRef(moment);
  momentRef.current = moment;
  // Errors set by the caller (its own checks before sending) belong to the moment they were set in.
  const setError = useCallback(
    (next: string | null | ((e: string | null) => string | null)) =>
      setShownError((cur) => ({
        message: typeof next === 'function' ? next(cur.message) : next,
        at: typeof next === 'function' ? cur.at : momentRef.current,
      })),
    [],
  );
  const error = moment === undefined || shownError.at === moment ? shownError.message : null;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (online) setError((e) => (e === common.noConnection ? null : e));
  }, [online, setError]);

  /**
   * Runs the action; resolves true when it succeeded and its screen is still there to close. Server
   * errors are shown as they are. A dialog the broadcast closed before its answer came (the server
   * broadcasts, then answers: the award's dialog closes once the pot is paid) resolves false: its
   * `onClose` would close whatever the player opened since (the next Rebuy, closing under the thumb).
   */
  const run = useCallback(
    async (action: () => Promise<Ack<unknown>>, fallback?: string): Promise<boolean> => {
      setPending(true);
      setError(null);
      const at = momentRef.current;
      let res: Ack<unknown>;
      try {
        res = await action();
      } catch {
        res = { ok: false, error: fallback ?? '' };
      }
      if (!mounted.current) return false;
      setPending(false);
      if (!res.ok) setShownError({ message: res.error || fallback || null, at });
      return res.ok;
    },
    [setError],
  );

  return { pending, error, setError, run };
}

/**
 * After how long a request still waiting for its answer says so. A tap on a good connection is
 * answered in well under a second; on slow 3G (~400 ms round trip) in about one; on a bad link
 * (1.5–3 s) in 3–6 s, and on a link that stalls, only when the stall ends (8–20 s). A disabled, greyed
 * button alone reads as "nothing happened" after a couple of seconds, and a player at a loud table
 * taps again, or taps something else. 2 s is past every answer on a usable connection, so a good
 * connection never sees the line, and early enough that nobody has started tapping around yet.
 */
export const SLOW_AFTER_MS = 2_000;

/** True once `pending` has lasted SLOW_AFTER_MS (false again as soon as it ends). */
function useSlow(pending: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!pending) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  return pending && slow;
}

/** "Slow connection, still sending. No need to tap again." while a request waits long (useSlow). */
export function SlowLine({ pending }: { pending: boolean }) {
  const slow = useSlow(pending);
  // There (empty) from the tap on, so screen readers announce the text when it fills the live region.
  if (!pending) return null;
  return (
    <p className={slow ? 'muted center' : 'sr-only'} role="status">
      {slow ? common.slowConnection : null}
    </p>
  );
}

/**
 * An action's answer with 'Something went wrong' (the server could not carry it out: a store error)
 * read as the screen's own failure text ('Failed to create room. Please try again.', 'Failed to start
 * game…'); refusals that name a reason, and 'No connection…', say more and stay as they are.
 */
export async function orFailed<T>(request: Promise<Ack<T>>, failed: string): Promise<Ack<T>> {
  const res = await request;
  return !res.ok && res.error === SOMETHING_WENT_WRONG ? { ok: false, error: failed } : res;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  /**
   * What is wrong with the value as typed, shown in the hint's place (and read out) while it is so:
   * the field keeps what was typed rather than dropping a keystroke unseen.
   */
  problem?: string | null;
  /**
   * The id of the form's error line (FormError) while what it says is about this field ("Please enter
   * your name"): the field is then marked invalid and described by it, so a screen reader back on the
   * field hears what is wrong (session 36's accessibility audit).
   */
  errorId?: string | null;
}

/** A labelled input: the label is visible and tied to the input; a hint is tied by aria-describedby. */
export function Field({ label, hint, problem = null, errorId = null, ...input }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const described = problem ?? hint;
  const describedBy = [described ? hintId : null, errorId].filter((d) => d !== null).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-describedby={describedBy || undefined}
        aria-invalid={problem || errorId ? true : undefined}
        {...input}
      />
      {described ? (
        <p className={problem ? 'field-hint field-problem' : 'field-hint'} id={hintId} aria-live="polite">
          {described}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Whether a dialog whose choices are buttons (the raise dialog's presets) should put the caret in its
 * amount field on open: yes with a mouse or a keyboard, not on a touch screen, where a focused field
 * brings up the on-screen keyboard over those buttons and Confirm (a phone: the primary pointer is
 * coarse). Typing is one tap away there.
 */
export function caretFirst(): boolean {
  return !(typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches);
}

/**
 * In a dialog taller than the screen, scrolls it so an error line that just appeared and what follows
 * it (the buttons: its last sibling, in a form or a question) are on screen, the error's top kept in
 * view when both do not fit. At 320×568 the raise dialog's three-line 'No connection…' pushed Confirm
 * 114 px below the screen's bottom edge, out of sight where the tap that failed had been (the
 * session-31 browser check).
 */
function showInDialog(error: HTMLElement) {
  const sheet = error.closest('.modal');
  if (!(sheet instanceof HTMLElement)) return;
  let last: Element = error;
  while (last.nextElementSibling) last = last.nextElementSibling;
  const end = last.getBoundingClientRect().bottom;
  const view = sheet.getBoundingClientRect();
  const padding = Number.parseFloat(getComputedStyle(sheet).paddingBottom) || 0;
  const below = end - (view.bottom - padding);
  const by = Math.min(below, error.getBoundingClientRect().top - view.top);
  if (by > 0) sheet.scrollTop += by;
}

/**
 * An error line, announced when it appears, and brought on screen in a dialog (showInDialog); `id` lets
 * the field it is about point at it (Field's errorId).
 */
export function FormError({ message, id }: { message: string | null; id?: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (message && ref.current) showInDialog(ref.current);
  }, [message]);
  return message ? (
    <p ref={ref} id={id} className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** The end of a dialog's form: its error line and the submit button, which shows `pendingLabel` while sending. */
export function FormSubmit({
  error,
  pending,
  disabled = false,
  label,
  pendingLabel,
  large = false,
  errorId,
}: {
  error: string | null;
  /** The error line's id (FormError). */
  errorId?: string;
  pending: boolean;
  disabled?: boolean;
  label: string;
  pendingLabel: string;
  large?: boolean;
}) {
  return (
    <>
      <FormError message={error} id={errorId} />
      <button
        type="submit"
        className={large ? 'button primary block large' : 'button primary block'}
        disabled={pending || disabled}
      >
        {pending ? pendingLabel : label}
      </button>
      <SlowLine pending={pending} />
    </>
  );
}
