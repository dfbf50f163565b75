import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  ClientToServerEvents,
  GoneReason,
  HandshakeAuth,
  RoomSnapshot,
  SeatClaim,
  SeatLinkResponse,
  ServerToClientEvents,
  SessionCredentials,
  WireCommand,
} from '../../shared/protocol';
import { common } from '../texts';
import { newId } from './ids';
import { storage } from './storage';

/**
 * The typed Socket.IO client: the only module that knows about the socket. Components never see it;
 * they get snapshots and send commands through the useRoom hook.
 */
export interface RoomClientEvents {
  /** New credentials from the server (sent on every connection); the client has stored them already. */
  session(creds: SessionCredentials): void;
  room(snapshot: RoomSnapshot): void;
  gone(msg: { roomCode: string; reason: GoneReason }): void;
  connection(connected: boolean): void;
}

export interface RoomClient {
  createRoom(name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  joinRoom(roomCode: string, name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  resume(roomCode: string): Promise<Ack<RoomSnapshot>>;
  /** Sends one engine command with a fresh command id; the server dedupes retries by that id. */
  command(roomCode: string, command: WireCommand): Promise<Ack<{ version: number }>>;
  /** The host: a link moving `playerId`'s seat, their phone away, to a new phone (the engine's seatLink). */
  seatLink(roomCode: string, playerId: string): Promise<Ack<SeatLinkResponse>>;
  /**
   * Takes the seat a link moves to this phone. Answered yes, this page is that player from now on: it
   * stores the seat's credentials and reconnects with them at once, and the connection's `session`
   * says so (the app then resumes the room it remembers: set it before that session comes).
   */
  claimSeat(seat: string): Promise<Ack<SeatClaim>>;
  /**
   * The room whose seat this page holds by a link (room-scoped credentials: that room only), or null
   * when it is its own player.
   */
  seatRoom(): string | null;
  /**
   * Done with the room of a seat held by a link: this page goes back to the browser's own player (kept
   * when the link was claimed; a new one when none was), reconnecting at once without a "Reconnecting…".
   * Nothing when it holds no such seat.
   */
  goBackToOwn(): void;
  close(): void;
}

export type RoomClientFactory = (events: RoomClientEvents) => RoomClient;

/**
 * How long the answer to a request sent on a connected socket may take before the phone calls the
 * connection dead (closes the transport, tells the user to try again). Poker nights run on weak home
 * Wi-Fi and on mobile data in basements, and a slow link is not a dead one:
 * - a bad link has a 1.5–3 s round trip, and a request sent while the first connection is still moving
 *   from HTTP polling to the WebSocket waits behind that upgrade: create and join took 9.5 s and more
 *   than 10 s on a 3 s link (e2e/bad-network.test.ts), so the old 10 s cut live connections and failed
 *   the tap;
 * - a link that stalls holds everything for 8–20 s and then delivers it all: the answer comes at the
 *   stall's end plus a round trip (up to ~23 s).
 * Cutting the connection earlier helps nobody there: the new connection waits behind the same stall
 * or round trips, the answer of the tap in flight is lost, the tap may still land later, and the
 * phone shows "Reconnecting…" on a connection that was fine. 30 s covers a 20 s stall plus a 3 s round
 * trip and an upgrade's, with room for a busy server, and still finds a connection that died silently
 * (a phone that left the Wi-Fi) well before Socket.IO's own heartbeat (~45 s). While waiting, the
 * screen says the connection is slow and that there is no need to tap again (forms.tsx, useSlow).
 */
export const ANSWER_TIMEOUT_MS = 30_000;

/**
 * How long a request made while the socket is known to be down ("Reconnecting…" on screen) waits for
 * the connection to come back and answer. Socket.IO sends it on reconnection; past this it is dropped
 * from the send buffer, never sent later, and the user is told to try again. Nothing is in flight, so
 * a short wait hides no answer: a blip of a second or two still goes through, a phone that stays
 * offline is told so soon.
 */
export const OFFLINE_TIMEOUT_MS = 10_000;
export const NO_CONNECTION_ERROR = common.noConnection;
const NO_CONNECTION: Ack<never> = { ok: false, error: NO_CONNECTION_ERROR };

/** Where and how a room client connects (tests give a server's URL and a short timeout). */
export interface RoomClientOptions {
  /** The server's origin; the page's own by default. */
  url?: string;
  /** How long an answer may take on a connected socket (default ANSWER_TIMEOUT_MS). */
  ackTimeoutMs?: number;
  /** How long a request made while disconnected waits (default OFFLINE_TIMEOUT_MS). */
  offlineTimeoutMs?: number;
  /** Where the page's `pagehide` and `pageshow` come from (default: the window, when there is one). */
  page?: EventTarget;
}

/** The room client of this page: the server that served it. */
export const connectRoomClient: RoomClientFactory = (events) => createRoomClient(events);

/** A room client on `options.url` (the page's origin by default). */
export function createRoomClient(events: RoomClientEvents, options: RoomClientOptions = {}): RoomClient {
  const answerTimeoutMs = options.ackTimeoutMs ?? ANSWER_TIMEOUT_MS;
  const offlineTimeoutMs = options.offlineTimeoutMs ?? OFFLINE_TIMEOUT_MS;
  // Whether the connection is known to be down: it dropped, or could not be made ("Reconnecting…" on
  // screen). Not while the first connection is still being made: on a bad link that takes 3–4 round
  // trips (~10 s at 3 s each), and a Create tapped meanwhile goes out as soon as it is up.
  let down = false;
  // Decided when the request is made: sent on a live connection (or the first one, coming up) it may
  // wait out a slow link; made while the connection is down it only waits for the reconnection.
  const ackTimeoutMs = () => (down ? offlineTimeoutMs : answerTimeoutMs);
  // The identity the server gave this page, presented on every reconnection. Not read back from storage
  // alone: where storage refuses writes (Safari's private mode, a full quota) nothing is stored, and each
  // reconnection (a Wi-Fi blip) came back as a new player, "You were removed from the game.".
  let mine: SessionCredentials | null = null;
  // The browser's own credentials while this page holds a seat by link (`mine` room-scoped), in memory
  // as well as in storage (which may refuse writes).
  let own: SessionCredentials | null = storage.ownCredentials();
  // A seat held by link whose room this browser no longer sits in (its last tab closed on the landing
  // or elsewhere): the browser's own player again, before the first handshake. Not while a leave of
  // that room is still owed (left with no connection): it goes as the seat's player first (use-room.ts).
  const held = storage.credentials();
  if (held?.room !== undefined && storage.roomCode() !== held.room && storage.owedLeave() !== held.room) {
    storage.setCredentials(own);
    storage.setOwnCredentials(null);
    own = null;
  }
  // The token the current handshake presented (a new identity answers it when it is missing or unknown).
  let presented: string | undefined;
  // Set while this page reconnects to take the identity another tab stored: no "Reconnecting…" for it.
  let adopting = false;
  // The credentials' token as this page last left storage (read after its own write, which storage may
  // refuse): one found there that differs was written by another tab since (a seat link claimed there).
  let storedByMe: string | undefined = storage.credentials()?.token;
  const socketOptions = {
    // A function, so every reconnection presents the current token.
    auth: (cb: (data: object) => void) => {
      presented = (mine ?? storage.credentials())?.token;
      cb({ token: presented } satisfies HandshakeAuth);
    },
    // The WebSocket first, HTTP long-polling only where it cannot open (tryAllTransports). Socket.IO's
    // default opens with polling and then upgrades, which on a bad link (3 s round trip) costs ~4 more
    // round trips, and the server drops the connection when the upgrade is not done within its
    // upgradeTimeout (10 s): on every (re)connection a phone came up, then went down again ~13 s
    // later and reconnected, missing the broadcasts meanwhile (e2e/bad-network.test.ts).
    // The second 'websocket' is for the fallback: when the WebSocket fails, tryAllTransports drops the
    // list's head and opens the rest, and only transports left in that list are upgraded to. With
    // ['websocket', 'polling'] a phone whose WebSocket failed once (the server still coming up after a
    // restart, a network just back) stayed on long-polling until its next reconnection; with the
    // WebSocket left after polling, it upgrades as soon as it is in. Where the WebSocket is blocked the
    // upgrade just fails and polling goes on; when polling fails too, the WebSocket is tried once more
    // before the back-off (client.test.ts pins all of this to engine.io-client 6.6.8).
    transports: ['websocket', 'polling', 'websocket'],
    tryAllTransports: true,
  };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> =
    options.url === undefined ? io(socketOptions) : io(options.url, socketOptions);

  socket.on('connect', () => {
    down = false;
    if (!adopting) events.connection(true);
  });
  socket.on('disconnect', () => {
    if (adopting) return;
    down = true;
    events.connection(false);
  });
  // A first connection that fails never connected, so no 'disconnect' comes: say "Reconnecting…"
  // while socket.io keeps trying, rather than a spinner that never explains itself.
  socket.on('connect_error', () => {
    // A reconnection to take another tab's identity that fails is a lost connection like any other.
    adopting = false;
    down = true;
    events.connection(false);
  });
  socket.on('session', (creds) => {
    adopting = false;
    // A new player made for this page (it had no token, or one the server no longer takes) while
    // another tab of this browser stored its own meanwhile: two tabs of a phone new to the app, opened
    // at once (the join link tapped twice), each shook hands with nothing stored. Each then stored its
    // own, the last one kept, and the tab that joined with the other lost its seat on its next reload.
    // The first one stored is the browser's player: this page reconnects as it, and the app never hears
    // of the other (nothing was done with it).
    // Likewise a tab that claimed a seat link: the browser is that seat's player now (client.claimSeat),
    // and this page, reconnecting with the identity it held in memory, stored it back over the seat's:
    // the claiming tab's next reload came back as the old player, the seat lost to this phone.
    const stored = storage.credentials();
    const issued = creds.token !== presented;
    const another = issued || (stored !== null && stored.token !== storedByMe);
    if (another && stored !== null && stored.token !== presented && stored.token !== creds.token) {
      mine = stored;
      storedByMe = stored.token;
      adopting = true;
      socket.disconnect().connect();
      return;
    }
    mine = creds;
    storage.setCredentials(creds);
    storedByMe = storage.credentials()?.token;
    events.session(creds);
  });
  socket.on('room', (snapshot) => events.room(snapshot));
  socket.on('gone', (msg) => events.gone(msg));

  // A page put in the back/forward cache (a reflex Back to the chat the link came from) is frozen with
  // its connection open: the table saw its player online, and the host's "Fold for" and the take-over
  // waited, until the server's heartbeat gave up (~45 s; the history audit, session 38). The connection
  // closes as the page is put away and opens again when it comes back (the app then resumes its room).
  // Only a page kept (`persisted`): one unloaded closes its connection anyway.
  const page = options.page ?? (typeof window === 'undefined' ? undefined : window);
  let closed = false;
  const onPageHide = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) socket.disconnect();
  };
  const onPageShow = (event: Event) => {
    if ((event as PageTransitionEvent).persisted && !closed && !socket.connected) socket.connect();
  };
  page?.addEventListener('pagehide', onPageHide);
  page?.addEventListener('pageshow', onPageShow);

