/**
 * Every user-facing word of the room's screens (lobby, table, dialogs, game over, hand log), grouped
 * per screen; texts.ts has the first page's. Same rules: SPEC.md's wording where it has one (section
 * 2, and section 8 for errors), ours otherwise; amounts arrive formatted by the engine's formatCents.
 */
import { CONVERSION_ERRORS } from '../engine';

export const lobby = {
  title: 'Game Lobby',
  roomCode: 'Room Code',
  share: 'Share this code with friends',
  joinLink: 'Join link',
  copyLink: 'Copy Link',
  copied: 'Copied!',
  copyByHand: 'Press and hold the link to copy it',
  shareLink: 'Share Link',
  shareTitle: 'Join my Chipless poker game',
  qrLabel: (code: string) => `QR code to join room ${code}`,
  blinds: 'Blinds',
  smallBlind: 'Small Blind',
  bigBlind: 'Big Blind',
  players: (count: number, max: number) => `Players (${count}/${max})`,
  /**
   * Ours, under the list: players waiting for approval count toward the room's limit (the spec's join
   * rule), so a lobby reading "Players (1/10)" can turn the eleventh phone away ("Room is full.").
   * `full`: the limit, when they fill it.
   */
  morePending: (count: number, full: number | null) =>
    `${count} waiting for approval${full === null ? '' : `: all ${full} places taken`}`,
  waitingApproval: 'Waiting for Approval',
  wantsToJoin: (chips: string) => `Wants to join with ${chips} chips`,
  /** Said to the host's screen reader when someone asks (PendingCard). */
  asksToJoin: (name: string, chips: string) => `${name} wants to join with ${chips} chips`,
  approve: (name: string) => `Approve ${name}`,
  deny: (name: string) => `Deny ${name}`,
  remove: (name: string) => `Remove ${name}`,
  settings: 'Settings',
  start: 'Start Game',
  starting: 'Starting...',
  needPlayers: 'Need at least 2 players to start',
  startFailed: 'Failed to start game. Please try again.',
  waitingHost: 'Waiting for host to start the game',
  waitingYourApproval: 'Waiting for the host to approve you',
  endSessionLabel: 'End game session',
  leaveLabel: 'Leave room',
  endSessionTitle: 'End Game Session?',
  endSessionText: 'This will end the game for all players and return everyone to the home screen.',
  endSessionConfirm: 'End Game Session',
  removeTitle: 'Remove this player from the game?',
  removeConfirm: 'Remove',
};

export const settings = {
  title: 'Game Settings',
  smallBlind: 'Small Blind',
  bigBlind: 'Big Blind',
  submit: 'Save Settings',
  loading: 'Saving...',
  errorMissing: 'Please enter both small and big blind amounts',
  errorInvalid: CONVERSION_ERRORS.invalid,
  /** Ours: the spec's input minimum (0.01) said in words. */
  errorMinimum: 'Each blind must be at least $0.01',
};

/** The host's "Arrange Seats" (ours; SeatsModal.tsx): the seat order is the table's real one. */
export const seats = {
  title: 'Arrange Seats',
  text: 'Put the players in the order they sit around the table, going clockwise (to the left).',
  lobbyNote: 'The first player deals the first hand.',
  tableNote: "The next hand's button goes to the player after the dealer.",
  dealsFirst: 'Deals first',
  dealer: 'Dealer',
  up: (name: string) => `Move ${name} up`,
  down: (name: string) => `Move ${name} down`,
  moved: (name: string, seat: number) => `${name} is now in seat ${seat}`,
  submit: 'Save Seats',
  loading: 'Saving...',
};

