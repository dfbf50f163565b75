/**
 * One zod schema per incoming message (socket events and HTTP bodies). Only the server imports this
 * file: the web app uses the types in protocol.ts, so zod never reaches the browser bundle.
 */
import { z } from 'zod';
import {
  MAX_AMOUNT_CENTS,
  MAX_SEAT_LINK_LENGTH,
  MAX_SESSION_MINUTES_PER_REPORT,
  NAME_MAX_LENGTH,
  PLAYER_ID_PATTERN,
  ROOM_CODE_LENGTH,
} from './limits';

const cents = z.number().int().min(0).max(MAX_AMOUNT_CENTS);
/**
 * An amount at the table (a raise's total bet, the call a player faces): a whole number of cents, as
 * large as a stack can be. A stack is no amount a phone types: rebuys of up to MAX_AMOUNT_CENTS each,
 * and pots won, take it past that cap (the engine keeps every sum of the room's chips a safe integer:
 * rebuy.ts), and the engine checks the amount against it. Capped as a typed amount, the raise dialog's
 * All-In past $100,000,000.00 and the call facing it were refused ('Invalid request'): the hand could not
 * go on (session 41's layout review).
 */
const tableCents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const playerId = z.string().regex(PLAYER_ID_PATTERN);
const commandId = z.string().min(1).max(64);
const roomCodeSchema = z
  .string()
  .length(ROOM_CODE_LENGTH)
  .regex(/^[A-Za-z0-9]+$/)
  .transform((s) => s.toUpperCase());
const name = z.string().max(NAME_MAX_LENGTH * 4);

/** Engine commands as they may arrive over the wire (the actor is never part of them). */
const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('join'), name, startingChips: cents }),
  z.strictObject({ type: z.literal('approve'), playerId }),
  z.strictObject({ type: z.literal('remove'), playerId }),
  z.strictObject({ type: z.literal('updateSettings'), smallBlind: cents, bigBlind: cents }),
  z.strictObject({ type: z.literal('startGame') }),
  z.strictObject({
    type: z.literal('act'),
    action: z.enum(['FOLD', 'CALL', 'RAISE', 'ALL_IN']),
    amount: tableCents.optional(),
    // What the player's screen showed (the engine's Facing): refused if the table has moved on since.
    facing: z
      .strictObject({
        handNumber: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        stage: z.enum(['PRE_FLOP', 'FLOP', 'TURN', 'RIVER', 'SHOWDOWN']),
        toCall: tableCents,
      })
      .optional(),
  }),
  z.strictObject({ type: z.literal('actFor'), playerId, action: z.enum(['CHECK', 'FOLD']) }),
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
  z.strictObject({ type: z.literal('undo'), seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
  z.strictObject({ type: z.literal('makeHost'), playerId }),
  z.strictObject({ type: z.literal('claimHost') }),
  // At most 20 (a table holds 10): the engine refuses any list that is not exactly the table's players.
  z.strictObject({ type: z.literal('arrangeSeats'), playerIds: z.array(playerId).max(20) }),
  z.strictObject({ type: z.literal('sitOut'), away: z.boolean(), playerId: playerId.optional() }),
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

/** The host asks for a link moving a player's seat to a new phone (the engine's seatLink; socket-gateway.ts). */
export const seatLinkSchema = z.strictObject({ commandId, roomCode: roomCodeSchema, playerId });
/** A new phone takes the seat a link moves (socket-gateway.ts); the link's text is checked by identity.ts. */
export const claimSeatSchema = z.strictObject({ seat: z.string().min(1).max(MAX_SEAT_LINK_LENGTH) });

/** POST /api/analytics/visit: a page visit; `newSession` when the browser started a new session. */
export const visitSchema = z.strictObject({ sessionId: z.string().min(1).max(64), newSession: z.boolean() });
/** POST /api/analytics/session: a finished session's length in whole minutes (sent with sendBeacon). */
export const sessionEndSchema = z.strictObject({
  sessionId: z.string().min(1).max(64),
  minutes: z.number().int().min(0).max(MAX_SESSION_MINUTES_PER_REPORT),
});
