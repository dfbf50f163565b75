import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isInRoom, MSG } from '../../engine';
import type { Room } from '../../engine/types';
import { logCovers, mergeSnapshot } from '../../shared/log-delta';
import {
  type Ack,
  GAME_STILL_GOING,
  type RoomSnapshot,
  type SeatClaim,
  type SeatLinkResponse,
  SOMETHING_WENT_WRONG,
  TOO_MANY_REQUESTS,
  type WireCommand,
} from '../../shared/protocol';
import { common, notices } from '../texts';
import { connectRoomClient, NO_CONNECTION_ERROR, type RoomClient, type RoomClientFactory } from './client';
import { storage } from './storage';

export type Connection = 'connecting' | 'online' | 'offline';

/** What the home screen needs from the realtime connection. */
/** How a screen sends a command for the player (RoomApi's `send`; screens read only whether it went). */
export type SendCommand = (command: WireCommand) => Promise<Ack<unknown>>;

export interface RoomApi {
  connection: Connection;
  snapshot: RoomSnapshot | null;
  /** This browser's player id (from the server's session credentials). */
  playerId: string | null;
  /**
   * The room whose seat this phone holds by a link (room-scoped credentials, client.ts), or null: that
   * room's results go with the seat once the phone leaves them (forget).
   */
  seatRoom: string | null;
  /** True while a room remembered from an earlier visit is being resumed. */
  resuming: boolean;
  /** A short notice for the home screen (the room is gone, you were removed...). */
  notice: string | null;
  createRoom(name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  joinRoom(roomCode: string, name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  send(command: WireCommand): Promise<Ack<{ version: number }>>;
  /** The host: a link moving `playerId`'s seat in the current room to a new phone (client.ts seatLink). */
  seatLink(playerId: string): Promise<Ack<SeatLinkResponse>>;
  /**
   * Takes the seat a link moves to this phone (`?seat=`): answered yes, this phone is that player and
   * goes to the link's room (resuming, as after a reload). Whatever room this tab showed is left
   * behind unsaid (the caller makes sure it is not a seat of this phone's).
   */
  claimSeat(seat: string): Promise<Ack<SeatClaim>>;
  /** Sends `leave` and goes back home. */
  leave(): Promise<Ack<unknown>>;
  /**
   * A phone holding a seat by a link gives the phone back: home at once, the seat left at the table
   * (nothing is sent: the server sees the phone go), and the phone its own player again (forget).
   */
  handBack(): void;
  /**
   * Goes back home at once from a game that is over, and tells the server this phone stopped watching
   * the room (a `leave`, which changes nothing in an ended game) without waiting for the answer.
   */
  goHome(): void;
  /**
   * The room code of the last game this phone left, while the server may still keep its results, or
   * null: a finished game left with "Back to Home" (LAST_RESULTS_MS), or a game its player left, or was
   * removed from, while it was on (LEFT_GAME_RESULTS_MS; its results are theirs once the host ends it).
   */
  lastResults: string | null;
  /**
   * Opens that game's results again: resumes the room as a reload would have (the server answers
   * GAME_STILL_GOING for a game its player left that has not ended yet).
   */
  openLastResults(): void;
  dismissNotice(): void;
}

const offline = <T>(): Promise<Ack<T>> => Promise.resolve({ ok: false, error: NO_CONNECTION_ERROR });

/**
 * How long the home screen offers a finished game's results again after "Back to Home": as long as
 * the server keeps a finished game by default (PLAYING_IDLE_MS, 12 hours). "How much do I owe Bob?"
 * comes up after the phone went back home (the session-30 audit); a room the server no longer has
 * answers "Your previous game is no longer available." and the offer goes.
 */
export const LAST_RESULTS_MS = 12 * 60 * 60 * 1000;

/**
 * How long the home screen offers the results of a game its player left while it was on: the game goes
 * on for hours after they leave, and the server keeps the results LAST_RESULTS_MS from its end. Offered
 * for as long as a finished game's, the offer was gone the next morning while the server still had the
 * results (the session-32 review).
 */
export const LEFT_GAME_RESULTS_MS = 2 * LAST_RESULTS_MS;

/** The game whose results are offered, if still within LAST_RESULTS_MS (LEFT_GAME_RESULTS_MS for one left). */
function freshLastResults(): string | null {
  const last = storage.lastResults();
  if (last === null) return null;
  return Date.now() - last.at < (last.departed ? LEFT_GAME_RESULTS_MS : LAST_RESULTS_MS) ? last.code : null;
}

/**
 * Whether `me` is seated in `code`'s game while it is on, as `room` (the held snapshot's) shows it:
 * leaving or removed then, the engine keeps them in its results (a ledger entry), which the server
 * shows them once the game has ended. A player still waiting for approval gets no entry, and a lobby
 * has no results.
 */
function seatedInGame(room: Room | undefined, me: string | null, code: string): boolean {
  if (!room || room.roomCode !== code || room.status !== 'PLAYING' || me === null) return false;
  return isInRoom(room, me) && room.players[me]?.isApproved === true;
}

/**
 * How long a hole in the held log waits for the broadcast that fills it (one that crossed a later one,
 * Redis mode) before the whole room is asked for again. Broadcasts cross by a few milliseconds.
 */
export const LOG_GAP_WAIT_MS = 300;

/** How long to wait before asking again for a remembered room whose resume timed out. */
export const RESUME_RETRY_MS = 3_000;

/**
 * How many times in a row a resume the server failed to carry out ('Something went wrong', a hiccup
 * that says nothing about the seat) is asked again before the phone gives up on the room. No answer
 * at all is asked again for as long as it takes; any other answer (the room is gone, the player is
 * not in it) forgets the room at once.
 */
export const RESUME_SERVER_RETRIES = 5;

/**
 * Opens the socket for the lifetime of the calling component (inside an effect, so React's
 * StrictMode double mount opens and closes one cleanly), keeps the newest snapshot of the current
 * room and resumes the remembered room on every (re)connection.
 */
export function useRoom(factory: RoomClientFactory = connectRoomClient): RoomApi {
  const clientRef = useRef<RoomClient | null>(null);
  const codeRef = useRef<string | null>(storage.roomCode());
  const leavingRef = useRef<string | null>(null);
  /**
   * A room this phone left while it had no connection: the leave is sent when the phone is back online
   * (the spec: a failed leave never blocks the user). Leaving is idempotent on the server (a player no
   * longer in the room, or a game that has ended, changes nothing), so a leave that did land before its
   * answer was lost is harmless sent again. Kept in storage too, so a reload before the phone is back
   * online still sends it.
   */
  const owedLeaveRef = useRef<string | null>(storage.owedLeave());
  const onlineRef = useRef(false);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [snapshot, setSnapshot] = useState<RoomSnapshot | null>(null);
  const [playerId, setPlayerId] = useState<string | null>(() => storage.credentials()?.playerId ?? null);
  const playerIdRef = useRef(playerId);
  const [seatRoom, setSeatRoom] = useState<string | null>(() => storage.credentials()?.room ?? null);
  const [resuming, setResuming] = useState<boolean>(() => codeRef.current !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const [lastResults, setLastResults] = useState<string | null>(freshLastResults);
  /** Asks for the room now (the effect's resumeRemembered, while connected). */
  const resumeRef = useRef<((code: string) => void) | null>(null);
  /** The room this tab is asking for because another tab entered it (onStorage), until it is in. */
  const followedRef = useRef<string | null>(null);
  /** The room whose results "Last Game's Results" last asked for (openLastResults). */
  const openingResultsRef = useRef<string | null>(null);
  /** The finished game offered again is `code`, and the server no longer has it: no more offer. */
  const dropLastResults = useCallback((code: string) => {
    if (storage.lastResults()?.code !== code) return;
    storage.setLastResults(null);
    setLastResults(null);
  }, []);
  /** Offers `code`'s results on the home screen from now on: a finished game's, or one `departed` from. */
  const keepLastResults = useCallback((code: string, departed = false) => {
    storage.setLastResults(departed ? { code, at: Date.now(), departed } : { code, at: Date.now() });
    setLastResults(code);
  }, []);

  // The snapshot as held (also in state, for rendering): broadcasts are folded into it (log-delta.ts).
  const heldRef = useRef<RoomSnapshot | null>(null);
  // A full snapshot asked for because the held log has a hole; one at a time.
  const refetchingRef = useRef(false);
  // The wait for a late broadcast to fill the hole (LOG_GAP_WAIT_MS), cleared on unmount, and the
  // seqs it waits for ([from, to)).
  const gapTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const gapRef = useRef<{ from: number; to: number } | null>(null);

  /** Drops the room this tab shows (forget, below, without going back to the browser's own player). */
  const dropRoom = useCallback(() => {
    // A wait for a hole in this room's log ends with it (the next room's holes are its own).
    clearTimeout(gapTimerRef.current);
    gapRef.current = null;
    refetchingRef.current = false;
    // Only this tab's room: another tab of this browser may have entered another since (tonight's room
    // joined in a new tab while this one still showed last game's results), and its next reload would
    // otherwise find no room.
    if (storage.roomCode() === codeRef.current) storage.setRoomCode(null);
    codeRef.current = null;
    heldRef.current = null;
    setSnapshot(null);
    setResuming(false);
  }, []);

  /**
   * Drops the room this tab shows. A seat this phone held by a link (room-scoped credentials, client.ts)
   * goes with its room: the phone is its own player again (a friend's phone that took Bob's seat is
   * the friend's once Bob's game is over for it), and that room's results, which only the seat could
   * open, are offered no more. After whatever the caller does next in the same turn (a departure's
   * results offered, below), so that offer is the one withdrawn. A leave of that room still owed (Leave
   * with no connection) goes first, as the seat's player (payOwedLeave, in the effect): sent as the
   * phone's own player, who is not in that game, it took nobody out, and Bob stayed at the table.
   */
  const forget = useCallback(() => {
    const code = codeRef.current;
    dropRoom();
    if (code === null || clientRef.current?.seatRoom() !== code) return;
    queueMicrotask(() => {
      if (storage.lastResults()?.code === code) {
        storage.setLastResults(null);
        setLastResults(null);
      }
      if (owedLeaveRef.current !== code) clientRef.current?.goBackToOwn();
    });
  }, [dropRoom]);

  const enter = useCallback((next: RoomSnapshot) => {
    // In a room: a follow under way (onStorage) is over, whichever room this is.
    followedRef.current = null;
    codeRef.current = next.room.roomCode;
    // Written when it changed only (a read is cheap; a write is ~1 ms a broadcast on a slow phone, the
    // only app code in a late night's profile, session 34). A game still on takes the key back from
    // another tab (its seat is the one to come back to; a key another tab cleared is written again).
    // A game that is over never does: its code is in the key already when this tab opened it (a reload,
    // "Last Game's Results", the game ending here), so a different key is another tab's doing. Ben's
    // old tab on last game's results wrote it back over tonight's room on every broadcast (a player
    // going home), and his new tab's reload opened the old results (the tabs audit); written back into
    // a key his other tab's "Back to Home" had just emptied, it sent that tab, on the landing, back to
    // the results ('storage' below), once for every friend who went home.
    if (storage.roomCode() !== next.room.roomCode && next.room.status !== 'ENDED')
      storage.setRoomCode(next.room.roomCode);
    const held = heldRef.current;
    const merged = mergeSnapshot(held, next);
    heldRef.current = merged.snapshot;
    setSnapshot(merged.snapshot);
    if (!merged.missing || !clientRef.current) return;
    const gap = gapRef.current;
    // Another hole while one is waited for: the wait's check covers it too.
    if (gap && next.logFrom !== undefined) gap.to = Math.max(gap.to, next.logFrom);
    if (refetchingRef.current) return;
    // Some of the hand log never arrived: ask for the whole room again.
    refetchingRef.current = true;
    const code = next.room.roomCode;
    const refetch = () => {
      const client = clientRef.current;
      if (!client || codeRef.current !== code) {
        refetchingRef.current = false;
        return;
      }
      void client.resume(code).then((res) => {
        refetchingRef.current = false;
        if (res.ok && codeRef.current === code) enter(res.data);
      });
    };
    if (held === null || held.room.roomCode !== code || next.logFrom === undefined) return refetch();
    // With several server processes (Redis mode) two broadcasts can cross: the later one arrives first
    // and the hole is the earlier one, a few ms behind. Waited for a moment before a resume (~13 KB)
    // is asked for (session 36's race audit: one resume a crossing).
    const waited = { from: held.room.nextEventSeq, to: next.logFrom };
    gapRef.current = waited;
    gapTimerRef.current = setTimeout(() => {
      gapTimerRef.current = undefined;
      gapRef.current = null;
      const now = heldRef.current;
      if (now && now.room.roomCode === code && logCovers(now.room.log, waited.from, waited.to)) {
        refetchingRef.current = false;
        return;
      }
      refetch();
    }, LOG_GAP_WAIT_MS);
  }, []);

  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    let serverFailures = 0;
    /**
     * Asks for the remembered room. A timeout or a server hiccup keeps the seat and asks again a little
     * later: a new connection would ask anyway, but a connection that stays up while one answer got
     * lost (a busy server, a dropped packet) would otherwise leave the phone on "Getting back to your
     * game…".
     */
    const resumeRemembered = (code: string) => {
      clearTimeout(retry);
      void client.resume(code).then((res) => {
        if (closed || codeRef.current !== code) return;
        // The server failing to carry it out, or a rate limit: neither says the seat is gone, so it
        // asks again, a few times, before it gives the seat up.
        const serverHiccup =
          !res.ok && (res.error === SOMETHING_WENT_WRONG || res.error === TOO_MANY_REQUESTS);
        serverFailures = serverHiccup ? serverFailures + 1 : 0;
        if (res.ok) {
          enter(res.data);
          setResuming(false);
        } else if (
          res.error === NO_CONNECTION_ERROR ||
          (serverHiccup && serverFailures <= RESUME_SERVER_RETRIES)
        ) {
          retry = setTimeout(() => resumeRemembered(code), RESUME_RETRY_MS);
        } else if (followedRef.current === code) {
          // Another tab's room, followed (onStorage), that this tab cannot enter: the guess was wrong,
          // nothing more. No notice, no offer of results, and the other tab's room stays in storage
          // (forget would clear it). The session-39 review: "You were removed from the game." here
          // when the other tab opened the results of a game this player had left.
          followedRef.current = null;
          codeRef.current = null;
          setResuming(false);
        } else if (res.error === GAME_STILL_GOING) {
          // A game this player left, or was removed from, that is still on. Asked for its results
          // ("Last Game's Results"): not yet. Asked for the seat (a phone that slept through its
          // removal, or a leave from another tab, whose 'gone' it never heard): the seat is gone, as
          // 'You were removed…' said before such a player got results; they are offered from now on.
          forget();
          setNotice(openingResultsRef.current === code ? GAME_STILL_GOING : notices.removed);
          keepLastResults(code, true);
        } else {
          forget();
          // A seat held by an earlier link's credentials, moved on to another phone since (the
          // engine's heldByLink): the game is there, only not this phone's; the server's sentence says so.
          setNotice(res.error === MSG.seatHeldElsewhere ? res.error : notices.resumeFailed);
          dropLastResults(code);
        }
      });
    };
    /** Sends the leave owed since an offline leave, until an answer other than 'no connection' comes. */
    const payOwedLeave = () => {
      const code = owedLeaveRef.current;
      if (code === null) return;
      void client.command(code, { type: 'leave' }).then((res) => {
        if (owedLeaveRef.current === code && (res.ok || res.error !== NO_CONNECTION_ERROR)) {
          owedLeaveRef.current = null;
          storage.setOwedLeave(null);
          // Left from a seat held by link (forget waited for it): the phone is its own player again.
          if (!closed && client.seatRoom() === code && codeRef.current !== code) client.goBackToOwn();
        }
      });
    };
    const client = factory({
      connection: (connected) => {
        onlineRef.current = connected;
        setConnection(connected ? 'online' : 'offline');
      },
      session: (creds) => {
        playerIdRef.current = creds.playerId;
        setPlayerId(creds.playerId);
        setSeatRoom(creds.room ?? null);
        payOwedLeave();
        const code = codeRef.current;
        if (!code) {
          setResuming(false);
          return;
        }
        resumeRemembered(code);
      },
      room: (next) => {
        if (next.room.roomCode === codeRef.current) enter(next);
      },
      gone: ({ roomCode, reason }) => {
        if (roomCode === leavingRef.current) return;
        if (roomCode !== codeRef.current) return;
        // A followed room (onStorage): the server says 'gone' before it refuses a resume of a room it no
        // longer has (not_found) or one this player is not in (removed), so the refusal found the follow
        // already dropped, with a notice and the other tab's room cleared from storage. Dropped as
        // quietly as the refusal drops it (resumeRemembered).
        if (followedRef.current === roomCode) {
          followedRef.current = null;
          codeRef.current = null;
          setResuming(false);
          return;
        }
        // The host's own other tab: they ended the session themselves, nothing to tell them.
        const byMe = reason === 'deleted' && heldRef.current?.room.hostId === playerIdRef.current;
        // Removed from the table (or left from another tab) during the game: its results stay theirs.
        const keep =
          (reason === 'removed' || reason === 'left') &&
          seatedInGame(heldRef.current?.room, playerIdRef.current, roomCode);
        forget();
        // The server answers a resume of a room it no longer has with this notice (not_found), before
        // the resume's own answer: the finished game offered again is gone too. A removal keeps an offer
        // made before (a player who left, came back asking to join and was denied still has results).
        if (keep) keepLastResults(roomCode, true);
        else if (reason !== 'removed' && reason !== 'left') dropLastResults(roomCode);
        // 'not_found' only answers a resume (a join's refusal comes with its answer): the phone asked
        // for the room it remembered, nobody typed a code to check.
        setNotice(byMe ? null : reason === 'not_found' ? notices.resumeFailed : notices[reason]);
      },
    });
    clientRef.current = client;
    resumeRef.current = (code) => {
      if (onlineRef.current) resumeRemembered(code);
    };
    // Back or Forward can bring this page back from the browser's back/forward cache as it was left,
    // while another page of the same tab has joined or created a room since: the join link opened in
    // the tab that showed the landing, and a reflex Back restored that landing, offering "Start a
    // Game" and "Join with Code" to a player seated at the table (the history audit). The room this
    // phone sits in is the one in storage; a page restored with another goes to it. Nothing stored:
    // nothing to go to (storage may be refused), and a seat left from the other page is the server's
    // to say on the next resume.
    const onPageShow = (event: PageTransitionEvent) => {
      const stored = storage.roomCode();
      if (!event.persisted || stored === null || stored === codeRef.current) return;
      clearTimeout(retry);
      clearTimeout(gapTimerRef.current);
      gapRef.current = null;
      refetchingRef.current = false;
      heldRef.current = null;
      codeRef.current = stored;
      followedRef.current = null;
      setSnapshot(null);
      setNotice(null);
      setResuming(true);
      if (onlineRef.current) resumeRemembered(stored);
    };
    // Another tab of this browser entered a room (the same player: identity and room are shared) while
    // this one shows the landing: this one goes there too. Left on the landing, it offered Start a Game
    // and Join with Code to a seated player, and a room created there made one player a member of two
    // rooms, the tabs then writing each its own over the other's in storage (the tabs audit). A tab
    // that shows a room stays in it: what the other tab does with its own room is not this one's.
    const onStorage = (event: StorageEvent) => {
      if (!storage.isRoomCodeKey(event.key) || codeRef.current !== null) return;
      const stored = storage.roomCode();
      if (stored === null) return;
      clearTimeout(retry);
      codeRef.current = stored;
      followedRef.current = stored;
      setNotice(null);
      setResuming(true);
      if (onlineRef.current) resumeRemembered(stored);
    };
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('storage', onStorage);
    return () => {
      closed = true;
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('storage', onStorage);
      resumeRef.current = null;
      clearTimeout(retry);
      clearTimeout(gapTimerRef.current);
      gapRef.current = null;
      refetchingRef.current = false;
      clientRef.current = null;
      client.close();
    };
  }, [factory, enter, forget, dropLastResults, keepLastResults]);

  /** Creating or joining: on success the room is entered and any old notice goes. */
  const takeSeat = useCallback(
    async (request: (client: RoomClient) => Promise<Ack<RoomSnapshot>>) => {
      const client = clientRef.current;
      if (!client) return offline<RoomSnapshot>();
      const res = await request(client);
      if (res.ok) {
        setNotice(null);
        openingResultsRef.current = null;
        enter(res.data);
      }
      return res;
    },
    [enter],
  );

  const createRoom = useCallback(
    (name: string, startingChips: number) => takeSeat((c) => c.createRoom(name, startingChips)),
    [takeSeat],
  );

  const joinRoom = useCallback(
    (roomCode: string, name: string, startingChips: number) =>
      takeSeat((c) => c.joinRoom(roomCode, name, startingChips)),
    [takeSeat],
  );

  const send = useCallback((command: WireCommand) => {
    const client = clientRef.current;
    const code = codeRef.current;
    if (!client || !code) return offline<{ version: number }>();
    return client.command(code, command);
  }, []);

  const seatLink = useCallback((playerId: string) => {
    const client = clientRef.current;
    const code = codeRef.current;
    if (!client || !code) return offline<SeatLinkResponse>();
    return client.seatLink(code, playerId);
  }, []);

  const claimSeat = useCallback(
    async (seat: string) => {
      const client = clientRef.current;
      if (!client) return offline<SeatClaim>();
      // The game-over screen of this phone's own game (a seat it holds by link is not its own): offered
      // on the home screen, as Back to Home from it would (goHome). The friend's phone that sat on her
      // own results when Bob borrowed it had them no more once given back (the seat link's exploratory
      // test): never offered, and its room in storage replaced by Bob's.
      const shown = heldRef.current?.room;
      const ownResults =
        shown?.status === 'ENDED' &&
        shown.roomCode === codeRef.current &&
        client.seatRoom() !== shown.roomCode
          ? shown.roomCode
          : null;
      const res = await client.claimSeat(seat);
      if (!res.ok) return res;
      if (ownResults !== null) keepLastResults(ownResults);
      // The client reconnects as the seat's player; its session resumes the room remembered here. A leave
      // the browser's own player still owed is dropped: sent as the seat's player, it would take Bob out
      // of the game he just got back to when it is the same room (a phone that asked to join it before
      // the host made the link). Last game's results stay: they are the browser's own player's, offered
      // again once the phone is its own again (forget).
      owedLeaveRef.current = null;
      storage.setOwedLeave(null);
      dropRoom();
      setNotice(null);
      openingResultsRef.current = null;
      codeRef.current = res.data.roomCode;
      storage.setRoomCode(res.data.roomCode);
      setResuming(true);
      return res;
    },
    [dropRoom, keepLastResults],
  );

  const handBack = useCallback(() => forget(), [forget]);

  const leave = useCallback(async () => {
    const client = clientRef.current;
    const code = codeRef.current;
    if (!client || !code) {
      forget();
      return { ok: true, data: null } as const;
    }
    // No connection ("Reconnecting…" on screen): home at once, the leave sent once the phone is back
    // online, rather than ten seconds of "Leaving..." and an error (the spec: a failed leave never
    // blocks the user).
    const playing = seatedInGame(heldRef.current?.room, playerIdRef.current, code);
    const owe = () => {
      owedLeaveRef.current = code;
      storage.setOwedLeave(code);
      if (playing) keepLastResults(code, true);
      forget();
      setNotice(notices.leftOffline);
      return { ok: true, data: null } as const;
    };
    if (!onlineRef.current) return owe();
    leavingRef.current = code;
    const res = await client.command(code, { type: 'leave' });
    // The mark lasts only while the leave is on its way: once forgotten, a late 'gone' for this code
    // is ignored anyway (it is not the current room), and a mark kept would also ignore the 'gone' of
    // the same room joined again later.
    leavingRef.current = null;
    // The connection dropped on the way: the same, the leave owed.
    if (!res.ok && res.error === NO_CONNECTION_ERROR) return owe();
    // Any other answer means we are out (a room that no longer exists included). Left during the game
    // (the host's leave ends it): its results are on the home screen, now or once the host ends it.
    if (playing && res.ok) keepLastResults(code, true);
    forget();
    return { ok: true, data: null } as const;
  }, [forget, keepLastResults]);

  const goHome = useCallback(() => {
    const client = clientRef.current;
    const code = codeRef.current;
    const held = heldRef.current?.room;
    const ended = held?.status === 'ENDED';
    // A player who left during the game sees its results unsubscribed (the server's resume): there
    // is nothing to stop watching, and a leave from a non-member would cost the phone's IP a lookup.
    const me = playerIdRef.current;
    const outside = held !== undefined && me !== null && !isInRoom(held, me);
    forget();
    if (code && ended) keepLastResults(code);
    // Kept watching, a phone left open on the home screen would show its player online in the old room
    // and keep the finished room from idle cleanup. Its answer changes nothing here; offline, the
    // server forgets the phone with its connection anyway.
    if (client && code && !outside) void client.command(code, { type: 'leave' });
  }, [forget, keepLastResults]);

  const openLastResults = useCallback(() => {
    const code = freshLastResults();
    setLastResults(code);
    if (code === null) {
      // Its time ran out while the home screen stayed open: said, not a button that just goes.
      storage.setLastResults(null);
      setNotice(notices.resumeFailed);
      return;
    }
    // Offline it would wait on "Getting back to your game…" with no way home: say so instead.
    if (!onlineRef.current) {
      setNotice(common.noConnection);
      return;
    }
    setNotice(null);
    openingResultsRef.current = code;
    codeRef.current = code;
    storage.setRoomCode(code);
    setResuming(true);
    // Asked now; a connection's next session asks for the remembered room again anyway.
    resumeRef.current?.(code);
  }, []);

  const dismissNotice = useCallback(() => setNotice(null), []);

  return useMemo(
    () => ({
      connection,
      snapshot,
      playerId,
      seatRoom,
      resuming,
      notice,
      createRoom,
      joinRoom,
      send,
      seatLink,
      claimSeat,
      leave,
      handBack,
      goHome,
      lastResults,
      openLastResults,
      dismissNotice,
    }),
    [
      connection,
      snapshot,
      playerId,
      seatRoom,
      resuming,
      notice,
      createRoom,
      joinRoom,
      send,
      seatLink,
      claimSeat,
      leave,
      handBack,
      goHome,
      lastResults,
      openLastResults,
      dismissNotice,
    ],
  );
}