export const table = {
  communityCards: (n: number) => `${n} of 5 community cards dealt`,
  pot: 'Pot',
  pots: (n: number) => `${n} Pots`,
  mainPot: 'Main pot',
  sidePot: (n: string) => `Side pot ${n}`,
  toCall: 'To call',
  stack: 'Stack',
  bet: 'Bet',
  folded: 'Folded',
  allIn: 'All-In',
  sittingOut: 'Sitting out',
  /** Seat tags of a player not dealt into this hand (Table.tsx outTag). */
  outOfChips: 'Out of chips',
  joinsNextHand: 'Joins next hand',
  /**
   * The seat's turn marker (the spec asks for "a turn marker", not a word). 'Turn' until session 33: the
   * review read "Turn" on Bob's seat under the stage heading "Turn" as "Bob is on the turn".
   */
  turn: 'To act',
  winner: 'Winner',
  /** Beside the winner tag once the hand is awarded (ours): what that player took from the pots. */
  won: 'Won',
  badges: { DEALER: 'D', SMALL_BLIND: 'SB', BIG_BLIND: 'BB', DEALER_SMALL_BLIND: 'D/SB' } as Record<
    string,
    string
  >,
  badgeNames: {
    DEALER: 'Dealer',
    SMALL_BLIND: 'Small blind',
    BIG_BLIND: 'Big blind',
    DEALER_SMALL_BLIND: 'Dealer and small blind',
  } as Record<string, string>,
  hand: (n: number) => `Hand #${n}`,
  blinds: (sb: string, bb: string) => `Blinds ${sb} / ${bb}`,
  /** The host's new blinds, set during a hand (or between hands): what New Hand will post (TableFoot.tsx). */
  nextBlinds: (sb: string, bb: string) => `Next hand ${sb} / ${bb}`,
  changeBlinds: 'Change Blinds',
  /**
   * Ours: the footer's button for a friend who arrives once the game is under way (TableFoot.tsx): the
   * room's code, readable from across the table, opening the invite (the lobby's code, QR and link).
   */
  invite: (code: string) => `Room ${code}`,
  inviteLabel: (code: string) => `Room ${code}: invite a friend`,
  inviteTitle: 'Invite a Friend',
  inviteNote: 'A friend who joins now is dealt in from the next hand, once the host approves them.',
  blindsNextHand: 'New blinds apply from the next hand.',
  fold: 'Fold',
  /** Fold tapped when checking costs nothing: asked first (Table.tsx). */
  foldFreeTitle: 'Fold instead of checking?',
  foldFreeText: 'Checking is free and keeps you in the hand.',
  check: 'Check',
  /** Before the amount to call ("Call $2.00"; Table.tsx). */
  call: 'Call',
  raise: 'Raise',
  yourTurn: 'Your Turn',
  playersTurn: (name: string) => `${name}'s Turn`,
  waitingAction: 'Waiting for their action...',
  waitingPlayer: 'Waiting for Player',
  toAct: 'To act',
  roundComplete: 'Betting round complete',
  /** The stage's label ("Flop", the host's button) in lower case, as dealRest says the board's cards. */
  waitingDeal: (stage: string) => `Waiting for the host to deal the ${stage.toLowerCase()}`,
  waitingDeclare: 'Waiting for the host to declare the winner',
  waitingNewHand: 'Waiting for the host to start a new hand',
  nextStage: 'Next Stage',
  declareWinner: 'Declare Winner',
  newHand: 'New Hand',
  rebuys: 'Rebuys',
  endGame: 'End Game',
  hostControls: 'Host controls',
  leaveLabel: 'Leave game',
  leaveTitle: 'Leave this game?',
  leaveText:
    'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game.',
  leaveConfirm: 'Leave Game',
  /**
   * What leaving does to the chips in the hand being played (ours; the engine's stakeOnLeaving):
   * leaving folds, `stays` of the `bet` stays in the pot and the rest goes back. The audit of session
   * 33: the question said nothing of it.
   */
  leaveStake: (stays: string, bet: string) =>
    stays === bet
      ? `Leaving folds your hand: the ${bet} you have bet stays in the pot.`
      : `Leaving folds your hand: ${stays} of the ${bet} you have bet stays in the pot, and the rest comes back to you.`,
  /** The same, in the host's remove question at the table. */
  removeStake: (stays: string, bet: string) =>
    stays === bet
      ? `Removing them folds their hand: the ${bet} they have bet stays in the pot.`
      : `Removing them folds their hand: ${stays} of the ${bet} they have bet stays in the pot, and the rest goes back to them.`,
  /** A player still waiting for approval has no chips in the game and no results to come (ours). */
  leaveWaiting: 'You are still waiting for the host to approve you.',
  /** Sitting out (ours; the engine's sitOut): offered where a player would leave, or be removed. */
  leaveOrSitOut:
    'Only stepping away for a while? Sit out: you keep your seat and chips, and are dealt out until you are back.',
  sitOutInstead: 'Sit Out Instead',
  /**
   * A phone holding the seat by a link (a friend's, lent): giving it back keeps the seat at the table,
   * where leaving would take the player out of the game (ours; the seat link, session 40).
   */
  leaveOrHandBack:
    'This phone holds your seat by a link. Only giving the phone back? Your seat and chips stay at the table for your own phone, or a new link from the host.',
  handBack: 'Give This Phone Back',
  /** The host's remove dialog at the table (Lobby.tsx ConfirmRemove), after the player's name. */
  removeOrSitOut: 'Only stepping away for a while? Sit them out: they keep their seat and chips.',
  /** `inHand`: they sat out during the hand they are still playing, and are dealt out from the next. */
  removeOrBringBack: (name: string, inHand: boolean) =>
    inHand
      ? `${name} sits out from the next hand. Staying after all? Bring them back: they are dealt in as before.`
      : `${name} is sitting out. Back at the table? Bring them back: they are dealt in from the next hand.`,
  bringBackInstead: 'Bring Back Instead',
  awayTitle: "You're sitting out",
  imBack: "I'm Back",
  /** A player who sat out during a hand they are still in: dealt out from the next one. */
  awayNextTitle: 'You sit out from the next hand',
  stayIn: 'Stay In',
  sitsOutNext: 'Sits out next hand',
  /** Fewer than two players the next deal would take (with chips, not sitting out): 0 or 1. */
  onlyIn: (n: number) => (n === 0 ? 'Nobody is in' : 'Only 1 player is in'),
  /** The host is told where bringing a player back is: their seat's button (the remove dialog). */
  onlyInText: (n: number, host: boolean) =>
    `${n === 0 ? 'Everyone is' : 'The others are'} sitting out or out of chips. Bring a player back${host ? ' (the button on their seat)' : ''}, rebuy or End Game to continue.`,
  bettingComplete: 'Betting Complete',
  allPlayersAllIn: 'All Players All-In',
  hostCanDeclare: 'Host can now declare the winner',
  /** An all-in showdown before the river: the board cards still to turn over (ours). */
  dealRest: (reached: 'PRE_FLOP' | 'FLOP' | 'TURN') =>
    `Deal ${reached === 'PRE_FLOP' ? 'the flop, the turn and the river' : reached === 'FLOP' ? 'the turn and the river' : 'the river'} first.`,
  chipless: "You're Chipless!",
  chiplessText: 'Ask the host for a rebuy to get back in.',
  chiplessHost: 'You still manage the game as the host, and you can rebuy yourself.',
  onlyOneFunded: 'Only 1 player has money',
  onlyOneFundedText: 'Rebuy or End Game to continue',
  autoWinner: (name: string) => `${name} wins!`,
  autoWinnerText: 'All other players folded.',
  log: 'Hand log',
  logEmpty: 'Nothing has happened yet.',
  notSeated: 'You will be dealt in when the host approves you and a new hand starts.',
  /** Said to a player approved at the table (the line above just goes). */
  approvedAtTable: 'The host approved you: you are dealt in from the next hand.',
  /** After a hand-log line the host's undo took back (read out; the line is struck through). */
  takenBack: '(taken back)',
};

