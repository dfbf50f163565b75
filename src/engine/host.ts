/**
 * makeHost (the engine's own; the spec has no such power): the host hands the host role to a player at
 * the table. At a real poker night the host is often not the last to go home, and a host whose phone
 * is about to go flat has no other way on: under the spec the host leaving ends the game for everyone.
 * After the handover the old host is a player like the others, who may leave without ending anything,
 * and the new host has every host power (their phone shows the host's controls from the next snapshot).
 *
 * - Only the host, only while the room is open (lobby or playing), only to a player at the table
 *   (approved: a stranger waiting for approval cannot be made host), never to themself.
 * - It changes nothing in the hand or the chips. It clears the undo point (undo.ts): an undo is the
 *   host taking back their own table's last move, and the new host starts with none.
 *
 * claimHost: a player at the table takes the host role when the host is gone. A host whose phone went
 * flat leaves a table nobody can deal, award or end: the frozen table. The engine does not know who is
 * connected; what it knows is time: any player at the table may take over once the table has gone
 * `HOST_AWAY_MS` without a single accepted command (the room's `lastActivity`, stamped by the server's
 * clock), during play only. The phones offer it only when the host's phone is away too (Table.tsx), so
 * a pause for pizza with the host at the table offers nothing; if a host present were taken over, the
 * log says so and the new host can hand the role back.
 */
import { type Draft, edit, emit, playerById } from './draft';
import type { Outcome } from './lobby';
import { hostTakenBy, MSG } from './messages';
import { tableActivity } from './room';

/** How long the table must go without a command before a player may take over as host (3 minutes). */
export const HOST_AWAY_MS = 180_000;

/**
 * How far behind a room's stamps the clock judging a command may be and still be taken for one that
 * agrees with them: several server processes keep their clocks within a second of each other (NTP; the
 * server's README), so a table active a moment ago on one process reads a few hundred ms "in the
 * future" on another. Further behind than this, the clock was stepped back (NTP correcting a drift, a
 * resumed VM): a wait that says nothing of how long the table has waited.
 */
export const CLOCK_SKEW_MS = 5_000;

/** makeHost (above): the host (`actorId`) hands the host role to `playerId`, a player at the table. */
export function makeHost(d: Draft, actorId: string, playerId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostMakeHost;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const next = playerById(d.players, playerId);
  if (next === undefined) return MSG.playerNotFound;
  if (playerId === actorId) return MSG.alreadyHost;
  if (!next.isApproved) return MSG.makeHostNotSeated;
  handOver(d, actorId, playerId, false);
  return null;
}

/**
 * How long the player to act, phone connected, keeps the turn before the host may check or fold for
 * them (actFor; the host's phone offers it from then on).
 */
export const ACT_FOR_AFTER_MS = 30_000;

/**
 * claimHost (above): `actorId`, a player at the table, takes the host role after HOST_AWAY_MS idle,
 * from a host whose phone is away: not while the server sees it connected (`online`, the server's
 * presence; the session-33 security audit: it was checked on the phones only, and a player took the
 * role from a host sitting at the table after three quiet minutes, then removed them).
 */
export function claimHost(d: Draft, actorId: string, online?: readonly string[]): Outcome {
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status !== 'PLAYING') return MSG.claimHostNotPlaying;
  const me = playerById(d.players, actorId);
  if (me === undefined || !me.isApproved) return MSG.notInGame;
  if (actorId === d.room.hostId) return MSG.alreadyHost;
  // A wait further below zero than CLOCK_SKEW_MS is the server's clock stepped back since the last
  // command (NTP, a resumed VM): not a host just seen. Refused, the table would wait the step plus 3
  // minutes for a host whose phone is gone (the host's presence is checked below either way; clock
  // audit, session 37). A little below zero is another process's clock a moment behind the one that
  // stamped a move just made (session 38's review): the table is active.
  const idle = d.now - tableActivity(d.base);
  if (idle >= -CLOCK_SKEW_MS && idle < HOST_AWAY_MS) {
    // Two phones offered the take-over tapped it at once: the second finds the table just active (the
    // first claim), and 'The host can be replaced only after…' would tell them the host was back.
    const claim = claimSinceTable(d);
    return claim ? hostTakenBy(claim) : MSG.hostNotAway;
  }
  if (online?.includes(d.room.hostId)) return MSG.hostStillHere;
  handOver(d, d.room.hostId, actorId, true);
  return null;
}

/**
 * The name of the player whose claim made the current host, when nothing has happened at the table
 * since (a stranger asking to join logs an event but is not the table: tableActivity); else null.
 * A plain loop: Array.prototype.findLast is above the web app's browser floor, and this runs there too.
 */
function claimSinceTable(d: Draft): string | null {
  const since = tableActivity(d.base);
  const log = d.base.log;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.type !== 'hostChanged') continue;
    return e.claimed && e.playerId === d.room.hostId && e.at >= since ? e.name : null;
  }
  return null;
}

/**
 * Moves the host role from `fromId` to `toId` (in the room) and logs it. The host is always in the room
 * while it is open (the host leaving ends the game, and cannot be removed); a stored room that broke
 * that would still get its new host rather than an exception.
 */
function handOver(d: Draft, fromId: string, toId: string, claimed: boolean): void {
  const was = playerById(d.players, fromId) ? edit(d, fromId) : undefined;
  if (was) was.isHost = false;
  const next = edit(d, toId);
  next.isHost = true;
  d.room.hostId = toId;
  emit(d, {
    type: 'hostChanged',
    playerId: toId,
    name: next.name,
    fromId,
    fromName: was?.name ?? '',
    ...(claimed ? { claimed: true as const } : {}),
  });
}