  const withTimeout = <T>(send: (ack: (err: Error | null, res: Ack<T>) => void) => void) =>
    new Promise<Ack<T>>((resolve) => {
      send((err, res) => {
        if (!err) return resolve(res);
        // No answer in time on a socket that still says it is connected: the connection is most likely
        // dead without knowing it (a phone that left the Wi-Fi, a NAT that dropped it), which Socket.IO's
        // heartbeat notices only after ~45 s, with every tap failing meanwhile. Closing the transport
        // reconnects now (and the app resumes the room). Only after ANSWER_TIMEOUT_MS: a slow or
        // stalled link is alive, and cutting it would cost the answer and a reconnection over it.
        if (socket.connected) socket.io.engine?.close();
        resolve(NO_CONNECTION);
      });
    });

  // The id of the last request whose answer never came ('No connection…'), by what it asked. The
  // server may well have carried it out (the answer was lost, not the request), so the same request
  // asked again goes with the same id and the server answers it as a repeat instead of applying it a
  // second time: a rebuy retried after a lost answer must add the chips once, and a create retried
  // must not open a second room. A different request, or any answer, clears it. The one cost: two
  // identical requests meant as two, the first's answer lost, count once; the screen shows it.
  let unanswered: { key: string; id: string } | null = null;
  const requestId = (key: string) => (unanswered?.key === key ? unanswered.id : newId());
  const settle = (key: string, id: string, res: Ack<unknown>) => {
    unanswered = res.ok || res.error !== NO_CONNECTION_ERROR ? null : { key, id };
  };
  const once = <T>(key: string, send: (id: string) => Promise<Ack<T>>): Promise<Ack<T>> => {
    const id = requestId(key);
    return send(id).then((res) => {
      settle(key, id, res);
      return res;
    });
  };

