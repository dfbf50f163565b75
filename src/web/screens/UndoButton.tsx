import type { Room, UndoPoint } from '../../engine/types';
import { ConfirmModal } from '../components/ConfirmModal';
import { UndoIcon } from '../components/icons';
import { useTableQuestion } from '../components/table-question';
import { describeCommand } from '../game/log-lines';
import type { SendCommand } from '../net/use-room';
import { undo as t } from '../room-texts';

export interface UndoButtonProps {
  room: Room;
  send: SendCommand;
  className: string;
}

/**
 * The host's Undo (the caller shows it to the host only): the undo arrow, named "Undo", greyed
 * (disabled, "Nothing to undo" as its tooltip) while the room has no undo point, so it keeps its place
 * and Rebuys beside it never moves under the host's thumb; and the question "Undo?" naming what it
 * takes back (describeCommand: the hand-log line of the command's first event, every pot of an award),
 * which sends `{ type: 'undo', seq }`
 * for that point.
 *
 * The question is about the point it named. When the room moves on before it is answered (a player
 * acts, the host's other tab deals or undoes), it closes, as a removal's question closes when the
 * player has gone: a question that changed what it asks under the host's thumb could take back the
 * wrong thing. Once sent it waits for its answer, so a refusal ('The table has moved on since.
 * Nothing was undone.') is read, not lost with the dialog; it closes when the undo shows in the log
 * (an answer lost to 'No connection…' after the server did it).
 */
export function UndoButton({ room, send, className }: UndoButtonProps) {
  const point = room.undo ?? null;
  const { asked, ask, markSent, close } = useTableQuestion<UndoPoint>(
    (q) => point?.seq === q.seq,
    (q) => room.log.some((e) => e.type === 'undone' && e.undoneSeq === q.seq),
  );
  const line = asked ? describeCommand(asked.first, asked.seq, room.log) : null;
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={t.button}
        title={point ? t.button : t.nothing}
        aria-haspopup="dialog"
        disabled={point === null}
        onClick={() => {
          if (point) ask(point);
        }}
      >
        <UndoIcon />
      </button>
      {asked ? (
        <ConfirmModal
          title={t.title}
          text={t.text(line)}
          confirmLabel={t.confirm}
          pendingLabel={t.loading}
          onConfirm={() => {
            markSent();
            return send({ type: 'undo', seq: asked.seq });
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}
