/**
 * The realtime protocol between the web app and the server (Socket.IO): the types both sides use.
 * Identity never travels in a payload: the server knows the sender from the connection's handshake
 * credentials. The matching runtime schemas are in schemas.ts (server only).
 */

import type { z } from 'zod';
import type { Room } from '../engine/types';
import type {
  claimSeatSchema,
  createRoomSchema,
  joinRoomSchema,
  resumeSchema,
  roomCommandSchema,
  seatLinkSchema,
} from './schemas';

/** Every acknowledgement. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: string };

export const INVALID_REQUEST = 'Invalid request';
/** The answer to a command the server failed to carry out (a store error, a conflict that kept losing). */
export const SOMETHING_WENT_WRONG = 'Something went wrong';
/** The answer to a request over a rate limit (the phone may ask again a little later). */
export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment.';
/** A join's answer when no room has the code (the spec's words, which the join dialog shows). */
export const JOIN_ROOM_NOT_FOUND = 'Room not found. Please check the room code.';
/** A create's answer when the room could not be made (the spec's words, which the dialog shows). */
export const CREATE_FAILED = 'Failed to create room. Please try again.';
/**
 * The answer to a resume from a player who left or was removed during a game that is still going:
 * its results are theirs to see once it ends ("Last Game's Results"), its table no longer is. Not in
 * the spec, which has no way back to the results for a player who left.
 */
export const GAME_STILL_GOING = 'This game is still going. Its results will be here once the host ends it.';

export type CreateRoomRequest = z.input<typeof createRoomSchema>;
export type JoinRoomRequest = z.input<typeof joinRoomSchema>;
export type ResumeRequest = z.input<typeof resumeSchema>;
export type RoomCommandRequest = z.input<typeof roomCommandSchema>;
/**
 * A command as a phone sends it: every engine command but seatLink and claimSeat (events of their own,
 * below) and seatBack (the server's, when a phone resumes), and no `online`.
 */
export type WireCommand = RoomCommandRequest['command'];
export type SeatLinkRequest = z.input<typeof seatLinkSchema>;
export type ClaimSeatRequest = z.input<typeof claimSeatSchema>;

/**
 * Moving a seat to a new phone (the engine's seatLink; not in the spec). The host's phone gets `seat`,
 * a signed token naming the room and the player that is good for `expiresInMs`; the new phone opens
 * `/?seat=<seat>` and claims it, and is then that player (their session credentials) in that room.
 */
export interface SeatLinkResponse {
  seat: string;
  expiresInMs: number;
}
/** What a claimed seat link gives the new phone: the seat's credentials and its room. */
export interface SeatClaim {
  roomCode: string;
  credentials: SessionCredentials;
}
/**
 * The answer to a phone holding a seat moved by a link (room-scoped credentials) that asks for another
 * room, or a new one: the web app goes back to its own credentials before it does (client.ts).
 */
export function seatOnlyIn(roomCode: string): string {
  return `This phone holds a seat in game ${roomCode} only.`;
}
/** A claim whose link is not one the server made (cut short, altered, another server's). */
export const SEAT_LINK_INVALID = "This link doesn't work. Ask the host for a new one.";
/** A claim after the link's time ran out. */
export const SEAT_LINK_EXPIRED = 'This link has expired. Ask the host for a new one.';
/**
 * The other refusals of a claim are the engine's (seat-link.ts claimSeat): a seat gone, the host's, a
 * game over, a link used, void or replaced, a seat connected on another phone, a phone seated at that table.
 */

/** What every phone in a room receives after each change. Contains nothing secret. */
export interface RoomSnapshot {
  /** Grows by one per committed change. */
  version: number;
  room: Room;
  /** Player id -> connected right now. */
  presence: Record<string, boolean>;
  /**
   * Set on broadcasts ('room' events): `room.log` then holds only the events with `seq >= logFrom`,
   * the ones this change logged (none for a presence change), and the phone keeps the earlier events it
   * already has (log-delta.ts). Absent on acknowledgements (create, join, resume): `room.log` is the
   * room's whole log. The log is most of a room's size (~9.6 of 13 KB); see bench/README.md.
   */
  logFrom?: number;
  /**
   * Set on acknowledgements (create, join, resume) only: how long the table had gone without a move
   * (the engine's tableActivity) when the server answered, in ms by the server's clock, 0 when its
   * clock stepped back. A phone that has just loaded the room knows no more than that of how long the
   * table has waited: the host's "Fold for Bob" and a player's "Take Over as Host" count it as waited
   * already (use-waited.ts), so a reload does not start those waits again (the clock audit, session 37).
   */
  idle?: number;
}

/**
 * Why a phone is no longer in a room: the host deleted it (left or ended the session), the player was
 * removed by the host, the player left it themselves (heard by their other tabs), it expired, or (a
 * resume's answer) it is not there.
 */
export type GoneReason = 'deleted' | 'removed' | 'left' | 'expired' | 'not_found';

/** Credentials a client keeps in local storage and presents in the Socket.IO handshake (`auth`). */
export interface SessionCredentials {
  playerId: string;
  token: string;
  /**
   * Set on room-scoped credentials: a seat moved to this phone by a link (claimSeat), the player in this
   * room only. The phone goes back to its own credentials once it is done with that room (client.ts).
   */
  room?: string;
}

/** What a phone sends (Socket.IO events, each with an acknowledgement), typed for both ends. */
export interface ClientToServerEvents {
  createRoom: (req: CreateRoomRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  joinRoom: (req: JoinRoomRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  /** Re-subscribe to a room the player already sits in (after a reload or reconnect). */
  resume: (req: ResumeRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  command: (req: RoomCommandRequest, ack: (res: Ack<{ version: number }>) => void) => void;
  /** The host: a link moving a player whose phone is away to a new phone (SeatLinkResponse). */
  seatLink: (req: SeatLinkRequest, ack: (res: Ack<SeatLinkResponse>) => void) => void;
  /** A new phone: take the seat a link moves (SeatClaim); the phone then reconnects as that player. */
  claimSeat: (req: ClaimSeatRequest, ack: (res: Ack<SeatClaim>) => void) => void;
}

/** What the server sends a phone, unasked. */
export interface ServerToClientEvents {
  /** Sent on every connection: the credentials to keep (new ones when none or invalid ones were presented). */
  session: (creds: SessionCredentials) => void;
  room: (snapshot: RoomSnapshot) => void;
  gone: (msg: { roomCode: string; reason: GoneReason }) => void;
}

/** Handshake auth the client sends: `io(url, { auth: { token } })`. */
export interface HandshakeAuth {
  token?: string;
}

/** HTTP API (JSON). */
export interface StatsResponse {
  totalHandsDealt: number;
}
export interface ConfigResponse {
  contactEmail: string;
  supportUrl: string;
}
/** POST /api/analytics/visit body. */
export interface VisitRequest {
  sessionId: string;
  newSession: boolean;
}
/** POST /api/analytics/session body (sendBeacon when a session ends). */
export interface SessionEndRequest {
  sessionId: string;
  minutes: number;
}
