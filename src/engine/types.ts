/**
 * The engine's data model: the spec's entities (SPEC.md section 3) with their field names.
 * Every amount is an integer number of cents. Every timestamp is milliseconds since the epoch,
 * handed in by the caller (the engine has no clock).
 */

/** Room status. The spec's "waiting" reading of the lobby is normalised to LOBBY. */
export type RoomStatus = 'LOBBY' | 'PLAYING' | 'ENDED';

/** Betting stages in order; SHOWDOWN is final. */
export type Stage = 'PRE_FLOP' | 'FLOP' | 'TURN' | 'RIVER' | 'SHOWDOWN';

/** A player's position in the current hand (only funded players get a non-PLAYER role). */
export type Role = 'PLAYER' | 'DEALER' | 'SMALL_BLIND' | 'BIG_BLIND' | 'DEALER_SMALL_BLIND';

/** waiting_approval until the host approves, then active. */
export type PlayerStatus = 'waiting_approval' | 'active';

/** Why a hand jumped to SHOWDOWN (or why betting stopped) without a host advance. */
export type AutoAdvancedReason =
  | 'BETTING_CAPPED_BY_ALL_IN'
  | 'ALL_REMAINING_ALL_IN'
  | 'LAST_PLAYER_RESPONDED';

/** What a player does on their turn. */
export type ActionType = 'FOLD' | 'CALL' | 'RAISE' | 'ALL_IN';

/**
 * What a player's screen showed when they tapped an action (ours; the spec's act has none): the hand,
 * the stage and what they had to call (the engine's callAmount). An action whose `facing` no longer
 * matches the table is refused (MSG.actMovedOn) and changes nothing. Without it, a Check tapped on a
 * phone that had lost its connection, sent when it came back after the host had checked for the player
 * and someone had bet, was taken as a call of that bet, which the player never saw (the session-32
 * audit: 'Bob calls $5.00'). Optional: a command without it acts on the table as it is, as the spec's.
 */
export interface Facing {
  handNumber: number;
  stage: Stage;
  toCall: number;
}

/** Table settings the host edits (blinds) plus the spec's fixed limits. */
export interface Settings {
  /** Cents; default 100. */
  smallBlind: number;
  /** Cents; default 200. */
  bigBlind: number;
  /** Default 10. */
  maxPlayers: number;
  /** Default true. */
  enableRebuys: boolean;
}

/** A person in the room: pending or seated, with their chips and their state in the current hand. */
export interface Player {
  /** The authenticated user id. */
  id: string;
  name: string;
  isHost: boolean;
  isApproved: boolean;
  status: PlayerStatus;
  /** Chips behind, in cents (not counting the current round bet). */
  stack: number;
  /** Everything this player bought in for: starting chips plus rebuys, in cents. */
  totalInvestment: number;
  role: Role;
  /**
   * Join time; the engine keeps it strictly increasing so it doubles as the seat order. The host
   * arranging the seats (seating.ts) deals the seated players' values out again in the table's order.
   */
  joinedAt: number;
  /** Chips put in during the current betting round. */
  currentRoundBet: number;
  /** Chips put in during the current hand (all rounds), still sitting in the pots. */
  totalPotContribution: number;
  hasFolded: boolean;
  /** Holds a seat in the current hand: was funded when it began and is still in the room. */
  isActive: boolean;
  isAllIn: boolean;
  hasActedThisRound: boolean;
  /** When this player's stack last changed (ms). */
  lastChipUpdate: number;
  /** Set when the game ends. */
  finalChips?: number;
  /** finalChips - totalInvestment; set when the game ends. */
  netResult?: number;
  isWinner?: boolean;
  isLoser?: boolean;
  /**
   * Sitting out (seating.ts `sitOut`): not dealt in from the next hand, and so never a blind, until
   * back. Absent when playing (older stored rooms have no such field).
   */
  away?: true;
  /**
   * The id of the newest seat link the host made for this player and no phone has used yet
   * (seat-link.ts): a link works once, and a newer one replaces it. Absent otherwise.
   */
  seatLink?: string;
  /**
   * The link that last moved this seat and the phone (its own player id) that used it, until a phone of
   * this player's resumes the room (seat-link.ts): that phone asking again with that link, its answer
   * lost on the way, is answered as the claim it made. Absent otherwise; never beside `seatLink`.
   */
  seatClaim?: { linkId: string; by: string };
  /**
   * The link whose claim last moved this seat to a new phone (seat-link.ts): the room-scoped
   * credentials the server gave for that claim are this seat's; those of any earlier claim are no
   * longer (a command carrying an earlier link as `via` is refused). Absent for a seat never moved
   * since session 42. Kept for good (a phone given back keeps nothing: a newer claim replaces it).
   */
  heldByLink?: string;
}

