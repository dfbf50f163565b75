import { ACT_FOR_AFTER_MS, callAmount, formatCents, tableActivity } from '../../engine';
import type { Room } from '../../engine/types';
import type { RoomSnapshot } from '../../shared/protocol';
import { ConfirmModal } from '../components/ConfirmModal';
import { useTableQuestion } from '../components/table-question';
import { useWaited } from '../components/use-waited';
import type { SendCommand } from '../net/use-room';
import { actFor as t } from '../room-texts';

export interface ActForButtonProps {
  room: Room;
  presence: RoomSnapshot['presence'];
  me: string | null;
  send: SendCommand;
  /** The loaded snapshot's RoomSnapshot.idle: how long the table had waited when this phone loaded it. */
  idle?: number | undefined;
}

interface Asked {
  /** The moment it was asked about: whose turn, at which point of the log. */
  moment: string;
  /** The log's next seq when asked: the host's move, once made, is logged from there on. */
  from: number;
  playerId: string;
  name: string;
  action: 'CHECK' | 'FOLD';
  owes: number;
}

/**
 * The host's "Check for Bob" / "Fold for Bob" (the caller shows it to the host only), for the player to
 * act who is away from the table: a check when it is free, a fold when there is a bet to call, never
 * chips put in for them (the engine's `actFor`). Offered when that player's phone is not connected, or
 * once their turn has waited the engine's `ACT_FOR_AFTER_MS` (a phone in a pocket can stay connected for minutes), as
 * the server allows it (a player sitting out with a connected phone waits too, since session 33: the
 * host can sit anyone out, and sitting out then folding at once got round the wait): not
 * on every turn, where it would only be a button for the host to hit by mistake. It asks first, names
 * the player and what they owe, and says it can be undone.
 *
 * Like the undo's question, it is about the moment it was asked: when the table moves on before it is
 * answered (the player came back and acted), it closes. Once sent it waits for its answer, so a refusal
 * ('The table has moved on since. Nothing was done.') is read; it closes when the move shows in the log
 * (an answer lost to 'No connection…' after the server made it).
 */
export function ActForButton({ room, presence, me, send, idle }: ActForButtonProps) {
  const gs = room.gameState;
  const turnId = room.status === 'PLAYING' && gs.stage !== 'SHOWDOWN' ? gs.currentTurnPlayerId : null;
  const player = turnId !== null && turnId !== me ? room.players[turnId] : undefined;
  // The table's last move, as the engine counts it (tableActivity: a stranger asking to join is none).
  const moment = player ? `${player.id}:${tableActivity(room)}` : null;
  const waited = useWaited(moment, ACT_FOR_AFTER_MS, idle);
  const { asked, ask, markSent, close } = useTableQuestion<Asked>(
    (q) => q.moment === moment,
    (q) =>
      room.log.some(
        (e) => e.type === 'playerActed' && e.byHost && e.playerId === q.playerId && e.seq >= q.from,
      ),
  );

  const offered = player !== undefined && moment !== null && (presence[player.id] !== true || waited);
  const owes = player ? callAmount(room, player.id) : 0;
  const action = owes > 0 ? 'FOLD' : 'CHECK';
  return (
    <>
      {offered ? (
        <button
          type="button"
          className="button secondary block"
          aria-haspopup="dialog"
          onClick={() =>
            ask({
              moment,
              from: room.nextEventSeq,
              playerId: player.id,
              name: player.name,
              action,
              owes,
            })
          }
        >
          {action === 'FOLD' ? t.fold(player.name) : t.check(player.name)}
        </button>
      ) : null}
      {asked ? (
        <ConfirmModal
          title={asked.action === 'FOLD' ? t.foldTitle(asked.name) : t.checkTitle(asked.name)}
          text={
            asked.action === 'FOLD'
              ? t.foldText(asked.name, formatCents(asked.owes))
              : t.checkText(asked.name)
          }
          confirmLabel={asked.action === 'FOLD' ? t.fold(asked.name) : t.check(asked.name)}
          pendingLabel={asked.action === 'FOLD' ? t.folding : t.checking}
          danger={asked.action === 'FOLD'}
          onConfirm={() => {
            markSent();
            return send({ type: 'actFor', playerId: asked.playerId, action: asked.action });
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}
