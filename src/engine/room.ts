/**
 * The room: creation, defaults, new players and the seat order.
 */
import { type Draft, playerById } from './draft';
import { MSG } from './messages';
import type { GameState, Player, Room, Settings } from './types';

/** Longest player name, after trimming (SPEC section 9). */
export const NAME_MAX_LENGTH = 20;
/** Smallest buy-in: $1.00 (SPEC section 5). */
export const MIN_STARTING_CHIPS = 100;
/** Largest buy-in: the spec's input maximum of $10,000.00. */
export const MAX_STARTING_CHIPS = 1_000_000;
export { LOG_LIMIT } from './log-limit';

/** The spec's default settings (SPEC section 3). */
function defaultSettings(): Settings {
  return { smallBlind: 100, bigBlind: 200, maxPlayers: 10, enableRebuys: true };
}

/** A fresh game state: lobby, PRE_FLOP, hand 0, no pots, every flag cleared. */
function initialGameState(): GameState {
  return {
    stage: 'PRE_FLOP',
    dealerId: null,
    currentTurnPlayerId: null,
    handNumber: 0,
    pots: [],
    canAdvanceStage: false,
    nextStage: null,
    nextStageName: null,
    stageProgress: 0,
    lastRaiseAmount: 0,
    autoAdvancedReason: null,
    status: 'LOBBY',
    endedAt: null,
    endedBy: null,
    message: null,
    winnerIds: [],
    dealerSeat: null,
    blinds: null,
    departedContributions: {},
  };
}

/**
 * Characters a name is kept without: controls and format characters that show nothing or turn the
 * text around (zero-width space, bidi overrides, BOM…), line and paragraph separators (a name that
 * broke the copied results into lines could write a false "X owes Y" line), the combining grapheme
 * joiner, Khmer's invisible vowels and the blank-looking Hangul fillers and Braille blank (session 33's
 * security audit). The zero-width (non-)joiners stay: Persian and Indic names and emoji sequences need them.
 * And half an emoji (a lone surrogate, `\p{Cs}` under the `u` flag; a whole pair is one character): a
 * 20-character limit counting UTF-16 units cuts an emoji at the 20th in two, and every phone showed "�".
 */
const UNSHOWN =
  /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]|\u034F/gu;

/** Variation selectors: they pick how a character is drawn (an emoji's colour), never another name. */
const VARIATION = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F]/gu;

/** A player's name as it is kept: NFC, without UNSHOWN characters, trimmed. */
export function cleanName(name: string): string {
  return typeof name === 'string' ? name.normalize('NFC').replace(UNSHOWN, '').trim() : '';
}

/**
 * What two names are told apart by (the spec compares them case-insensitively): the clean name
 * without joiners and variation selectors, in compatibility form (a fullwidth 'Ｈ' is 'H', an accent typed apart is the
 * accented letter), lower case. So 'Hana\u200B' or 'Ｈana' cannot sit beside 'Hana'. Letters of
 * other scripts that merely look alike (Cyrillic 'а') are still other names.
 */
export function nameKey(name: string): string {
  return cleanName(name)
    .replace(/[\u200C\u200D]/g, '')
    .replace(VARIATION, '')
    .normalize('NFKC')
    .toLowerCase();
}

/**
 * Checks a name and buy-in for a new player (host or joiner). Returns the spec's error, or null.
 * The name is checked as it will be kept (cleanName); one that shows nothing is no name.
 */
export function entryError(name: string, startingChips: number): string | null {
  const kept = cleanName(name);
  if (kept.length === 0 || nameKey(kept).trim().length === 0) return MSG.nameRequired;
  if (kept.length > NAME_MAX_LENGTH) return MSG.nameTooLong;
  if (!Number.isSafeInteger(startingChips) || startingChips < MIN_STARTING_CHIPS)
    return MSG.startingChipsTooLow;
  if (startingChips > MAX_STARTING_CHIPS) return MSG.startingChipsTooHigh;
  return null;
}

