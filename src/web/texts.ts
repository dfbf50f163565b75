/**
 * Every user-facing word of the web app's first page (the landing and its dialogs, what every
 * screen shares, the static pages), grouped per screen; the room's screens have theirs in
 * room-texts.ts, which loads with them, not on the first page (its JavaScript budget,
 * e2e/README.md). Wording follows SPEC.md section 2 (labels, banners, confirmations) and section 8
 * (errors) exactly; the few additions (reconnecting, notices) are ours. Functions build the texts
 * that carry names or amounts; amounts arrive already formatted by the engine's formatCents.
 */
import { CONVERSION_ERRORS } from '../engine';
import { CREATE_FAILED, JOIN_ROOM_NOT_FOUND } from '../shared/protocol';

const APP_NAME = 'Chipless';

export const common = {
  cancel: 'Cancel',
  close: 'Close',
  back: 'Back',
  backHome: 'Back to Home',
  reconnecting: 'Reconnecting…',
  reconnectingHint: 'Your seat is safe. Picking up where you left off.',
  resuming: 'Getting back to your game…',
  /** While a room's screen is still loading (its code, after Create Room or Join Room on a slow link). */
  loadingRoom: 'Opening the game…',
  noConnection: 'No connection right now. Please try again in a moment.',
  /** Under a button whose request has waited a while for its answer (forms.tsx, useSlow). */
  slowConnection: 'Slow connection, still sending. No need to tap again.',
  crashedTitle: 'Something went wrong',
  crashedText: 'Your seat is safe. Reload to pick up where you left off.',
  /** Ours, under it while the phone is offline (ErrorBoundary.tsx): a reload then shows the browser's error page. */
  crashedOffline: 'No connection right now: the page reloads by itself once the phone is back online.',
  reload: 'Reload',
  dismiss: 'Dismiss',
  host: 'Host',
  you: '(You)',
  online: 'online',
  offline: 'offline',
};

export const landing = {
  title: APP_NAME,
  tagline: 'Play poker without chips',
  start: 'Start a Game',
  join: 'Join with Code',
  /** Ours: the results of a game this phone left, opened again (use-room.ts lastResults). */
  lastResults: "Last Game's Results",
  handsDealt: (count: string) => `${count} ${count === '1' ? 'hand' : 'hands'} dealt`,
  support: 'Support Chipless',
  info: 'How to play, FAQ and contact',
  about: 'About',
  faq: 'FAQ',
};

export const menu = {
  title: 'Menu',
  howToPlay: 'How to Play',
  steps: [
    'Deal real cards: grab a deck and deal as usual. The app never deals cards.',
    'Everyone joins from their own phone with the 5-character room code.',
    'The host runs the table: stages, winners and rebuys.',
    'End the game to see who owes whom.',
    'Enjoy the game!',
  ],
  faq: 'FAQ',
  contact: 'Contact',
  contactText: 'Questions or ideas? Write to us:',
};

export const createRoom = {
  title: 'Start a Game',
  name: 'Your Name',
  namePlaceholder: 'Enter your name',
  chips: 'Starting Chips',
  chipsHint: 'In dollars, from 1 to 10,000',
  submit: 'Create Room',
  loading: 'Creating...',
  errorName: 'Please enter your name',
  errorFailed: CREATE_FAILED,
};

/**
 * What is wrong with Starting Chips as typed (both forms): the spec's conversion and join errors, the
 * engine's words (a test holds them equal to its MSG; importing MSG would put every engine message on
 * the first page).
 */
export const chipsErrors = {
  format: CONVERSION_ERRORS.format,
  tooLow: 'Starting chips must be at least $1.00',
  tooHigh: 'Starting chips cannot be more than $10,000.00',
};

export const joinRoom = {
  title: 'Join a Game',
  code: 'Room Code',
  codePlaceholder: 'ABCDE',
  name: 'Your Name',
  namePlaceholder: 'Enter your name',
  chips: 'Starting Chips',
  chipsHint: 'In dollars, from 1 to 10,000',
  submit: 'Join Room',
  loading: 'Joining...',
  errorMissing: 'Please enter both room code and your name',
  errorFailed: 'Failed to join room. Please try again.',
};

export const notices = {
  deleted: 'The host ended the game session.',
  removed: 'You were removed from the game.',
  /** You left from another tab or phone: home, with nothing to explain. */
  left: null,
  expired: 'The room closed after a while without activity.',
  not_found: JOIN_ROOM_NOT_FOUND,
  resumeFailed: 'Your previous game is no longer available.',
  /** A leave made without a connection (ours): home at once, the leave sent once back online. */
  leftOffline:
    'You left the game. Your phone is offline, so the table will see you go once it is back online.',
};

/**
 * A join link opened on a phone that shows another room (ours): the seat it has stays on screen, and
 * the link waits until the player leaves that game (Home.tsx).
 */
export const joinLink = {
  label: 'Join link',
  seated: (link: string, current: string) =>
    `This link is for game ${link}. Leave game ${current} first to join it.`,
  afterResults: (link: string) => `This link is for game ${link}. Tap Back to Home to join it.`,
};

/**
 * A seat link opened on this phone (/?seat=…, made by the host's "Move Bob to a New Phone"; ours): the
 * phone takes the seat of a player whose phone is away. `current`: the game this phone already plays in.
 */
export const seatLinkOpened = {
  label: 'Seat link',
  taking: 'Taking your seat…',
  seated: (current: string) =>
    `This link moves a seat to this phone, but this phone already plays in game ${current}. Open the link in a private tab, or leave game ${current} first.`,
  /**
   * The same on a phone that holds its seat there by a link (a friend's, lent): leaving would take that
   * player out of the game; giving the phone back (the leave question's "Give This Phone Back") does not.
   */
  seatedByLink: (current: string) =>
    `This link moves a seat to this phone, but this phone holds a seat in game ${current} by a link. Open the link in a private tab, or give this phone back first (under the leave button).`,
  /**
   * The link of another player's seat at this phone's own table (Cal opens the link the host made for
   * Bob): leaving the game first, as for a phone in another game, would cost Cal his own seat. The
   * engine refuses such a claim too (seat-link.ts claimSeat), in words of its own.
   */
  sameGame: (name: string) =>
    `This link moves ${name}'s seat to ${name}'s new phone. This phone already plays in this game: give the link to ${name}.`,
};

export const pages = {
  back: 'Back',
  startCta: 'Start a Game',
};
