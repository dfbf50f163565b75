/**
 * The Socket.IO side: identity on connection, the handlers and presence, over the Rooms port
 * (rooms.ts: the room service on this thread or on the room thread). What a message passes first (a
 * known event, its size, its schema, the rate limits) is gateway-admission.ts. Rules live in the engine
 * and ordering in the rooms' queues; this file only translates.
 *
 * Socket.IO rooms: a room code (5 chars) holds the sockets watching that room; `p:<playerId>` holds
 * every socket of one player (to tell them they were removed). Both work across processes through
 * whichever adapter the Server has (in-memory by default, Redis in scale-out).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Server, Socket } from 'socket.io';
import { type Command, entryError, MSG } from '../engine';
import { ROOM_CODE_LENGTH } from '../shared/limits';
import {
  type Ack,
  type ClientToServerEvents,
  GAME_STILL_GOING,
  JOIN_ROOM_NOT_FOUND,
  SEAT_LINK_EXPIRED,
  SEAT_LINK_INVALID,
  type SeatClaim,
  type SeatLinkResponse,
  type ServerToClientEvents,
  seatOnlyIn,
  TOO_MANY_REQUESTS,
} from '../shared/protocol';
import {
  claimSeatSchema,
  createRoomSchema,
  joinRoomSchema,
  resumeSchema,
  roomCommandSchema,
  seatLinkSchema,
} from '../shared/schemas';
import { type Broadcaster, playerRoom } from './broadcaster';
import type { Config } from './config';
import { createAdmission } from './gateway-admission';
import type { Identity, ReadCredentials } from './identity';
import type { Logger } from './logger';
import { presenceThrottle } from './presence-throttle';
import { clientIp, TokenBucket } from './rate-limit';
import { ROOM_NOT_FOUND } from './room-service';
import type { OutgoingSnapshot, Rooms, RoomView } from './rooms';
import { withIdle } from './snapshot-encoder';

/** Per-socket state (socket.data). */
export interface SocketData {
  playerId: string;
  /** Set for room-scoped credentials (a seat claimed by link): the one room this socket may ask for. */
  room?: string;
  /**
   * Set with `room`: the link those credentials were claimed with ('' for ones made before session 42).
   * They hold the seat only while that link's claim is the seat's newest (the engine's heldByLink): the
   * socket's commands carry it as `via`, and a resume checks it (subscribe).
   */
  link?: string;
  ip: string;
  joins: TokenBucket;
  /** The room codes the socket was in, set when it starts disconnecting. */
  roomsAtDisconnect?: string[];
}

/** The typed Socket.IO server. */
export type ChiplessServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type ChiplessSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export { TOO_MANY_REQUESTS };
export const NOT_IN_ROOM = 'You are not in this room';

const ROOM_CODE = new RegExp(`^[A-Z0-9]{${ROOM_CODE_LENGTH}}$`);
/** True for Socket.IO room names that are room codes (not socket ids or player rooms). */
export function isRoomCode(name: string): boolean {
  return ROOM_CODE.test(name);
}

/**
 * Rooms one socket watches at most. A phone shows one room at a time; a socket subscribed to more
 * kept each of them from idle cleanup for as long as it stayed connected, so one idle connection could
 * keep a lobby a minute alive for ever (session 33's audit). Joining one more drops the earliest.
 */
export const MAX_ROOMS_PER_SOCKET = 4;

/**
 * How long a seat link works (the engine's seatLink): enough for the host to hand the link over and
 * the player to find a phone and open it; a link photographed or forwarded stops working soon after.
 */
export const SEAT_LINK_TTL_MS = 15 * 60 * 1000;

/** A room's phones are told of presence changes at most this often (presence-throttle.ts). */
export const PRESENCE_TOLD_EVERY_MS = 1_000;

export interface GatewayDeps {
  io: ChiplessServer;
  rooms: Rooms;
  identity: Identity;
  config: Config;
  logger: Logger;
  now: () => number;
  broadcaster: Broadcaster;
}