/** The host's undo at the table (ours; the spec has none): the button and its question. */
export const undo = {
  button: 'Undo',
  /** The greyed Undo's tooltip while there is nothing to take back. */
  nothing: 'Nothing to undo',
  title: 'Undo?',
  /** `line` is the hand-log line of the command taken back ("Ana raises to $6.00"). */
  text: (line: string | null) => (line === null ? 'Take back the last move?' : `Take back “${line}”?`),
  confirm: 'Undo',
  loading: 'Undoing...',
};

/**
 * The host handing over the host role before leaving (ours; the spec has the host's leaving end the
 * game). Its dialog opens from the table's leave button, titled as the leave question.
 */
export const handOver = {
  text: "Leaving for good? You're the host: make someone else the host first, and the game goes on without you.",
  endInstead: 'To end the game for everyone, use End Game.',
  sitOut:
    'Only stepping away for a while, or running the table without playing? Sit out: you stay the host, keep your chips, and are dealt out until you are back.',
  nobody: 'Nobody else is at the table. Use End Game to end it.',
  legend: 'New host',
  choose: 'Make Host',
  confirm: (name: string) => `Make ${name} the Host`,
  loading: 'Handing over...',
};

/**
 * A player taking over as host when the host's phone has been away while the table waited 3 minutes
 * (ours; the spec has none). `host` is the host's name.
 */
