/**
 * How the bots of one room play: from a room snapshot, the next legal command and who sends it.
 * Players mostly check or call, sometimes raise the minimum, sometimes fold, rarely go all-in;
 * the host approves, starts, advances stages, declares a winner at showdown, rebuys chipless
 * players and deals the next hand.
 */
import { raiseLimits } from '../src/engine';
import type { Command, Room } from '../src/engine/types';

/** A command to send and the player (bot) who sends it. */
export interface Move {
  actorId: string;
  command: Command;
}

/** Stack given to each bot on joining and on a rebuy, in cents ($100 with the default $1/$2 blinds). */
export const BOT_CHIPS = 100_00;

const FOLD_P = 0.07;
const RAISE_P = 0.1;
const ALL_IN_P = 0.005;

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items[Math.floor(random() * items.length)];
}

/** The smallest legal total bet for a raise by `playerId`, or null when a raise is not possible. */
function minRaiseTotal(room: Room, playerId: string): number | null {
  const player = room.players[playerId]!;
  let limits: ReturnType<typeof raiseLimits> = null;
  try {
    limits = raiseLimits(room, playerId);
  } catch {
    // Engine not available: the spec's rule, close enough for a bot.
    let highest = 0;
    for (const p of Object.values(room.players)) highest = Math.max(highest, p.currentRoundBet);
    const min =
      highest +
      (room.gameState.lastRaiseAmount > 0 ? room.gameState.lastRaiseAmount : room.settings.bigBlind);
    limits = { min, max: player.currentRoundBet + player.stack } as ReturnType<typeof raiseLimits>;
  }
  if (!limits || limits.min > limits.max || limits.min >= player.currentRoundBet + player.stack) return null;
  return limits.min;
}

/** The betting action of the player whose turn it is. */
function bettingMove(room: Room, playerId: string, random: () => number): Command {
  const player = room.players[playerId]!;
  let highest = 0;
  for (const p of Object.values(room.players)) highest = Math.max(highest, p.currentRoundBet);
  const toCall = highest - player.currentRoundBet;
  const r = random();
  if (toCall > 0 && r < FOLD_P) return { type: 'act', action: 'FOLD' };
  if (r < FOLD_P + ALL_IN_P) return { type: 'act', action: 'ALL_IN' };
  if (r < FOLD_P + ALL_IN_P + RAISE_P) {
    const amount = minRaiseTotal(room, playerId);
    if (amount !== null) return { type: 'act', action: 'RAISE', amount };
  }
  return { type: 'act', action: 'CALL' };
}

/**
 * The next command for this room, or null when there is nothing to do (waiting for players,
 * game over). `random` makes the choices; pass a seeded one for reproducible runs.
 */
export function nextMove(room: Room, random: () => number): Move | null {
  const host = room.hostId;
  const players = Object.values(room.players);
  if (room.status === 'LOBBY') {
    const pending = players.find((p) => !p.isApproved);
    if (pending) return { actorId: host, command: { type: 'approve', playerId: pending.id } };
    if (players.length >= 2) return { actorId: host, command: { type: 'startGame' } };
    return null;
  }
  if (room.status !== 'PLAYING') return null;
  const gs = room.gameState;
  if (gs.currentTurnPlayerId && room.players[gs.currentTurnPlayerId]) {
    return { actorId: gs.currentTurnPlayerId, command: bettingMove(room, gs.currentTurnPlayerId, random) };
  }
  if (gs.canAdvanceStage) return { actorId: host, command: { type: 'advanceStage' } };
  if (gs.stage !== 'SHOWDOWN') return null;
  const potTotal = gs.pots.reduce((sum, pot) => sum + pot.amount, 0);
  if (potTotal > 0) {
    // Every pot goes to the chosen winners eligible for it; a player in every pot can take them all.
    const contenders = players.filter((p) => p.isActive && !p.hasFolded);
    const inEveryPot = contenders.filter((p) => gs.pots.every((pot) => pot.eligiblePlayers.includes(p.id)));
    const winner = pick(inEveryPot.length ? inEveryPot : contenders, random);
    if (!winner) return null;
    const winnerIds = inEveryPot.length ? [winner.id] : contenders.map((p) => p.id);
    return { actorId: host, command: { type: 'declareWinners', winnerIds } };
  }
  const chipless = players.find((p) => p.isApproved && p.stack === 0);
  if (chipless) {
    return { actorId: host, command: { type: 'rebuy', playerId: chipless.id, amount: BOT_CHIPS } };
  }
  return { actorId: host, command: { type: 'newHand' } };
}
