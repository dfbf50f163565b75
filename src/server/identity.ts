/**
 * Anonymous identity. A session token is `<playerId>.<signature>`, the signature being
 * HMAC-SHA256(secret, playerId) in base64url: the server stores nothing per player and every process
 * sharing SESSION_SECRET accepts the same tokens. The player id is the spec's authenticated user id.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { PLAYER_ID_PATTERN } from '../shared/limits';
import type { SessionCredentials } from '../shared/protocol';

/** Issues and verifies session tokens with one secret. */
export interface Identity {
  /** The player id a token proves, or null when it is missing, malformed or forged. */
  verify(token: unknown): string | null;
  /** Credentials for a new anonymous player. */
  issue(): SessionCredentials;
  /** Credentials for a known player id (the same token every time). */
  credentialsFor(playerId: string): SessionCredentials;
}

const MAX_TOKEN_LENGTH = 256;

/** An Identity signing with `secret`. */
export function createIdentity(secret: string): Identity {
  const sign = (playerId: string) => createHmac('sha256', secret).update(playerId).digest();

  const credentialsFor = (playerId: string): SessionCredentials => ({
    playerId,
    token: `${playerId}.${sign(playerId).toString('base64url')}`,
  });

  return {
    verify(token) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
      const dot = token.lastIndexOf('.');
      if (dot <= 0) return null;
      const playerId = token.slice(0, dot);
      if (!PLAYER_ID_PATTERN.test(playerId)) return null;
      // The signature's text is compared, not its decoding: Node's base64url decoder skips characters
      // outside the alphabet and padding, and ignores the last character's 2 unused bits, so many
      // strings decode to the same bytes. Only the exact token issued is that player's.
      const given = Buffer.from(token.slice(dot + 1), 'utf8');
      const expected = Buffer.from(sign(playerId).toString('base64url'), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return playerId;
    },
    issue: () => credentialsFor(randomUUID()),
    credentialsFor,
  };
}