export const takeOver = {
  button: 'Take Over as Host',
  title: 'Take over as host?',
  text: (host: string) =>
    `${host}'s phone has been away while the table waited 3 minutes. You will deal, award the pots and run the table from your phone; ${host} plays on as a player.`,
  confirm: 'Take Over',
  loading: 'Taking over...',
};

/**
 * The host checking or folding for the player to act who is away (ours; the spec has none). `owes` is
 * what that player would have to call.
 */
export const actFor = {
  check: (name: string) => `Check for ${name}`,
  fold: (name: string) => `Fold for ${name}`,
  checkTitle: (name: string) => `Check for ${name}?`,
  foldTitle: (name: string) => `Fold ${name}'s hand?`,
  checkText: (name: string) =>
    `For a player away from the table. Nothing is owed, so ${name} stays in the hand. You can undo it.`,
  foldText: (name: string, owes: string) =>
    `For a player away from the table. ${name} has ${owes} to call, and only they can put chips in. You can undo it.`,
  checking: 'Checking...',
  folding: 'Folding...',
};

/**
 * The host moving the seat of a player whose phone is away to a new phone (ours; the engine's
 * seatLink): the button on the seat, and the dialog with the link. `minutes`: how long the link works.
 */
export const seatLink = {
  button: (name: string) => `Move ${name} to a New Phone`,
  title: (name: string) => `Move ${name} to a New Phone`,
  making: 'Making the link...',
  text: (name: string, minutes: number) =>
    `Open this link on ${name}'s new phone, or scan the code. ${name}'s seat and chips move to it. The link works once, for ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
  qrLabel: (name: string) => `QR code to move ${name} to a new phone`,
  linkLabel: 'Seat link',
  copyLink: 'Copy Link',
  copied: 'Copied!',
  shareLink: 'Share Link',
  copyByHand: 'Press and hold the link to copy it',
  shareTitle: (name: string) => `${name}'s seat in our Chipless game`,
  /** The seat now holds a newer link than this dialog's (made elsewhere): this one no longer works. */
  newer: (name: string) => `A newer link was made for ${name}'s seat. This one no longer works.`,
  /** Said after `text` when the seat held an earlier link, unused: the new one replaces it. */
  replaced: 'The earlier link for this seat no longer works.',
  /** The link's time ran out with the dialog still open. */
  expired: 'This link has expired.',
  newLink: 'Make a New Link',
  /** The player's phone is connected while the dialog is open: the new phone took the seat, or the old one came back. */
  connected: (name: string) => `${name}'s seat is connected again. Nothing more to do.`,
  tryAgain: 'Try Again',
  done: 'Done',
};

