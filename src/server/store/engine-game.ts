/**
 * Test support for the store suites: the rooms of a real game played by the real engine, one room per
 * committed change, long enough for the hand log to reach its cap and slide.
 */
import { applyCommand, createRoom } from '../../engine';
import type { Command, Room } from '../../engine/types';
import { APPLIED_COMMANDS_KEPT, type StoredRoom } from './room-store';

/** A 3-player game under `code` (host 'ana'; 'ben', 'cal'), `changes` rooms long (the first: created). */
export function game(code: string, changes: number): Room[] {
  let clock = 0;
  let room = createRoom({ roomCode: code, hostId: 'ana', hostName: 'Ana', startingChips: 5_000, now: 0 });
  const rooms = [room];
  const push = (actor: string, command: Command) => {
    const res = applyCommand(room, actor, command, ++clock);
    if (!res.ok || !res.room) throw new Error(`${command.type} refused`);
    room = res.room;
    rooms.push(room);
  };
  for (const id of ['ben', 'cal']) {
    push(id, { type: 'join', name: id, startingChips: 5_000 });
    push('ana', { type: 'approve', playerId: id });
  }
  push('ana', { type: 'startGame' });
  while (rooms.length < changes) {
    const gs = room.gameState;
    if (gs.stage === 'SHOWDOWN') {
      if (gs.winnerIds.length === 0) push('ana', { type: 'declareWinners', winnerIds: ['ana'] });
      else push('ana', { type: 'newHand' });
    } else if (gs.currentTurnPlayerId) push(gs.currentTurnPlayerId, { type: 'act', action: 'CALL' });
    else push('ana', { type: 'advanceStage' });
  }
  return rooms;
}

/**
 * The game's rooms as the room service stores them: version i + 1, each with the ids of the commands
 * that made it (`c<version>`, by 'ana'), the newest APPLIED_COMMANDS_KEPT kept. A game has at least six changes (joins,
 * approvals, the start), so fewer than that are cut from its start.
 */
export function gameRecords(code: string, changes: number): StoredRoom[] {
  return game(code, changes)
    .slice(0, changes)
    .map((room, i) => ({
      room,
      version: i + 1,
      appliedCommands: Array.from({ length: Math.min(i + 1, APPLIED_COMMANDS_KEPT) }, (_, k) => {
        const version = i + 1 - k;
        return { commandId: `c${version}`, actorId: 'ana', version };
      }).reverse(),
    }));
}
