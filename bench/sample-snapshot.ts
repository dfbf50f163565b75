/**
 * A synthetic mid-hand snapshot of a 6-player room, used as the floor's payload only when no real
 * snapshot was captured (e.g. `--store` runs failed before play). Shaped like a broadcast: the engine's
 * Room with only the change's new log events (RoomSnapshot.logFrom).
 */
import type { LoggedEvent, Player, Room } from '../src/engine/types';
import type { RoomSnapshot } from '../src/shared/protocol';

/** A plausible 6-player broadcast in the middle of a hand, carrying `logEvents` new log events. */
export function syntheticSnapshot(logEvents = 1): RoomSnapshot {
  const now = 1_760_000_000_000;
  const players: Record<string, Player> = {};
  const ids = Array.from({ length: 6 }, (_, i) => `p-${i}-0f8fad5b-d9cb-469f-a165-70867728950e`);
  ids.forEach((id, i) => {
    players[id] = {
      id,
      name: i === 0 ? 'Host' : `Bot ${i}`,
      isHost: i === 0,
      isApproved: true,
      status: 'active',
      stack: 9_600,
      totalInvestment: 10_000,
      role: i === 0 ? 'DEALER' : i === 1 ? 'SMALL_BLIND' : i === 2 ? 'BIG_BLIND' : 'PLAYER',
      joinedAt: now + i,
      currentRoundBet: 200,
      totalPotContribution: 400,
      hasFolded: false,
      isActive: true,
      isAllIn: false,
      hasActedThisRound: i < 3,
      lastChipUpdate: now + 1000 + i,
    };
  });
  const log: LoggedEvent[] = Array.from({ length: logEvents }, (_, seq) => ({
    type: 'playerActed',
    playerId: ids[seq % 6]!,
    name: `Bot ${seq % 6}`,
    action: 'CALL',
    amount: 200,
    totalBet: 200,
    allIn: false,
    seq,
    at: now + seq * 1000,
    handNumber: 7,
  }));
  const room: Room = {
    roomCode: 'AB3DE',
    hostId: ids[0]!,
    createdAt: now,
    lastActivity: now + 60_000,
    status: 'PLAYING',
    settings: { smallBlind: 100, bigBlind: 200, maxPlayers: 10, enableRebuys: true },
    players,
    gameState: {
      stage: 'FLOP',
      dealerId: ids[0]!,
      currentTurnPlayerId: ids[3]!,
      handNumber: 7,
      pots: [{ id: 'main', amount: 2_400, eligiblePlayers: ids, isMainPot: true }],
      canAdvanceStage: false,
      nextStage: null,
      nextStageName: null,
      stageProgress: 1,
      lastRaiseAmount: 0,
      autoAdvancedReason: null,
      status: 'PLAYING',
      endedAt: null,
      endedBy: null,
      message: null,
      winnerIds: [],
    },
    ledger: [],
    log,
    nextEventSeq: logEvents,
  };
  const presence = Object.fromEntries(ids.map((id) => [id, true]));
  return { version: 42, room, presence, logFrom: 0 };
}