export const raise = {
  title: 'Raise',
  /** The player's own round bet ("Current bet" beside "Your stack" read as the bet to call). */
  currentBet: 'Your current bet',
  stack: 'Your stack',
  amount: 'Total Bet Amount',
  min: 'Min',
  max: 'Max',
  limited: "* Limited by opponents' stack sizes",
  minRaise: 'Min Raise',
  pot: 'Pot',
  allIn: 'All-In',
  confirm: 'Confirm Raise',
  loading: 'Raising...',
  cannotRaise: 'A full raise is not possible: you can call, or fold.',
  /** The opponents hold less than a full raise behind (ours: betting.ts raiseError's capped maximum). */
  capped: 'Less than a full raise puts your opponents all-in: All-In bets what they can call.',
};

export const winner = {
  title: 'Declare Winner',
  choose: 'Choose the winner, or several players to split the pot.',
  choosePerPot: "Choose the winners of each pot. A pot's winner is ticked for the side pots they are in too.",
  award: 'Award Pot',
  awardSplit: 'Award Split Pot',
  loading: 'Declaring...',
  chooseSomeone: 'Choose at least one winner for every pot.',
  potTitle: (label: string, amount: string) => `${label}: ${amount}`,
  /** What each ticked winner would get, above the Award button (ours): "Cal gets $30.00, Ana gets $20.00." */
  gets: 'gets',
};

export const rebuy = {
  title: 'Player Rebuy',
  player: 'Player',
  choose: 'Choose a player...',
  /** A player in the select, with their stack (ours). */
  option: (name: string, stack: string) => `${name} · ${stack}`,
  amount: 'Rebuy Amount',
  placeholder: '25.00',
  submit: 'Add Chips',
  loading: 'Adding...',
  errorAmount: 'Please enter a valid positive amount',
  errorPlayer: 'Selected player not found',
};

export const endGame = {
  title: 'End Game',
  text: 'Are you sure you want to end the game? This will show final results and payouts for all players.',
  confirm: 'End Game & Auto-Settle Payouts',
  loading: 'Ending...',
  /**
   * After the spec's text while a hand has chips in its pots (ours): ending the game gives every chip
   * of the unfinished hand back to its owner (engine finishGame), an unpaid showdown's pots too. The
   * audit of session 33: the question did not say so, and a host could end the game before awarding
   * a pot they were about to lose without anyone being told.
   */
  callOff: 'The hand in play is called off: every chip bet in it goes back to its owner.',
};

export const gameOver = {
  title: 'Game Over',
  everyoneChipless: 'Everyone went Chipless!',
  tie: "It's a Tie! Nobody left Chipless!",
  winner: (name: string) => `${name} Left em' all Chipless!`,
  settlements: 'Settlements',
  /** "{from} owes {to}": the word between the two names (the names are set in bold around it). */
  owes: ' owes ',
  noSettlements: 'No settlements needed.',
  rankings: 'Rankings',
  finalChips: 'Final chips',
  net: 'Net',
  left: '(left)',
  /** A player the host removed (ours: the engine's LedgerEntry.removed; "(left)" said it of them too). */
  removed: '(removed)',
  /**
   * The highlighted row's tag (ours): the spec ranks by final chips and highlights the winner, the best
   * net result, who the headline names; with unequal buy-ins or rebuys that row can be far down the list
   * ("Dan Left em' all Chipless!" over Dan at #4 of 4), and a table read #1 as the winner (the session-32 audit).
   */
  winnerTag: 'Winner',
  screenshot: 'Take a screenshot to keep the results.',
  /** The results as text for the group chat (ours; GameOver.tsx, game/standings.ts). */
  copyResults: 'Copy Results',
  shareResults: 'Share Results',
  copied: 'Copied!',
  copyRefused: 'This browser would not copy. Take a screenshot instead.',
  shareTitle: 'Chipless results',
  /** The text's first line: the day the game ended, on the phone's clock ("Nov 27, 2026"). */
  shareHeading: (day: string | null) => (day ? `Chipless results, ${day}` : 'Chipless results'),
  /** A ranking line of the text: the net result first, what a group chat settles by. */
  shareRanking: (place: number, name: string, net: string, finalChips: string) =>
    `${place}. ${name}: net ${net}, final chips ${finalChips}`,
  /** Back to Home asks first: once home, this phone cannot show the results again (ours). */
  leaveTitle: 'Leave the results?',
  leaveText:
    'The home screen keeps them under "Last Game\'s Results" for 12 hours. Copy them or take a screenshot to keep them longer.',
  /** The same on a phone that took the seat by a link: the seat was this phone's for this game only. */
  leaveTextByLink:
    'This phone held the seat for this game only: back home, it cannot show the results again. Copy them or take a screenshot to keep them.',
};

