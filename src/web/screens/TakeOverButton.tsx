import { HOST_AWAY_MS, tableActivity } from '../../engine';
import type { Room } from '../../engine/types';
import type { RoomSnapshot } from '../../shared/protocol';
import { ConfirmModal } from '../components/ConfirmModal';
import { useTableQuestion } from '../components/table-question';
import { useWaited } from '../components/use-waited';
import type { SendCommand } from '../net/use-room';
import { takeOver as t } from '../room-texts';

export interface TakeOverButtonProps {
  room: Room;
  presence: RoomSnapshot['presence'];
  me: string | null;
  send: SendCommand;
  /** The loaded snapshot's RoomSnapshot.idle: how long the table had waited when this phone loaded it. */
  idle?: number | undefined;
}

/**
 * "Take Over as Host" for a player at the table (the caller shows it to players, not the host), when
 * the host's phone is away and the table has waited `HOST_AWAY_MS` with nothing happening: a host
 * whose phone went flat would otherwise leave a table nobody can deal, award or end. The engine's
 * `claimHost` holds the rule (3 minutes without a command, by the server's clock); this phone counts
 * from when it saw the table stop and the host's phone go, so a pause for pizza with the host at the
 * table offers nothing, and neither does a host whose phone only blinked. It asks first.
 *
 * Like the table's other questions, it is about the moment it was asked: when anything happens at the
 * table before it is answered (the host is back and deals), it closes. Once sent it waits for its
 * answer, so a refusal is read; it closes when the role shows as taken in the log.
 */
export function TakeOverButton({ room, presence, me, send, idle }: TakeOverButtonProps) {
  const host = room.players[room.hostId];
  const mine = me !== null ? room.players[me] : undefined;
  const stuck =
    room.status === 'PLAYING' &&
    mine !== undefined &&
    mine.isApproved &&
    me !== room.hostId &&
    host !== undefined &&
    presence[room.hostId] !== true;
  // The table's last move, as the engine counts it (tableActivity: a stranger asking to join is none).
  const moment = stuck ? `${room.hostId}:${tableActivity(room)}` : null;
  const waited = useWaited(moment, HOST_AWAY_MS, idle);
  const { asked, ask, markSent, close } = useTableQuestion<{ moment: string; from: number; host: string }>(
    (q) => q.moment === moment,
    (q) => room.log.some((e) => e.type === 'hostChanged' && e.seq >= q.from),
  );
  return (
    <>
      {waited && moment !== null && host ? (
        <button
          type="button"
          className="button secondary block"
          aria-haspopup="dialog"
          onClick={() => ask({ moment, from: room.nextEventSeq, host: host.name })}
        >
          {t.button}
        </button>
      ) : null}
      {asked ? (
        <ConfirmModal
          title={t.title}
          text={t.text(asked.host)}
          confirmLabel={t.confirm}
          pendingLabel={t.loading}
          onConfirm={() => {
            markSent();
            return send({ type: 'claimHost' });
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}
