/**
 * The realtime protocol between the web app and the server (Socket.IO), with one schema per
 * incoming message. The server validates every message at the boundary with these schemas;
 * the app uses the TypeScript types. Identity never travels in a payload: the server knows the
 * sender from the connection's handshake credentials.
 */
import { z } from 'zod';
import type { Room } from '../engine/types';
import { MAX_AMOUNT_CENTS, NAME_MAX_LENGTH, ROOM_CODE_LENGTH } from './limits';

/** Every acknowledgement. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: string };

export const INVALID_REQUEST = 'Invalid request';

const cents = z.number().int().min(0).max(MAX_AMOUNT_CENTS);
const playerId = z.string().min(1).max(64);
const commandId = z.string().min(1).max(64);
export const roomCodeSchema = z
  .string()
  .length(ROOM_CODE_LENGTH)
  .regex(/^[A-Za-z0-9]+$/)
  .transform((s) => s.toUpperCase());
const name = z.string().max(NAME_MAX_LENGTH * 4);

/** Engine commands as they may arrive over the wire (the actor is never part of them). */
export const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('join'), name, startingChips: cents }),
  z.strictObject({ type: z.literal('approve'), playerId }),
  z.strictObject({ type: z.literal('remove'), playerId }),
  z.strictObject({ type: z.literal('updateSettings'), smallBlind: cents, bigBlind: cents }),
  z.strictObject({ type: z.literal('startGame') }),
  z.strictObject({
    type: z.literal('act'),
    action: z.enum(['FOLD', 'CALL', 'RAISE', 'ALL_IN']),
    amount: cents.optional(),
  }),
  z.strictObject({ type: z.literal('advanceStage') }),
  z.strictObject({
    type: z.literal('declareWinners'),
    winnerIds: z.array(playerId).max(20),
    byPot: z
      .record(z.string().max(16), z.array(playerId).max(20))
      .refine((r) => Object.keys(r).length <= 20)
      .optional(),
  }),
  z.strictObject({ type: z.literal('newHand') }),
  z.strictObject({ type: z.literal('rebuy'), playerId, amount: cents }),
  z.strictObject({ type: z.literal('endGame') }),
  z.strictObject({ type: z.literal('leave') }),
]);

export const createRoomSchema = z.strictObject({ commandId, name, startingChips: cents });
export const joinRoomSchema = z.strictObject({
  commandId,
  roomCode: roomCodeSchema,
  name,
  startingChips: cents,
});
export const resumeSchema = z.strictObject({ roomCode: roomCodeSchema });
export const roomCommandSchema = z.strictObject({
  commandId,
  roomCode: roomCodeSchema,
  command: commandSchema,
});

export type CreateRoomRequest = z.input<typeof createRoomSchema>;
export type JoinRoomRequest = z.input<typeof joinRoomSchema>;
export type ResumeRequest = z.input<typeof resumeSchema>;
export type RoomCommandRequest = z.input<typeof roomCommandSchema>;

/** What every phone in a room receives after each change. Contains nothing secret. */
export interface RoomSnapshot {
  /** Grows by one per committed change. */
  version: number;
  room: Room;
  /** Player id -> connected right now. */
  presence: Record<string, boolean>;
}

export type GoneReason = 'deleted' | 'removed' | 'expired' | 'not_found';

/** Credentials a client keeps in local storage and presents in the Socket.IO handshake (`auth`). */
export interface SessionCredentials {
  playerId: string;
  token: string;
}

export interface ClientToServerEvents {
  createRoom: (req: CreateRoomRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  joinRoom: (req: JoinRoomRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  /** Re-subscribe to a room the player already sits in (after a reload or reconnect). */
  resume: (req: ResumeRequest, ack: (res: Ack<RoomSnapshot>) => void) => void;
  command: (req: RoomCommandRequest, ack: (res: Ack<{ version: number }>) => void) => void;
}

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
/** POST /api/analytics/visit: a page visit; `newSession` when the browser started a new session. */
export const visitSchema = z.strictObject({ sessionId: z.string().min(1).max(64), newSession: z.boolean() });
/** POST /api/analytics/session: a finished session's length in whole minutes (sent with sendBeacon). */
export const sessionEndSchema = z.strictObject({
  sessionId: z.string().min(1).max(64),
  minutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60),
});