/**
 * A player who left or was removed after the game started. Their chips at that moment and their
 * investment stay in the books so the final settlement still balances.
 */
export interface LedgerEntry {
  id: string;
  name: string;
  /** Chips they held when they left (their stack; chips already in a pot stay there). */
  finalChips: number;
  totalInvestment: number;
  netResult: number;
  leftAt: number;
  /** Set when the game ends: they left with the night's best net result (see Player.isWinner). */
  isWinner?: boolean;
  /**
   * Set when the host removed them (their last departure, when they came back and went again), so the
   * results say "(removed)", not "(left)" (ours; the session-32 audit). Absent in older rooms.
   */
  removed?: true;
}

/** A main or side pot: chips and the players who can win them. */
export interface Pot {
  /** 'main' or 'side-N' (N from 1). */
  id: string;
  amount: number;
  /** Non-folded players who contributed to every layer of this pot. */
  eligiblePlayers: string[];
  isMainPot: boolean;
}

/** The table: stage, button, turn, pots and the flags the screens show. */
export interface GameState {
  stage: Stage;
  dealerId: string | null;
  /** null when nobody is to act. */
  currentTurnPlayerId: string | null;
  handNumber: number;
  pots: Pot[];
  canAdvanceStage: boolean;
  nextStage: Stage | null;
  /** 'Flop' | 'Turn' | 'River' | 'Showdown', fallback 'Next Stage'. */
  nextStageName: string | null;
  /** Index of the stage, 0 (PRE_FLOP) to 4 (SHOWDOWN). */
  stageProgress: number;
  /** Increase of the last raise in the current round (0 when none). */
  lastRaiseAmount: number;
  autoAdvancedReason: AutoAdvancedReason | null;
  status: RoomStatus;
  endedAt: number | null;
  /** The host id, or 'auto'. */
  endedBy: string | null;
  /** Last human-readable message ('{player} wins! All other players folded.', 'Showdown! ...'). */
  message: string | null;
  /** Ids of the players who won chips in the last award of this hand (winner highlight). */
  winnerIds: string[];
  /**
   * Seat (joinedAt) of the current dealer, so the button can move on even after the dealer left.
   * Half a seat before a player's (seats are whole numbers) when the host arranged the seats after
   * that dealer left: the button goes to that player next (seating.ts arrangeSeats).
   * Always set by the engine; optional only so hand-built fixtures stay valid.
   */
  dealerSeat?: number | null;
  /** Blinds posted in the current hand (settings changed mid-hand apply from the next hand). */
  blinds?: { smallBlind: number; bigBlind: number } | null;
  /** Pot contributions of players who left or were removed during the current hand (dead money). */
  departedContributions?: Record<string, number>;
}

/** Everything about one game, stored under its room code. */
export interface Room {
  roomCode: string;
  hostId: string;
  createdAt: number;
  /** When the room last changed (the spec's idle time: cleanup). */
  lastActivity: number;
  /**
   * When anything last happened at the table: as lastActivity, except that a stranger asking to join,
   * or leaving while still waiting, does not count. The host's "away" (claimHost) and a turn's wait
   * before the host may act for the player (actFor) are measured from it (tableActivity in room.ts).
   * Absent in rooms stored before session 35: lastActivity stands in.
   */
  tableActivity?: number;
  status: RoomStatus;
  settings: Settings;
  /** Keyed by player id. Seat order is by joinedAt. */
  players: Record<string, Player>;
  gameState: GameState;
  /** Players who left or were removed after the game started. */
  ledger: LedgerEntry[];
  /** The most recent events (capped), for the hand log. */
  log: LoggedEvent[];
  /** Sequence number of the next logged event. */
  nextEventSeq: number;
  /**
   * What the host's Undo would take back: the last game command, while nothing that changes who is at
   * the table has happened since (undo.ts). null (or absent, in rooms stored before undo existed) when
   * there is nothing to undo.
   */
  undo?: UndoPoint | null;
}

