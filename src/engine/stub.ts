// TEMPORARY: replaced by the real engine modules in this same session.
import type { Command, CommandResult, RaiseLimits, Room } from './types';

export function createRoom(_p: {
  roomCode: string;
  hostId: string;
  hostName: string;
  startingChips: number;
  now: number;
}): Room {
  throw new Error('not implemented');
}
export function applyCommand(_room: Room, _actorId: string, _command: Command, _now: number): CommandResult {
  throw new Error('not implemented');
}
export function raiseLimits(_room: Room, _playerId: string): RaiseLimits | null {
  throw new Error('not implemented');
}