/** Wires identity, boundary checks and handlers onto every connection. Returns a stop function. */
export function attachGateway(deps: GatewayDeps): () => void {
  const { io, rooms, identity, config, logger, now, broadcaster } = deps;
  // The boundary checks and rate limits every message passes first (gateway-admission.ts).
  const admission = createAdmission(config, logger, now);
  const { takeJoin, takeCommand, takeMiss, listenerFor } = admission;
  // Presence changes told to a room at most once a second, the last one always (presence-throttle.ts).
  const presenceTold = presenceThrottle(
    PRESENCE_TOLD_EVERY_MS,
    (roomCode) => void rooms.broadcastCurrent(roomCode),
  );
  const sweep = setInterval(() => presenceTold.sweep(), 60_000);
  sweep.unref();
  /** A subscription's acknowledgement: the room's whole snapshot, with how long its table has waited. */
  const acknowledgement = async (view: RoomView): Promise<Ack<OutgoingSnapshot>> => ({
    ok: true,
    data: withIdle(await rooms.snapshotOf(view, 'whole'), now() - view.activity),
  });
  // With several processes, a room is broadcast again shortly after a player appears or goes there,
  // once every process knows (presence.ts).
  // Not through the presence throttle: settles are already one per room per 300 ms at most on each
  // process (presence.ts scheduleSettle), and their timing is what corrects a process's stale news.
  const stopSettling = broadcaster.presence.onSettle((roomCode) => void rooms.broadcastCurrent(roomCode));

  /** After a socket of `playerId` left `roomCode`: if none of theirs is left there, everyone sees them offline. */
  const refreshPresence = (roomCode: string, playerId: string) => {
    void broadcaster
      .onlinePlayers(roomCode)
      .then((online) =>
        online.has(playerId) || !presenceTold.take(roomCode) ? undefined : rooms.broadcastCurrent(roomCode),
      )
      .catch((err: unknown) => logger.warn({ err, room: roomCode }, 'presence update failed'));
  };

  /**
   * Takes the socket out of the earliest rooms it watches besides `keep` until it watches at most
   * MAX_ROOMS_PER_SOCKET: the player shows offline there, and a room is left to idle cleanup unless
   * another phone watches it. A phone that goes back to one resumes as usual.
   *
   * Synchronous, as are the adapters' join and leave (in memory and Redis alike): with an `await`
   * between reading the rooms and leaving them, resumes of several rooms at once (each in its own
   * room's queue) each saw a slot free and one connection watched eight (session 34's review).
   */
  const trimWatched = (socket: ChiplessSocket, keep: string) => {
    const others = [...socket.rooms].filter((code) => code !== keep && isRoomCode(code));
    const dropped = others.slice(0, Math.max(0, others.length - (MAX_ROOMS_PER_SOCKET - 1)));
    for (const code of dropped) void socket.leave(code);
    for (const code of dropped) refreshPresence(code, socket.data.playerId);
  };

  /** Puts the socket in `roomCode`'s Socket.IO room, within the cap (trimWatched, in the same step). */
  const watch = (socket: ChiplessSocket, roomCode: string) => {
    if (socket.rooms.has(roomCode)) return;
    void socket.join(roomCode);
    trimWatched(socket, roomCode);
  };

  /**
   * Subscribes the socket to a room it is a member of and returns the snapshot; when that made the
   * player present, everyone else in the room gets the new snapshot too. Inside the room's queue.
   *
   * A player who left or was removed during the game gets its results once it has ended ("Last
   * Game's Results" on their home screen), unsubscribed and unseen (an ended game changes no more),
   * and GAME_STILL_GOING until then, without a 'gone' notice: the room is not gone for them yet.
   * Neither is charged as a failed lookup: the ledger names them.
   * `ifMember`: null, with nothing said or charged, when the room is there and the player is not in it.
   */
  function subscribe(socket: ChiplessSocket, roomCode: string): Promise<Ack<OutgoingSnapshot>>;
  function subscribe(
    socket: ChiplessSocket,
    roomCode: string,
    ifMember: true,
  ): Promise<Ack<OutgoingSnapshot> | null>;
  function subscribe(socket: ChiplessSocket, roomCode: string, ifMember = false) {
    // Set when the player's seat has an unused seat link: their phone is back, so it goes (seatBack).
    let back = false;
    const subscribed = rooms.runExclusive(roomCode, async (): Promise<Ack<OutgoingSnapshot> | null> => {
      const playerId = socket.data.playerId;
      let view = await rooms.load(roomCode, { whole: true });
      // A join that found the player seated, run behind their own leave: not a member any more, so
      // the join goes on as a join, with nothing said (join, below).
      if (ifMember && view !== null && !view.has(playerId)) return null;
      const departed = view !== null && !view.has(playerId) && view.departed(playerId);
      // Refused without a 'gone' notice: its reason would answer the question too.
      if (!view?.has(playerId) && !departed && !takeMiss(socket))
        return { ok: false, error: TOO_MANY_REQUESTS };
      if (!view) {
        socket.emit('gone', { roomCode, reason: 'not_found' });
        return { ok: false, error: ROOM_NOT_FOUND };
      }
      if (departed) {
        if (!view.ended) return { ok: false, error: GAME_STILL_GOING };
        return acknowledgement(view);
      }
      if (!view.has(playerId)) {
        socket.emit('gone', { roomCode, reason: 'removed' });
        return { ok: false, error: NOT_IN_ROOM };
      }
      // Room-scoped credentials of a link whose claim is no longer the seat's newest: a phone that held
      // the seat before the host moved it on (a photo of an earlier QR code, a phone given back) is
      // not that player any more. No 'gone': the seat is not gone, only not this phone's (the web app
      // goes back to its own player on the refusal).
      if (!holdsHere(socket, view)) return { ok: false, error: MSG.seatHeldElsewhere };
      const wasOnline = (await broadcaster.onlinePlayers(roomCode)).has(playerId);
      if (!broadcaster.presence.crossProcess) watch(socket, roomCode);
      else {
        // This queue orders this process's steps only: another process may have removed the player
        // or deleted the room since the load, and its 'gone' and unsubscription, sent after its save,
        // came before this join. Read again, now that the join is made: a removal saved after this
        // read unsubscribes the socket when its notice arrives; one saved before it is seen here.
        // The rooms it watched are trimmed once it is in: a refused resume costs the phone none of them.
        await socket.join(roomCode);
        const again = await rooms.load(roomCode, { whole: true });
        if (!again?.has(playerId)) {
          await socket.leave(roomCode);
          if (ifMember && again) return null;
          socket.emit('gone', { roomCode, reason: again ? 'removed' : 'not_found' });
          return { ok: false, error: again ? NOT_IN_ROOM : ROOM_NOT_FOUND };
        }
        // A claim on another process since the load moved the seat on (holdsHere, above).
        if (!holdsHere(socket, again)) {
          await socket.leave(roomCode);
          return { ok: false, error: MSG.seatHeldElsewhere };
        }
        trimWatched(socket, roomCode);
        view = again;
      }
      const acked = await acknowledgement(view);
      // The typed emit wants a RoomSnapshot; an EncodedSnapshot's text is written by the encoder.
      if (!wasOnline && presenceTold.take(roomCode))
        socket.to(roomCode).emit('room', (await rooms.snapshotOf(view, 'none')) as never);
      back = view.linkPending(playerId);
      return acked;
    });
    // A phone of the player's is back in the room: a seat link the host made while it was away, unused,
    // no longer works (the engine's seatBack). Left live, it took the seat whenever this phone slept
    // in the link's 15 minutes (session 41's review). A claim kept on the seat ends too: the phone that
    // made it is in (or the player's old phone is back). After the subscription, in the room's queue
    // of its own (this one would wait on itself), and its answer goes to nobody: the room's broadcast
    // tells the table, and a failure leaves the link as it was.
    return subscribed.finally(() => {
      if (!back) return;
      const playerId = socket.data.playerId;
      void rooms
        .execute(roomCode, playerId, randomUUID(), { type: 'seatBack' })
        .catch((err: unknown) => logger.warn({ err, room: roomCode }, 'seat link not voided'));
    });
  }

  /** Runs a command; subscribes the sender when it is (still) a member. */
  const run = async (
    socket: ChiplessSocket,
    roomCode: string,
    commandId: string,
    sent: Command,
    wholeSnapshot = false,
    prepare?: (command: Command) => Promise<Command>,
  ) => {
    const playerId = socket.data.playerId;
    // Room-scoped credentials (outOfScope has kept them to their room): the engine refuses the command
    // unless their link's claim is the seat's newest (its holdsSeat).
    const command: Command = socket.data.room === undefined ? sent : { ...sent, via: socket.data.link ?? '' };
    // A socket already in the room stays in it until the room tells it 'gone' (a removal, queued before
    // this command in the room's queue, makes this command fail or be caught by the check below), so it
    // needs no onCommitted step; without one, the room service may publish the snapshot with the save.
    const options = socket.rooms.has(roomCode)
      ? { wholeSnapshot, prepare }
      : {
          wholeSnapshot,
          prepare,
          onCommitted: async (view: RoomView) => {
            if (view.has(playerId)) watch(socket, roomCode);
          },
        };
    const outcome = await rooms.execute(roomCode, playerId, commandId, command, options);
    // A retried (duplicate) command does not reach onCommitted: subscribe here if needed.
    if (outcome.ok && outcome.view?.has(playerId) && !socket.rooms.has(roomCode)) {
      await subscribe(socket, roomCode);
    }
    return outcome;
  };

  const join = async (
    socket: ChiplessSocket,
    req: { commandId: string; roomCode: string; name: string; startingChips: number },
  ): Promise<Ack<OutgoingSnapshot>> => {
    const { roomCode } = req;
    const scoped = outOfScope(socket, roomCode);
    if (scoped) return scoped;
    // A name or buy-in no room would take is refused before the room is looked up: answered after,
    // 'Please enter your name' told an existing room from a missing one even once the IP's failed
    // lookups ran out (session 26's audit), a probe that joins nobody and costs nothing.
    const entry = entryError(req.name, req.startingChips);
    if (entry !== null) return { ok: false, error: entry };
    const existing = await rooms.load(roomCode);
    // A join that finds no room tells a prober as much as a resume would: it costs a failed lookup.
    if (!existing) return { ok: false, error: takeMiss(socket) ? JOIN_ROOM_NOT_FOUND : TOO_MANY_REQUESTS };
    // Already seated (a reload during the join, a second tab): joining again is resuming. Read outside
    // the room's queue: a leave of the same player queued before it may have gone by the time it runs,
    // and then this is a join (session 36's race audit: "You are not in this room", a second tap joined).
    if (existing.has(socket.data.playerId)) {
      const resumed = await subscribe(socket, roomCode, true);
      if (resumed !== null) return resumed;
    }
    const outcome = await run(
      socket,
      roomCode,
      req.commandId,
      { type: 'join', name: req.name, startingChips: req.startingChips },
      true,
    );
    if (!outcome.ok)
      return { ok: false, error: outcome.error === ROOM_NOT_FOUND ? JOIN_ROOM_NOT_FOUND : outcome.error };
    if (!outcome.view) return { ok: false, error: JOIN_ROOM_NOT_FOUND };
    // A repeated join id is acknowledged (the room remembers it) after the player was removed or left:
    // they get what `resume` gives a non-member, not the room.
    if (!outcome.view.has(socket.data.playerId)) {
      socket.emit('gone', { roomCode, reason: 'removed' });
      return { ok: false, error: NOT_IN_ROOM };
    }
    return acknowledgement(outcome.view);
  };

  /**
   * Whether the socket's credentials hold its player's seat in `view` (loaded whole): always for a
   * player's own credentials; for room-scoped ones, only while their link's claim is the seat's newest.
   */
  const holdsHere = (socket: ChiplessSocket, view: RoomView) =>
    socket.data.room === undefined || view.holds(socket.data.playerId, socket.data.link ?? '');

  /**
   * The refusal of a request for `roomCode` (undefined: a new room) from a phone whose credentials hold
   * one room's seat only (identity.ts seatCredentials), or null.
   */
  const outOfScope = (socket: ChiplessSocket, roomCode?: string) => {
    const room = socket.data.room;
    return room === undefined || room === roomCode ? null : ({ ok: false, error: seatOnlyIn(room) } as const);
  };

  const onCreateRoom = listenerFor('createRoom', createRoomSchema, takeJoin, async (socket, req) => {
    const scoped = outOfScope(socket);
    if (scoped) return scoped;
    const created = await rooms.createRoom(socket.data.playerId, req.commandId, req.name, req.startingChips);
    if (!created.ok) return created;
    return subscribe(socket, created.roomCode);
  });

  const onJoinRoom = listenerFor('joinRoom', joinRoomSchema, takeJoin, join);

  const onResume = listenerFor(
    'resume',
    resumeSchema,
    takeCommand,
    async (socket, req) => outOfScope(socket, req.roomCode) ?? subscribe(socket, req.roomCode),
  );

  /**
   * Before a command from a socket not subscribed to the room: a lookup, charged when it finds no room
   * or a room without the sender (the engine's answer to a non-member, or its no-op 'leave', shows the
   * room exists). Null to go on, or the refusal. A subscribed socket is a member (a removal
   * unsubscribes it).
   */
  const lookupBeforeCommand = async (socket: ChiplessSocket, roomCode: string) => {
    if (socket.rooms.has(roomCode)) return null;
    const view = await rooms.load(roomCode);
    if (view?.has(socket.data.playerId)) return null;
    if (!takeMiss(socket)) return { ok: false, error: TOO_MANY_REQUESTS } as const;
    return view ? null : ({ ok: false, error: ROOM_NOT_FOUND } as const);
  };
  /** A command that needs who is connected, as it is when its turn in the room's queue comes. */
  const withOnline = (roomCode: string) => async (c: Command) =>
    ({ ...c, online: [...(await broadcaster.onlinePlayers(roomCode))] }) as Command;

  const onCommand = listenerFor(
    'command',
    roomCommandSchema,
    (s, req) => (req.command.type === 'join' ? takeJoin(s) : takeCommand(s)),
    async (socket, req): Promise<Ack<{ version: number }>> => {
      const { command } = req;
      if (command.type === 'join') {
        const joined = await join(socket, { ...command, commandId: req.commandId, roomCode: req.roomCode });
        return joined.ok ? { ok: true, data: { version: joined.data.version } } : joined;
      }
      const refused = outOfScope(socket, req.roomCode) ?? (await lookupBeforeCommand(socket, req.roomCode));
      if (refused) return refused;
      // The host acting for a player, or a player taking over as host, is for someone away from the
      // table: the engine needs who is connected (the server's presence; a phone cannot send it), as
      // it is when the command's turn in the room's queue comes: a phone resuming just ahead of it is
      // present by then (session 36's race audit).
      const outcome = await run(
        socket,
        req.roomCode,
        req.commandId,
        command,
        false,
        command.type === 'actFor' || command.type === 'claimHost' ? withOnline(req.roomCode) : undefined,
      );
      if (!outcome.ok) return outcome;
      // A leave that keeps the player in the room (a game that is over, or the host ending a game by
      // leaving it) still ends this phone's watch of it: the phone went home. Kept subscribed, a phone
      // left open on the home screen showed its player online there and kept the finished room from
      // idle cleanup for as long as the tab stayed open. (A leave that removes the player has already
      // unsubscribed every socket of theirs through 'gone'.)
      if (command.type === 'leave' && socket.rooms.has(req.roomCode)) {
        await socket.leave(req.roomCode);
        refreshPresence(req.roomCode, socket.data.playerId);
      }
      return { ok: true, data: { version: outcome.version } };
    },
  );

  // The host asks for a link moving a player's seat to a new phone: the engine rules and logs it (its
  // seatLink, with the server's presence: only for a player whose phone is away), the server signs it.
  // The engine rules every request: it runs under a command id of the server's, never the phone's. A
  // phone's id already applied would be answered as a retry without the engine, and a link signed on
  // that: any player reusing the id of one of their own commands (a join, a call) got a link to any
  // away seat, the host's included. A request sent again (an answer lost on the way) is ruled again,
  // and logged again: the table sees each link made, and the newest link replaces the one before.
  // The link's id is the server's (the engine has no randomness); the engine keeps it on the seat.
  const onSeatLink = listenerFor(
    'seatLink',
    seatLinkSchema,
    takeCommand,
    async (socket, req): Promise<Ack<SeatLinkResponse>> => {
      const refused = outOfScope(socket, req.roomCode) ?? (await lookupBeforeCommand(socket, req.roomCode));
      if (refused) return refused;
      const linkId = randomBytes(8).toString('base64url');
      const command: Command = { type: 'seatLink', playerId: req.playerId, linkId };
      const outcome = await run(socket, req.roomCode, randomUUID(), command, false, withOnline(req.roomCode));
      if (!outcome.ok) return outcome;
      const seat = identity.seatLink(req.roomCode, req.playerId, linkId, now() + SEAT_LINK_TTL_MS);
      return { ok: true, data: { seat, expiresInMs: SEAT_LINK_TTL_MS } };
    },
  );

  // A new phone opens a seat link: it gets the seat's credentials, and reconnects with them (the
  // handshake then makes the socket that player; client.ts). The server reads the link (its signature
  // and time); the engine's claimSeat rules the seat in the room's turn: the link works once (two
  // phones opening it at once: the second is refused), a newer link replaces it, and it is refused
  // once the player is no longer in the room, is the host, or has a phone connected there (the old
  // phone came back), and for a phone seated at that table.
  // The actor is the phone's own player id, and the command id the server's, new each time: the same
  // phone asking again (its answer lost on the way) is ruled by the engine too, which keeps the claim
  // on the seat until a phone of the player's resumes the room, and answers it as the claim it made.
  // Until session 42 the claim ran under `claim:<linkId>` and such a repeat was answered as the room's
  // retry, without the engine; a copy of its rules here ruled the seat again, and phones were refused
  // ids of that kind (the id is in the link's text: a phone's own command under it passed as the claim).
  // Charged as a join: it seats a phone, and a link it cannot read costs the IP's joins, not a lookup
  // (it says nothing about which rooms exist).
  const onClaimSeat = listenerFor(
    'claimSeat',
    claimSeatSchema,
    takeJoin,
    async (socket, req): Promise<Ack<SeatClaim>> => {
      const read = identity.readSeatLink(req.seat, now());
      if (read === 'invalid') return { ok: false, error: SEAT_LINK_INVALID };
      if (read === 'expired') return { ok: false, error: SEAT_LINK_EXPIRED };
      const { roomCode, playerId, linkId } = read;
      // The seat's own phone (the player's own credentials, or this room's seat held by link) opening
      // it: nothing moves (its resume of the room voided the link: subscribe). A phone holding the same
      // player's seat in another game by link is not: it is any other phone here (its credentials are
      // that other game's only).
      // A phone holding the seat by the credentials of an earlier link (the seat has moved on since) is
      // not the seat's phone either: it claims as any other phone would (the engine refuses a spent link).
      const scoped = socket.data.room;
      const link = socket.data.link ?? '';
      // The room, loaded once for what reads it: whether this room's credentials still hold their seat,
      // and whether the seat of the phone's own player is still there.
      const view =
        scoped === roomCode || (scoped === undefined && playerId === socket.data.playerId)
          ? await rooms.load(roomCode, { whole: true })
          : null;
      // The phone is its player here: its own credentials, or this room's by the link holding the seat.
      const heldHere =
        scoped === undefined || (scoped === roomCode && view?.holds(socket.data.playerId, link) === true);
      const self = playerId === socket.data.playerId && heldHere;
      if (self) {
        if (!view?.has(playerId)) return { ok: false, error: MSG.seatLinkGone };
        if (view.ended) return { ok: false, error: MSG.seatLinkEnded };
      } else {
        // Not `run`: that subscribes a sender who is a member, and a phone holding this player's seat
        // in another game by link is this player (its credentials are for that game only).
        // The actor: the phone's player here. A phone holding a seat in another game by link, or one
        // in this game by an earlier link (the seat moved on since), is not that seat's player here, so
        // it claims as its credentials: a digest of their token (never a player id, `:` being in none;
        // and the seat's claim, in every snapshot of this room, says nothing of another game, its code
        // included). Claiming as the player id, the claim kept on the seat was that player's (the
        // engine's seatClaim.by), and any other phone that was that player (their own, one holding
        // their seat in a third game) asking with the link was answered as that claim: a second phone
        // with the seat (session 42).
        const actor = heldHere
          ? socket.data.playerId
          : `seat:${createHash('sha256')
              .update(identity.seatCredentials(scoped!, socket.data.playerId, link).token)
              .digest('base64url')}`;
        const command: Command = { type: 'claimSeat', playerId, linkId };
        const outcome = await rooms.execute(roomCode, actor, randomUUID(), command, {
          prepare: withOnline(roomCode),
        });
        if (!outcome.ok)
          return { ok: false, error: outcome.error === ROOM_NOT_FOUND ? MSG.seatLinkGone : outcome.error };
      }
      logger.info({ room: roomCode, actor: socket.data.playerId, seat: playerId }, 'seat claimed');
      // The seat's player in that room only (identity.ts): never the player's own credentials, which
      // their browser keeps for every game. The player's own phone opening it keeps what it holds.
      // Those of the link claimed: the seat's only while that claim is its newest (identity.ts).
      const credentials = !self
        ? identity.seatCredentials(roomCode, playerId, linkId)
        : scoped === undefined
          ? identity.credentialsFor(playerId)
          : identity.seatCredentials(roomCode, playerId, link);
      return { ok: true, data: { roomCode, credentials } };
    },
  );

  // The rooms a socket was in, read while it is disconnecting (it has left them all by 'disconnect').
  function onDisconnecting(this: ChiplessSocket) {
    this.data.roomsAtDisconnect = [...this.rooms].filter(isRoomCode);
  }
  // Once the socket is gone from its rooms: a player with no other socket there shows as offline.
  function onDisconnect(this: ChiplessSocket) {
    for (const roomCode of this.data.roomsAtDisconnect ?? []) refreshPresence(roomCode, this.data.playerId);
  }

  io.on('connection', (socket) => {
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const read: ReadCredentials = identity.read(auth?.token) ?? identity.issue();
    const { link, ...credentials } = read;
    const known = credentials.token === auth?.token;
    const t = now();
    socket.data = {
      playerId: credentials.playerId,
      ...(credentials.room === undefined ? {} : { room: credentials.room, link: link ?? '' }),
      ip: clientIp(socket.handshake.headers, socket.handshake.address, config.trustProxy),
      joins: new TokenBucket(config.joinRatePerMin / 60, config.joinRatePerMin, t),
    };
    // Engine.IO keeps the connection's first HTTP request (headers, parser state) for the socket's
    // lifetime; nothing here reads it after the handshake and the IP above. Dropping it is Socket.IO's
    // own advice (docs: "Memory usage") and saves its share of the RSS target at 6,000 sockets.
    (socket.conn as { request: unknown }).request = null;
    void socket.join(playerRoom(credentials.playerId));
    socket.emit('session', credentials);
    logger.debug({ actor: credentials.playerId, resumed: known, room: credentials.room }, 'connected');

    // The one closure per socket: Socket.IO calls middleware without the socket.
    socket.use((packet, next) => admission.checkBoundary(socket, packet, next));
    // The typed `on` wants each event's exact listener signature; ours take raw arguments on purpose.
    const on = socket.on as (ev: string, fn: (this: ChiplessSocket, ...args: unknown[]) => void) => void;
    on.call(socket, 'createRoom', onCreateRoom);
    on.call(socket, 'joinRoom', onJoinRoom);
    on.call(socket, 'resume', onResume);
    on.call(socket, 'command', onCommand);
    on.call(socket, 'seatLink', onSeatLink);
    on.call(socket, 'claimSeat', onClaimSeat);
    on.call(socket, 'disconnecting', onDisconnecting);
    on.call(socket, 'disconnect', onDisconnect);
  });

  return () => {
    clearInterval(sweep);
    admission.close();
    presenceTold.close();
    stopSettling();
  };
}
