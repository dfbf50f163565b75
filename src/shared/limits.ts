/** Limits shared by the server (enforced) and the web app (shown in forms). SPEC.md section 9. */
export const NAME_MAX_LENGTH = 20;
export const ROOM_CODE_LENGTH = 5;
/**
 * What new room codes are made of: A-Z and 0-9 (SPEC section 9) without the letters and digits read
 * out or typed as one another: O and 0, I and 1. A code is read off the host's phone across a table
 * and typed by thumbs; "Room not found" for a 0 typed as O is a poor start (the session-26 audit).
 * 32 characters, 32^5 ≈ 33.5 million codes. Joining still accepts all of A-Z and 0-9 (rooms made
 * before keep their codes).
 */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const STARTING_CHIPS_DEFAULT_DOLLARS = 50;
export const STARTING_CHIPS_MIN_DOLLARS = 1;
export const STARTING_CHIPS_MAX_DOLLARS = 10000;
export const BLIND_MIN_DOLLARS = 0.01;
/** Largest amount (cents) any command may carry: keeps sums far from Number.MAX_SAFE_INTEGER. */
export const MAX_AMOUNT_CENTS = 100_000_000_00;
/** Incoming socket messages larger than this (bytes, JSON) are refused with 'Invalid request'. */
export const MAX_MESSAGE_BYTES = 16 * 1024;
export const HANDS_DEALT_PLACEHOLDER = 127843;
/** The most session minutes one analytics beacon may carry (a day). */
export const MAX_SESSION_MINUTES_PER_REPORT = 24 * 60;
/**
 * What a player id looks like: the server makes them (UUIDs), and tokens and commands naming a player
 * must match. No '_', so no '__proto__'; the engine also reads players by own key only.
 */
export const PLAYER_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
/**
 * The longest seat link token (protocol.ts SeatLinkResponse): a room code, a player id, the link's
 * 11-character id, a time in seconds and a 43-character signature, with four dots (at most
 * 5 + 64 + 11 + 13 + 43 + 4 = 140).
 */
export const MAX_SEAT_LINK_LENGTH = 160;
