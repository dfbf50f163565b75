/**
 * The lobby: joining, approval and settings. (Removal and leaving live in departure.ts because
 * they also happen mid-hand.)
 */
import { addPlayer, type Draft, edit, emit, playerById } from './draft';
import { MSG } from './messages';
import { chipsInRoom, cleanName, entryError, nameKey, newPlayer, nextJoinedAt } from './room';
import type { Player } from './types';

/** Result of a command handler: null when applied, else the error to refuse it with. */
export type Outcome = string | null;

/** Marker a handler returns when the command is accepted but changes nothing (idempotent repeat). */
export const UNCHANGED = Symbol('unchanged');

/**
 * join: the actor asks for a seat. Joining again with the same user id is an idempotent reconnect
 * (UNCHANGED). Allowed in the lobby and during play (the player waits for approval and sits out
 * the hand in progress).
 */
export function join(
  d: Draft,
  actorId: string,
  name: string,
  startingChips: number,
): Outcome | typeof UNCHANGED {
  if (playerById(d.players, actorId) !== undefined) return UNCHANGED;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const error = entryError(name, startingChips);
  if (error !== null) return error;
  // The room being full is said before the name being taken (SPEC section 5's order).
  if (Object.keys(d.players).length >= d.room.settings.maxPlayers) return MSG.roomFull;
  // Every sum of the room's chips must stay an exact integer (as for a rebuy): no room for more chips.
  if (startingChips > Number.MAX_SAFE_INTEGER - chipsInRoom(d)) return MSG.roomFull;
  const key = nameKey(name);
  for (const id in d.players) if (nameKey((d.players[id] as Player).name) === key) return MSG.nameTaken;
  const kept = cleanName(name);
  addPlayer(
    d,
    newPlayer({ id: actorId, name: kept, isHost: false, startingChips, joinedAt: nextJoinedAt(d) }),
  );
  emit(d, { type: 'playerJoined', playerId: actorId, name: kept, startingChips });
  return null;
}

/**
 * approve (host): a pending player becomes active. Mid-hand they sit out (isActive false) until
 * the next hand starts. Approving an approved player again changes nothing.
 */
export function approve(d: Draft, actorId: string, playerId: string): Outcome | typeof UNCHANGED {
  if (actorId !== d.room.hostId) return MSG.onlyHostApprove;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const target = playerById(d.players, playerId);
  if (target === undefined) return MSG.playerNotFound;
  if (target.isApproved) return UNCHANGED;
  const p = edit(d, playerId);
  p.isApproved = true;
  p.status = 'active';
  p.isActive = false;
  d.seatCache = null;
  emit(d, { type: 'playerApproved', playerId, name: p.name });
  return null;
}

/**
 * updateSettings (host): new blinds, positive whole cents, small blind not above the big blind.
 * During a game they apply from the next hand (the hand in progress keeps gameState.blinds).
 */
export function updateSettings(d: Draft, actorId: string, smallBlind: number, bigBlind: number): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostSettings;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (!isPositiveCents(smallBlind) || !isPositiveCents(bigBlind)) return MSG.blindsRequired;
  if (smallBlind > bigBlind) return MSG.smallBlindAboveBig;
  d.room.settings = { ...d.room.settings, smallBlind, bigBlind };
  emit(d, { type: 'settingsUpdated', smallBlind, bigBlind });
  return null;
}

/** A positive, whole, safe number of cents. */
export function isPositiveCents(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}
