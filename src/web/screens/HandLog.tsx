import { takenBack } from '../../engine';
import type { Room } from '../../engine/types';
import { describeEvent } from '../game/log-lines';
import { table as t } from '../room-texts';

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
      <summary>{t.log}</summary>
      {lines.length === 0 ? (
        <p className="muted">{t.logEmpty}</p>
      ) : (
        <ol reversed>
          {lines.map((l) =>
            l.back ? (
              <li key={l.seq} className="taken-back">
                {l.text}
                <span className="sr-only"> {t.takenBack}</span>
              </li>
            ) : (
              <li key={l.seq}>{l.text}</li>
            ),
          )}
        </ol>
      )}
    </details>
  );
}
