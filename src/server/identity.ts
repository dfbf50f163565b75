/**
 * Anonymous identity. A session token is `<playerId>.<signature>`, the signature being
 * HMAC-SHA256(secret, playerId) in base64url: the server stores nothing per player and every process
 * sharing SESSION_SECRET accepts the same tokens. The player id is the spec's authenticated user id.
 *
 * A seat moved to a new phone by a link (the engine's seatLink) is held there by room-scoped
 * credentials: `<roomCode>:<playerId>:<linkId>.<signature>`, the signature HMAC-SHA256(secret, "room|"
 * + room + "|" + player id + "|" + link id). They are that player in that room only (the gateway
 * refuses them every other room and a new one): a link photographed or opened on a friend's phone is
 * never the player's own identity, which a browser keeps for every game it joins (the session-40
 * review: a friend's browser that took Bob's seat was Bob in every later game, Bob's own included).
 * They name the link they were claimed with, and hold the seat only while that claim is the seat's
 * newest (the engine's heldByLink, checked with every command and resume): until session 42 every
 * claim of a seat got the same credentials, so a phone that once held it (a photo of the QR code
 * opened first, a phone given back with its storage copied) was the player for good, whichever phone
 * the host moved the seat to after. Those made before then (`<roomCode>:<playerId>.<signature>`, the
 * signature's text without the link) are still read, as naming no link (`link: ''`): a phone holding
 * a seat across the upgrade keeps it until the seat is claimed again.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { PLAYER_ID_PATTERN, ROOM_CODE_LENGTH } from '../shared/limits';
import type { SessionCredentials } from '../shared/protocol';

/** Credentials as a token proves them: room-scoped ones name the link they were claimed with. */
export type ReadCredentials = SessionCredentials & { link?: string };

/** Issues and verifies session tokens with one secret. */
export interface Identity {
  /**
   * The credentials a token proves (`room` and `link` set for room-scoped ones: seatCredentials), or
   * null when it is missing, malformed or forged.
   */
  read(token: unknown): ReadCredentials | null;
  /**
   * Room-scoped credentials: `playerId` in `roomCode` only, for as long as the claim with the link
   * `linkId` is the seat's newest (a seat claimed by a link).
   */
  seatCredentials(roomCode: string, playerId: string, linkId: string): SessionCredentials;
  /** Credentials for a new anonymous player. */
  issue(): SessionCredentials;
  /** Credentials for a known player id (the same token every time). */
  credentialsFor(playerId: string): SessionCredentials;
  /**
   * A seat link's token (the engine's seatLink):
   * `<roomCode>.<playerId>.<linkId>.<expires>.<signature>`, `linkId` the link's own id (11 base64url
   * characters, kept on the seat by the engine, which lets each link work once), `expires` in whole
   * seconds since the epoch, the signature HMAC-SHA256(secret, "seat|" + the rest). Signed like the
   * session tokens, so any process sharing the secret reads it; the prefix and the `|` (never in a
   * player id) keep it from ever being a session token's signature.
   */
  seatLink(roomCode: string, playerId: string, linkId: string, expiresAtMs: number): string;
  /** The room, player and link id a seat link names, or why it names none (`now` in ms). */
  readSeatLink(
    seat: unknown,
    now: number,
  ): { roomCode: string; playerId: string; linkId: string } | 'invalid' | 'expired';
}

const SEAT_LINK = new RegExp(
  `^([A-Z0-9]{${ROOM_CODE_LENGTH}})\\.([A-Za-z0-9-]{1,64})\\.([A-Za-z0-9_-]{11})\\.([0-9]{1,13})\\.([A-Za-z0-9_-]{43})$`,
);

const MAX_TOKEN_LENGTH = 256;
/** A room-scoped session token (seatCredentials); the link's id is absent from those made before session 42. */
const ROOM_TOKEN = new RegExp(
  `^([A-Z0-9]{${ROOM_CODE_LENGTH}}):([A-Za-z0-9-]{1,64})(?::([A-Za-z0-9_-]{11}))?\\.([A-Za-z0-9_-]{43})$`,
);

/** An Identity signing with `secret`. */
export function createIdentity(secret: string): Identity {
  /**
   * HMAC-SHA256(secret, text) in base64url: a session token signs the player id alone, a seat link
   * and room-scoped credentials sign texts with prefixes of their own ("seat|", "room|"; `|` is never
   * in a player id), so no signature of one kind is ever another's.
   */
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');
  const signSeat = (body: string) => mac(`seat|${body}`);
  // Without a link: the credentials made before session 42 (read only, never made again).
  const signRoom = (roomCode: string, playerId: string, linkId: string) =>
    mac(linkId === '' ? `room|${roomCode}|${playerId}` : `room|${roomCode}|${playerId}|${linkId}`);
  /** The text of `given` and `expected` compared in constant time (see verify on why not the bytes). */
  const same = (given: string, expected: string) => {
    const a = Buffer.from(given, 'utf8');
    const b = Buffer.from(expected, 'utf8');
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const credentialsFor = (playerId: string): SessionCredentials => ({
    playerId,
    token: `${playerId}.${mac(playerId)}`,
  });
  const seatCredentials = (roomCode: string, playerId: string, linkId: string): SessionCredentials => ({
    playerId,
    token: `${roomCode}:${playerId}${linkId === '' ? '' : `:${linkId}`}.${signRoom(roomCode, playerId, linkId)}`,
    room: roomCode,
  });

  /** The player id a session token proves, or null when it is malformed or forged. */
  const verify = (token: string): string | null => {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const playerId = token.slice(0, dot);
    if (!PLAYER_ID_PATTERN.test(playerId)) return null;
    // The signature's text is compared, not its decoding: Node's base64url decoder skips characters
    // outside the alphabet and padding, and ignores the last character's 2 unused bits, so many
    // strings decode to the same bytes. Only the exact token issued is that player's.
    return same(token.slice(dot + 1), mac(playerId)) ? playerId : null;
  };

  return {
    read(token) {
      if (typeof token !== 'string') return null;
      const scoped = ROOM_TOKEN.exec(token);
      if (scoped === null) {
        const playerId = verify(token);
        return playerId === null ? null : credentialsFor(playerId);
      }
      const [, roomCode, playerId, linkId = '', signature] = scoped as unknown as [
        string,
        string,
        string,
        string | undefined,
        string,
      ];
      if (!same(signature, signRoom(roomCode, playerId, linkId))) return null;
      return { ...seatCredentials(roomCode, playerId, linkId), link: linkId };
    },
    seatCredentials,
    issue: () => credentialsFor(randomUUID()),
    credentialsFor,
    seatLink(roomCode, playerId, linkId, expiresAtMs) {
      const body = `${roomCode}.${playerId}.${linkId}.${Math.ceil(expiresAtMs / 1000)}`;
      return `${body}.${signSeat(body)}`;
    },
    readSeatLink(seat, now) {
      if (typeof seat !== 'string') return 'invalid';
      const m = SEAT_LINK.exec(seat);
      if (m === null) return 'invalid';
      const [, roomCode, playerId, linkId, expires, signature] = m as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      if (!same(signature, signSeat(`${roomCode}.${playerId}.${linkId}.${expires}`))) return 'invalid';
      if (Number(expires) * 1000 <= now) return 'expired';
      return { roomCode, playerId, linkId };
    },
  };
}