export const log = {
  joined: (name: string, chips: string) => `${name} asks to join with ${chips}`,
  approved: (name: string) => `${name} joined the table`,
  removed: (name: string) => `${name} was removed`,
  left: (name: string) => `${name} left`,
  settings: (sb: string, bb: string) => `Blinds set to ${sb} / ${bb}`,
  seatsArranged: (names: string[]) => `Seats, clockwise: ${names.join(', ')}`,
  sitsOut: (name: string) => `${name} sits out`,
  back: (name: string) => `${name} is back`,
  gameStarted: 'Game started',
  handStarted: (n: number) => `Hand #${n}`,
  smallBlind: (name: string, amount: string) => `${name} posts small blind ${amount}`,
  bigBlind: (name: string, amount: string) => `${name} posts big blind ${amount}`,
  fold: (name: string) => `${name} folds`,
  check: (name: string) => `${name} checks`,
  /** After a check or fold the host made for an away player ("Bob folds (by the host)"). */
  byHost: ' (by the host)',
  call: (name: string, amount: string) => `${name} calls ${amount}`,
  raise: (name: string, total: string) => `${name} raises to ${total}`,
  allIn: (name: string, total: string) => `${name} goes all-in for ${total}`,
  allInSuffix: ' (all-in)',
  returned: (name: string, amount: string) => `${amount} returned to ${name}`,
  stage: (stage: string) => `${stage}`,
  pot: (amount: string, names: string) => `Pot ${amount} to ${names}`,
  /** One winner's share of a split pot ("Ann $5.25"). */
  share: (name: string, amount: string) => `${name} ${amount}`,
  sidePot: (n: string, amount: string, names: string) => `Side pot ${n} ${amount} to ${names}`,
  handCompleted: (n: number) => `Hand #${n} complete`,
  rebuy: (name: string, amount: string) => `${name} rebuys ${amount}`,
  gameEnded: 'Game ended',
  roomDeleted: 'Room closed',
  hostChanged: (from: string, to: string) => `${from} made ${to} the host`,
  seatLinkMade: (name: string) => `Host made a link to move ${name} to a new phone`,
  seatMoved: (name: string) => `${name}'s seat moved to a new phone`,
  seatLinkVoid: (name: string) => `${name}'s phone is back: the link to move ${name} no longer works`,
  hostClaimed: (to: string, from: string) => `${to} took over as host (${from} was away)`,
  /** The host's undo, with the undone command's first line ("Undone by the host: Ana raises to $6.00"). */
  undone: (line: string) => `Undone by the host: ${line}`,
};

/** Ours: what a phone is told, for 6 s, of a change made over its head (table-moments.ts tableNoticeOf). */
export const tableNotices = {
  foldedForYou: 'The host folded for you',
  checkedForYou: 'The host checked for you',
  satYouOut: 'The host sat you out from the next hand',
  broughtYouBack: 'The host brought you back in',
  tookOverFromYou: (name: string) => `${name} took over as host while you were away`,
  madeYouHost: (from: string) => `${from} made you the host`,
};
