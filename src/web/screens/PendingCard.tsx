import { useEffect, useId, useRef } from 'react';
import { formatCents } from '../../engine';
import type { Player } from '../../engine/types';
import type { RoomSnapshot } from '../../shared/protocol';
import { announce } from '../components/announcer';
import { FormError, SlowLine, useAction } from '../components/forms';
import { CheckIcon, CloseIcon } from '../components/icons';
import { Presence } from '../components/Presence';
import { pendingPlayers } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { lobby as t } from '../room-texts';

/**
 * "Waiting for Approval" with its list, first on the host's lobby and above the table's seats: on a
 * phone anything lower is below the fold, and a latecomer stands by the table waiting.
 */
export function PendingCard({
  snapshot,
  send,
  online,
}: {
  snapshot: RoomSnapshot;
  send: SendCommand;
  online: boolean;
}) {
  const titleId = useId();
  const players = pendingPlayers(snapshot.room);
  // Each newcomer said to the host's screen reader once (announcer.ts): the card appears or grows
  // silently, and a blind host never knew someone stood waiting (session 36's accessibility audit).
  // Those already waiting when the screen opened are on it, not news.
  const told = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (told.current === null) {
      told.current = new Set(players.map((p) => p.id));
      return;
    }
    for (const p of players) {
      if (told.current.has(p.id)) continue;
      told.current.add(p.id);
      announce(t.asksToJoin(p.name, formatCents(p.stack)));
    }
  });
  if (players.length === 0) return null;
  return (
    <section className="card pending-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t.waitingApproval}</h2>
      <PendingList
        players={players}
        presence={snapshot.presence}
        send={send}
        online={online}
        version={snapshot.version}
      />
    </section>
  );
}

/** Players waiting for the host: "Wants to join with X chips", approve and deny. */
function PendingList({
  players,
  presence,
  send,
  online = true,
  version,
}: {
  players: Player[];
  presence: Record<string, boolean>;
  send: SendCommand;
  online?: boolean;
  /** The room's snapshot version: a refusal is not shown once the room has moved on (see useAction). */
  version?: number;
}) {
  // One decision at a time: a double tap on Deny would otherwise send a second removal, which the
  // server refuses ('Selected player not found') although the first one worked.
  const { pending, error, run } = useAction(online, version);
  return (
    <>
      <ul className="player-list">
        {players.map((p) => (
          <li key={p.id} className="player-item">
            <Presence online={presence[p.id] ?? false} />
            <span className="player-name">
              {p.name}
              <span className="sub">{t.wantsToJoin(formatCents(p.stack))}</span>
            </span>
            {/* The two go together, beside the name or under it, and apart from each other: a thumb
                meant for one must not land on the other (Deny acts at once). */}
            <span className="pending-actions">
              <button
                type="button"
                className="icon-button approve"
                aria-label={t.approve(p.name)}
                disabled={pending}
                onClick={() => void run(() => send({ type: 'approve', playerId: p.id }))}
              >
                <CheckIcon />
              </button>
              <button
                type="button"
                className="icon-button danger"
                aria-label={t.deny(p.name)}
                disabled={pending}
                onClick={() => void run(() => send({ type: 'remove', playerId: p.id }))}
              >
                <CloseIcon />
              </button>
            </span>
          </li>
        ))}
      </ul>
      <FormError message={error} />
      <SlowLine pending={pending} />
    </>
  );
}