/** A new player record: not yet in any hand, stack and investment equal to the buy-in. */
export function newPlayer(p: {
  id: string;
  name: string;
  isHost: boolean;
  startingChips: number;
  joinedAt: number;
}): Player {
  return {
    id: p.id,
    name: cleanName(p.name),
    isHost: p.isHost,
    isApproved: p.isHost,
    status: p.isHost ? 'active' : 'waiting_approval',
    stack: p.startingChips,
    totalInvestment: p.startingChips,
    role: 'PLAYER',
    joinedAt: p.joinedAt,
    currentRoundBet: 0,
    totalPotContribution: 0,
    hasFolded: false,
    isActive: false,
    isAllIn: false,
    hasActedThisRound: false,
    lastChipUpdate: p.joinedAt,
  };
}

/**
 * Creates a room in the lobby with the host approved and seated. Throws an Error carrying the
 * spec's message ('Please enter your name', 'Name must be 20 characters or less',
 * 'Starting chips must be at least $1.00') when the name or buy-in is invalid.
 */
export function createRoom(p: {
  roomCode: string;
  hostId: string;
  hostName: string;
  startingChips: number;
  now: number;
}): Room {
  const error = entryError(p.hostName, p.startingChips);
  if (error !== null) throw new Error(error);
  const host = newPlayer({
    id: p.hostId,
    name: p.hostName,
    isHost: true,
    startingChips: p.startingChips,
    joinedAt: p.now,
  });
  return {
    roomCode: p.roomCode,
    hostId: p.hostId,
    createdAt: p.now,
    lastActivity: p.now,
    status: 'LOBBY',
    settings: defaultSettings(),
    players: { [p.hostId]: host },
    gameState: initialGameState(),
    ledger: [],
    log: [],
    nextEventSeq: 1,
  };
}

/**
 * The seat order: approved players by joinedAt (clockwise). Cached on the draft; read the
 * current player objects through `d.players[id]`.
 */
export function seatIds(d: Draft): string[] {
  if (d.seatCache !== null) return d.seatCache;
  const ids = seatOrder(d.players).map((p) => p.id);
  d.seatCache = ids;
  return ids;
}

/**
 * Whether `playerId` is in the room (pending or seated). By own key, as the engine reads players
 * (draft.ts playerById): the server asks this of ids it did not make the room with.
 */
export function isInRoom(room: Room, playerId: string): boolean {
  return playerById(room.players, playerId) !== undefined;
}

/**
 * When anything last happened at the table (Room.tableActivity; lastActivity for a room stored before
 * it). A stranger with the room code asking to join and leaving again every minute kept lastActivity
 * fresh, so the host's "away" never came and a connected player's turn never waited long enough for
 * the host to fold for them (the fuzz audit of session 35; undo.ts closed the same way in for the undo).
 */
export function tableActivity(room: Room): number {
  return room.tableActivity ?? room.lastActivity;
}

/**
 * Whether `playerId` left or was removed while the game was on: they have a ledger entry, and the
 * settlement names them. Such a player may see the results once the game has ended (the server's
 * resume), though they are no longer in the room.
 */
export function leftDuringGame(room: Room, playerId: string): boolean {
  return room.ledger.some((entry) => entry.id === playerId);
}

/** Approved players sorted by joinedAt: the clockwise seat order. */
export function seatOrder(players: Record<string, Player>): Player[] {
  const out: Player[] = [];
  for (const id in players) {
    const p = players[id];
    if (p?.isApproved) out.push(p);
  }
  return out.sort((a, b) => a.joinedAt - b.joinedAt);
}

/**
 * joinedAt for a newcomer: `now`, but strictly after every seat ever used in the room
 * (so seat order stays a strict order even with a clock that stands still or goes back).
 */
export function nextJoinedAt(d: Draft): number {
  let last = d.gs.dealerSeat ?? Number.NEGATIVE_INFINITY;
  for (const id in d.players) {
    const p = d.players[id];
    if (p !== undefined && p.joinedAt > last) last = p.joinedAt;
  }
  // A whole number (seats are): the button's seat is half a seat before a player's once the host has
  // arranged the seats after its dealer left (seating.ts).
  return Math.max(d.now, Math.floor(last) + 1);
}

/** Everything bought in so far: the investments of everyone in the room and of those who left. */
export function chipsInRoom(d: Draft): number {
  let total = 0;
  for (const id in d.players) total += (d.players[id] as Player).totalInvestment;
  for (const e of d.room.ledger) total += e.totalInvestment;
  return total;
}
