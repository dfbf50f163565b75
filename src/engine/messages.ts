/**
 * Every user-facing string of the engine, in one place, but for the spec's conversion errors (money.ts
 * CONVERSION_ERRORS). Where SPEC.md (sections 4, 6 and 8) has a wording, it is used verbatim; the
 * others are the engine's own readings (see README.md).
 * Amounts are formatted with formatCents.
 */
import { formatCents } from './money';

/** Fixed messages, by what went wrong. */
export const MSG = {
  // Join / create (SPEC section 8)
  nameRequired: 'Please enter your name',
  nameTooLong: 'Name must be 20 characters or less',
  startingChipsTooLow: 'Starting chips must be at least $1.00',
  startingChipsTooHigh: 'Starting chips cannot be more than $10,000.00',
  gameEnded: 'This game has already ended.',
  roomFull: 'Room is full.',
  nameTaken: 'Name already taken. Please choose a different name.',

  // Host-only (SPEC section 6)
  onlyHostApprove: 'Only the host can approve players',
  onlyHostRemove: 'Only the host can remove players',
  onlyHostSettings: 'Only the host can update settings',
  onlyHostAdvance: 'Only the host can advance stages',
  onlyHostGameState: 'Only the host can update game state',
  hostCannotRemoveSelf: 'The host cannot remove themself. Use End Game instead.',

  // Players
  playerNotFound: 'Selected player not found',

  // Settings
  blindsRequired: 'Please enter both small and big blind amounts',
  smallBlindAboveBig: 'Small blind cannot be more than the big blind',

  // Start / new hand
  needTwoPlayers: 'Need at least 2 players to start the game',
  needTwoFunded: 'Need at least 2 players with chips to assign roles',
  alreadyStarted: 'The game has already started',
  notStarted: 'The game has not started yet',
  newHandNotAtShowdown: 'A new hand can only start after the showdown',
  declareBeforeNewHand: 'Declare the winner before starting a new hand',

  // Acting
  notInGame: 'You are not in this game',
  noBetting: 'There is no betting right now',
  notInHand: 'You are not in this hand',
  alreadyFolded: 'You have folded this hand',
  alreadyAllIn: 'You are already all-in',
  notYourTurn: 'It is not your turn',
  invalidAmount: 'Please enter a valid amount (e.g., "25.50")',
  // The host checking or folding for an away player (the engine's own; the spec has no such power)
  onlyHostActFor: 'Only the host can check or fold for another player',
  actForMovedOn: 'The table has moved on since. Nothing was done.',
  hostStillHere: "The host's phone is still connected: the host is at the table. Nothing was done.",
  /** A player's action whose `facing` is not the table's any more (types.ts Facing; ours). */
  actMovedOn: 'The table changed before your action arrived. Nothing was done.',

  // Stages
  cannotAdvance: 'The betting round is not complete yet',

  // Winners
  notAtShowdown: 'Winners can only be declared at showdown',
  noPotToAward: 'There is no pot to award',

  // Rebuy
  rebuysDisabled: 'Rebuys are disabled in this game',
  invalidPositiveAmount: 'Please enter a valid positive amount',

  // Handing over the host role (the engine's own; the spec has none)
  onlyHostMakeHost: 'Only the host can hand over the host role',
  alreadyHost: 'You are already the host',
  makeHostNotSeated: 'Only a player at the table can become the host',
  // Moving a seat to a new phone (the engine's own; seat-link.ts)
  onlyHostSeatLink: 'Only the host can move a seat to a new phone',
  seatLinkOwnSeat: 'Your own seat is on this phone',
  seatLinkNotSeated: 'Only a player at the table can be moved to a new phone',
  // A new phone taking a seat with the host's link (seat-link.ts claimSeat)
  seatLinkGone: 'This seat is no longer at the table.',
  seatLinkHost: "This link no longer works: that seat is the host's now.",
  seatLinkEnded: 'This game is over: there is no seat to move. Ask the host for the results.',
  seatLinkUsed:
    'This link no longer works: the seat has a phone again. Ask the host for a new one if the seat is yours.',
  seatLinkReplaced: 'The host has made a newer link for this seat. Ask the host for it.',
  seatLinkInUse: 'This seat is connected on another phone. Ask the host for a new link if it is yours.',
  // A phone holding a seat by an earlier link, once a newer link moved it (seat-link.ts heldByLink)
  seatHeldElsewhere: 'This seat has moved to another phone. Ask the host for a new link if it is yours.',
  claimHostNotPlaying: 'Taking over as host is only possible during a game',
  hostNotAway: 'The host can be replaced only after the table has waited 3 minutes for them',

  // Arranging the seats (the engine's own; the spec seats players in join order)
  onlyHostSeats: 'Only the host can change the seating',
  seatsBetweenHands: 'Seats can be changed only between hands',
  seatsPlayersChanged: 'The players at the table have changed. Please try again.',

  // Sitting out (the engine's own; the spec has none)
  sitOutNotPlaying: 'Sitting out is only possible during a game',
  onlyHostSitOut: 'Only the host can sit another player out',
  needTwoIn: 'Need at least 2 players with chips who are not sitting out',

  // Undo (the engine's own; the spec has no undo)
  onlyHostUndo: 'Only the host can undo',
  nothingToUndo: 'There is nothing to undo',
  undoMovedOn: 'The table has moved on since. Nothing was undone.',

  unknownCommand: 'Unknown command',
} as const;

