import { formatCents } from '../../engine';
import type { Player } from '../../engine/types';
import { ConfirmModal } from '../components/ConfirmModal';
import type { SendCommand } from '../net/use-room';
import { lobby as t, table } from '../room-texts';

/** "Remove this player from the game?" for `player`, then the host's remove command (lobby and table). */
export function ConfirmRemove({
  player,
  send,
  onClose,
  sitOut,
  stake = null,
}: {
  player: Player;
  /** At the table: what removing does to the player's chips in the hand (engine stakeOnLeaving). */
  stake?: { bet: number; stays: number } | null;
  send: SendCommand;
  onClose: () => void;
  /**
   * At the table (engine `sitOut`): 'offer' is "Sit Out Instead" for a player who is only away for a
   * while; 'bringBack' is "Bring Back Instead" for one sitting out, whose phone may be what is away
   * ('bringBackInHand': one who sat out during the hand they are still in).
   */
  sitOut?: 'offer' | 'bringBack' | 'bringBackInHand';
}) {
  const away = sitOut === undefined ? null : sitOut === 'offer';
  const inPot = stake === null ? null : table.removeStake(formatCents(stake.stays), formatCents(stake.bet));
  const more = sitOut === 'offer' ? [inPot, table.removeOrSitOut] : [inPot];
  const text =
    sitOut === 'offer' || sitOut === undefined
      ? more.some((part) => part !== null)
        ? [`${player.name}.`, ...more]
        : [player.name]
      : [table.removeOrBringBack(player.name, sitOut === 'bringBackInHand'), inPot];
  return (
    <ConfirmModal
      title={t.removeTitle}
      text={text.filter((part) => part !== null).join(' ')}
      confirmLabel={t.removeConfirm}
      danger
      onConfirm={() => send({ type: 'remove', playerId: player.id })}
      alternative={
        away === null
          ? undefined
          : {
              label: away ? table.sitOutInstead : table.bringBackInstead,
              onConfirm: () => send({ type: 'sitOut', away, playerId: player.id }),
            }
      }
      onClose={onClose}
    />
  );
}