/**
 * What the last game command (act, advanceStage, declareWinners, newHand, rebuy) changed, as it was
 * before, kept so the host can take it back: the fields of the players and of the game state it changed
 * (an action changes a few fields of one player and the pots: ~0.75 KB of JSON with six players).
 */
export interface UndoPoint {
  /** The seq of the command's first logged event: an undo names it, so a stale tap undoes nothing. */
  seq: number;
  /** The command's first event (what the host is asked about: "Take back “Ana raises to $6.00”?"). */
  first: GameEvent;
  /** The game state's fields the command changed, as they were. */
  gameState: Partial<GameState>;
  /** For each player the command changed, the fields it changed, as they were. */
  players: Record<string, Partial<Player>>;
  /**
   * A New Hand's only: the point it replaced (the last hand's award, say), which an undo of the New
   * Hand brings back, so a wrong award noticed once the next hand is dealt can still be put right.
   */
  prev?: UndoPoint;
}

/** One payment at the end: `from` owes `to` `amount` cents. */
export interface Settlement {
  from: string;
  to: string;
  /** Cents. */
  amount: number;
  fromPlayerId: string;
  toPlayerId: string;
}

/**
 * A command sent by a user. The actor (who sends it) is passed separately and never trusted from here.
 * `via`: set by the server, never by a phone (the wire schema refuses it), when the actor's phone holds
 * their seat by room-scoped credentials (a seat moved by link): the link those credentials were made
 * for. A command is refused when it names a link other than the one whose claim last moved the actor's
 * seat (seat-link.ts heldByLink): an earlier phone's credentials are spent once the seat moved on.
 * Credentials made before links were named carry `''`.
 */
export type Command = CommandBody & { via?: string };

/** The commands themselves (Command, without the server's `via`). */
type CommandBody =
  | { type: 'join'; name: string; startingChips: number }
  | { type: 'approve'; playerId: string }
  | { type: 'remove'; playerId: string }
  | { type: 'updateSettings'; smallBlind: number; bigBlind: number }
  | { type: 'startGame' }
  | { type: 'act'; action: ActionType; amount?: number; facing?: Facing }
  /**
   * The host checks or folds for the player whose turn it is, away from the table (betting.ts actFor).
   * `online`: the players the server sees connected as it takes the command (presence), filled by the
   * server, never by a phone (the wire schema refuses it). Absent: not known (the engine's own tests).
   */
  | { type: 'actFor'; playerId: string; action: 'CHECK' | 'FOLD'; online?: readonly string[] }
  | { type: 'advanceStage' }
  | { type: 'declareWinners'; winnerIds: string[]; byPot?: Record<string, string[]> }
  | { type: 'newHand' }
  | { type: 'rebuy'; playerId: string; amount: number }
  | { type: 'endGame' }
  | { type: 'leave' }
  | { type: 'undo'; seq: number }
  /** The host hands the host role to a player at the table (host.ts makeHost). */
  | { type: 'makeHost'; playerId: string }
  /**
   * A player at the table takes over as host after the table waited 3 minutes for a host whose phone is
   * away (host.ts claimHost). `online` as for actFor.
   */
  | { type: 'claimHost'; online?: readonly string[] }
  /** The host puts the players at the table in the order they sit, clockwise (seating.ts arrangeSeats). */
  | { type: 'arrangeSeats'; playerIds: string[] }
  /**
   * Sit out from the next hand, or come back (`away: false`): a player for themself, the host for
   * anyone at the table (`playerId`; seating.ts sitOut).
   */
  | { type: 'sitOut'; away: boolean; playerId?: string }
  /**
   * The host asks for a link that moves `playerId`'s seat to a new phone, their own being away
   * (seat-link.ts). `online` as for actFor. The server answers it with the link (socket-gateway.ts).
   */
  | { type: 'seatLink'; playerId: string; linkId: string; online?: readonly string[] }
  /**
   * A new phone takes `playerId`'s seat with the link `linkId` (seat-link.ts claimSeat); the actor is
   * that phone's own player id. Server-made, as seatLink. `online` as for actFor.
   */
  | { type: 'claimSeat'; playerId: string; linkId: string; online?: readonly string[] }
  /**
   * A phone of the actor's is back at the table (the server, when it resumes the room): an unused seat
   * link of theirs goes (seat-link.ts seatBack). Server-made, as seatLink.
   */
  | { type: 'seatBack' };