/** 'You don't have enough chips. Maximum bet is X' (SPEC section 8). */
export function notEnoughChips(max: number): string {
  return `You don't have enough chips. Maximum bet is ${formatCents(max)}`;
}

/** 'Maximum effective bet is X based on opponents' stack sizes.' (SPEC section 8). */
export function maxEffectiveBet(max: number): string {
  return `Maximum effective bet is ${formatCents(max)} based on opponents' stack sizes.`;
}

/** 'Minimum raise is X. Total bet must be at least Y' (SPEC section 8). */
export function minimumRaise(minRaise: number, minTotal: number): string {
  return `Minimum raise is ${formatCents(minRaise)}. Total bet must be at least ${formatCents(minTotal)}`;
}

/** '{player} wins! All other players folded.' (SPEC section 4). */
export function foldWin(name: string): string {
  return `${name} wins! All other players folded.`;
}

/** 'Showdown! N players remain. Host must declare winner.' (SPEC section 4). */
export function showdown(playersRemaining: number): string {
  return `Showdown! ${playersRemaining} players remain. Host must declare winner.`;
}

/** A player still betting in the current hand cannot buy more chips (table stakes). */
export function rebuyInHand(name: string): string {
  return `${name} is still in this hand. Add chips after the showdown or once they fold.`;
}

/** A pot the host named no eligible winner for. */
export function chooseWinnerFor(potId: string): string {
  return `Choose a winner for ${potId}`;
}

/** A winner id that is not a player still in the hand. */
export function notInThisHand(id: string): string {
  return `Player ${id} is not in this hand`;
}

/** A winner named for a pot they did not contribute to. */
export function notEligibleFor(name: string, potId: string): string {
  return `${name} is not eligible for ${potId}`;
}

/** A byPot key that names no pot. */
export function unknownPot(potId: string): string {
  return `There is no pot ${potId}`;
}

/** Next-stage labels (SPEC section 4); 'Pre-Flop' is the engine's own for completeness. */
export const STAGE_NAMES = {
  PRE_FLOP: 'Pre-Flop',
  FLOP: 'Flop',
  TURN: 'Turn',
  RIVER: 'River',
  SHOWDOWN: 'Showdown',
} as const;

/** The spec's label when a next stage has no name. */
export const NEXT_STAGE_FALLBACK = 'Next Stage';

/** actFor refused: the player is at the table, phone connected, and their turn is young (ours). */
export function actForTooSoon(name: string): string {
  return `${name} is at the table and can act. Nothing was done.`;
}

/**
 * claimHost refused: another player's claim came first, and nothing has happened at the table since
 * (two phones offered the take-over tapped it at once). Ours.
 */
export function hostTakenBy(name: string): string {
  return `${name} has just taken over as host. Nothing was done.`;
}

/** seatLink refused: the player's phone is connected (seat-link.ts). */
export function seatLinkStillHere(name: string): string {
  return `${name}'s phone is still connected. Nothing was done.`;
}

/** claimSeat refused: the phone opening the link already plays in that game (seat-link.ts). */
export function seatLinkSameTable(name: string): string {
  return `This phone already plays in this game: give the link to ${name}.`;
}