  return {
    createRoom: (name, startingChips) =>
      once(JSON.stringify(['createRoom', name, startingChips]), (commandId) =>
        withTimeout((ack) =>
          socket.timeout(ackTimeoutMs()).emit('createRoom', { commandId, name, startingChips }, ack),
        ),
      ),
    joinRoom: (roomCode, name, startingChips) =>
      withTimeout((ack) =>
        socket
          .timeout(ackTimeoutMs())
          .emit('joinRoom', { commandId: newId(), roomCode, name, startingChips }, ack),
      ),
    resume: (roomCode) =>
      withTimeout((ack) => socket.timeout(ackTimeoutMs()).emit('resume', { roomCode }, ack)),
    command: (roomCode, command) =>
      once(JSON.stringify(['command', roomCode, command]), (commandId) =>
        withTimeout((ack) =>
          socket.timeout(ackTimeoutMs()).emit('command', { commandId, roomCode, command }, ack),
        ),
      ),
    seatLink: (roomCode, playerId) =>
      once(JSON.stringify(['seatLink', roomCode, playerId]), (commandId) =>
        withTimeout((ack) =>
          socket.timeout(ackTimeoutMs()).emit('seatLink', { commandId, roomCode, playerId }, ack),
        ),
      ),
    claimSeat: (seat) =>
      withTimeout<SeatClaim>((ack) => socket.timeout(ackTimeoutMs()).emit('claimSeat', { seat }, ack)).then(
        (res) => {
          if (res.ok) {
            // The seat's identity, presented from the next handshake on: made now, without a
            // "Reconnecting…" (the 'session' that answers it clears `adopting`). The browser's own is
            // kept to go back to (goBackToOwn); a second link claimed meanwhile keeps the first's.
            if (mine !== null && mine.room === undefined) {
              own = mine;
              storage.setOwnCredentials(own);
            }
            mine = res.data.credentials;
            storage.setCredentials(mine);
            storedByMe = storage.credentials()?.token;
            adopting = true;
            socket.disconnect().connect();
          }
          return res;
        },
      ),
    seatRoom: () => mine?.room ?? null,
    goBackToOwn: () => {
      if (mine?.room === undefined) return;
      // Stored by the tab that claimed, when this one took the seat from storage (the session, above):
      // its memory never held them, and a new player here lost the browser's own for good.
      mine = own ?? storage.ownCredentials();
      own = null;
      storage.setCredentials(mine);
      storage.setOwnCredentials(null);
      storedByMe = storage.credentials()?.token;
      adopting = true;
      socket.disconnect().connect();
    },
    close: () => {
      closed = true;
      page?.removeEventListener('pagehide', onPageHide);
      page?.removeEventListener('pageshow', onPageShow);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
