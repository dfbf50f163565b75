// TEMPORARY: replaced by the real engine modules in this same session.
import type { RaiseLimits, Room } from './types';

export function raiseLimits(_room: Room, _playerId: string): RaiseLimits | null {
  throw new Error('not implemented');
}