/** What happened. Amounts in cents. Names are copied in so a log line survives the player leaving. */
export type GameEvent =
  | { type: 'playerJoined'; playerId: string; name: string; startingChips: number }
  | { type: 'playerApproved'; playerId: string; name: string }
  | { type: 'playerRemoved'; playerId: string; name: string; wasApproved: boolean }
  | { type: 'playerLeft'; playerId: string; name: string }
  | { type: 'settingsUpdated'; smallBlind: number; bigBlind: number }
  | { type: 'gameStarted' }
  | { type: 'handStarted'; handNumber: number; dealerId: string }
  | {
      type: 'blindPosted';
      playerId: string;
      name: string;
      blind: 'SMALL' | 'BIG';
      amount: number;
      allIn: boolean;
    }
  | {
      type: 'playerActed';
      playerId: string;
      name: string;
      action: ActionType;
      /** Chips this action moved from the stack into the pot. */
      amount: number;
      /** The player's round bet after the action. */
      totalBet: number;
      allIn: boolean;
      /** Set when the host checked or folded for the player (actFor); absent otherwise. */
      byHost?: true;
    }
  | { type: 'betReturned'; playerId: string; name: string; amount: number }
  | { type: 'stageChanged'; stage: Stage }
  | { type: 'showdown'; playersRemaining: number; message: string }
  | {
      type: 'potAwarded';
      potId: string;
      amount: number;
      winners: Array<{ playerId: string; name: string; amount: number }>;
      reason: 'FOLD' | 'SHOWDOWN';
      message: string | null;
    }
  | { type: 'handCompleted'; handNumber: number }
  | { type: 'rebuy'; playerId: string; name: string; amount: number }
  | { type: 'gameEnded'; endedBy: string }
  | { type: 'roomDeleted' }
  /** The players at the table, clockwise from the first seat, as the host arranged them (seating.ts). */
  | { type: 'seatsArranged'; playerIds: string[]; names: string[] }
  /** A player sits out from the next hand, or is back (seating.ts sitOut); `byHost` when the host did it. */
  | { type: 'sitOutChanged'; playerId: string; name: string; away: boolean; byHost?: true }
  /** The host made a link moving the player's seat to a new phone (seat-link.ts). */
  | { type: 'seatLinkMade'; playerId: string; name: string }
  /** A new phone took the player's seat with the host's link (seat-link.ts claimSeat). */
  | { type: 'seatMoved'; playerId: string; name: string }
  /** The player's phone came back before anyone used their seat link, which no longer works (seat-link.ts seatBack). */
  | { type: 'seatLinkVoid'; playerId: string; name: string }
  /** The host role handed from `fromId` to `playerId` (host.ts makeHost). */
  | {
      type: 'hostChanged';
      playerId: string;
      name: string;
      fromId: string;
      fromName: string;
      /** Set when the new host took over from a host who was away (claimHost); absent otherwise. */
      claimed?: true;
    }
  | {
      type: 'undone';
      /** The seq of the undone command's first event (not `seq`: the log's own seq goes there). */
      undoneSeq: number;
      /** That event (so the log line survives it being trimmed from the log). */
      first: GameEvent;
    };

/** An event as kept in the room's log. */
export type LoggedEvent = GameEvent & { seq: number; at: number; handNumber: number };

/** What applyCommand returns: the new room (null = deleted) and events, or the refusal. */
export type CommandResult =
  | { ok: true; room: Room | null; events: GameEvent[] }
  | { ok: false; error: string };

/** What the player to act may raise to (see raiseLimits). */
export interface RaiseLimits {
  /** Smallest legal total bet for a raise (may exceed max: then only all-in is possible). */
  min: number;
  /** Largest total bet: own bet + stack, capped by the opponents' largest bet + stack. */
  max: number;
  /** The "Pot" preset: own round bet + the pot, capped at max. */
  pot: number;
  /** True when max is lower than own bet + stack because of the opponents' stacks. */
  limitedByOpponents: boolean;
  /** The player's current round bet. */
  currentBet: number;
  /** The player's stack. */
  stack: number;
  /** The minimum raise increment in force. */
  minRaise: number;
  /** The highest round bet at the table. */
  highestBet: number;
}
