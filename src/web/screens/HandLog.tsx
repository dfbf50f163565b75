import { takenBack } from '../../engine';
import type { Room } from '../../engine/types';
import { describeEvent } from '../game/log-lines';
import { table as t } from '../room-texts';

/** A dollar amount as formatCents writes it: "$1,234.56", "-$5.00". */
const AMOUNT = /(-?\$[0-9,]+\.[0-9]{2})/;

/**
 * A line of the log with each amount in a span that never breaks inside: with the text at 200% on a
 * 320 px phone, "Pot $19,999.98 to …" broke after "$19," (the layout stress review of session 35), and
 * "$19," over "999.98" reads as two numbers. The words around an amount wrap instead.
 */
function withAmounts(text: string) {
  // split with one capture group: the amounts are the odd parts.
  return text.split(AMOUNT).map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
      <span key={i} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/** The hand log under the table: the room's logged events as lines, newest first. */
export function HandLog({ room }: { room: Room }) {
  // A line the host's undo took back stays, struck through: the log is the night's record.
  const undone = takenBack(room.log);
  const lines = room.log
    .map((e) => ({ seq: e.seq, text: describeEvent(e, room.log), back: undone(e) }))
    .filter((l): l is { seq: number; text: string; back: boolean } => l.text !== null)
    .reverse();
  return (
    <details className="hand-log">
      <summary>
        {t.log}
        <span className="log-arrow" aria-hidden="true" />
      </summary>
      {lines.length === 0 ? (
        <p className="muted">{t.logEmpty}</p>
      ) : (
        // Focusable: the list scrolls (16rem at most), and a keyboard scrolls only what has focus
        // (axe's scrollable-region-focusable, e2e/a11y.test.ts).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region, for the keyboard
        <ol reversed tabIndex={0} aria-label={t.log}>
          {lines.map((l) =>
            l.back ? (
              <li key={l.seq} className="taken-back">
                {withAmounts(l.text)}
                <span className="sr-only"> {t.takenBack}</span>
              </li>
            ) : (
              <li key={l.seq}>{withAmounts(l.text)}</li>
            ),
          )}
        </ol>
      )}
    </details>
  );
}
