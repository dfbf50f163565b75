/**
 * Engine micro-benchmark (`npm run bench:engine`): plays many 10-player hands through the public
 * engine API and prints the median and p95 microseconds per applyCommand call.
 * The player "strategy" uses a seeded PRNG so every run plays the same hands.
 * Usage: npm run bench:engine [-- --hands 4000]
 */
import { applyCommand, type Command, createRoom, type Room, raiseLimits } from '../src/engine/index';
import { seededRandom as prng } from './stats';

const handsArg = process.argv.indexOf('--hands');
const HANDS = handsArg > 0 ? Number(process.argv[handsArg + 1]) : 4_000;
const WARMUP_HANDS = 300;
const PLAYERS = 10;

const random = prng(42);
const samples: number[] = [];
let now = 1_700_000_000_000;
let measuring = false;

function apply(room: Room, actor: string, command: Command): Room {
  now += 1_000;
  const t0 = performance.now();
  const res = applyCommand(room, actor, command, now);
  const t1 = performance.now();
  if (measuring) samples.push((t1 - t0) * 1_000);
  if (!res.ok) throw new Error(`${command.type} refused: ${res.error}`);
  if (res.room === null) throw new Error('room deleted');
  return res.room;
}

function setUp(): Room {
  let room = createRoom({ roomCode: 'BENCH', hostId: 'p0', hostName: 'Host', startingChips: 50_000, now });
  for (let i = 1; i < PLAYERS; i++) {
    room = apply(room, `p${i}`, { type: 'join', name: `Player ${i}`, startingChips: 50_000 });
    room = apply(room, 'p0', { type: 'approve', playerId: `p${i}` });
  }
  return apply(room, 'p0', { type: 'startGame' });
}

/** The player to act picks: fold 15%, raise 15%, all-in 2%, else call/check. */
function choose(room: Room, actor: string): Command {
  const r = random();
  if (r < 0.15) return { type: 'act', action: 'FOLD' };
  if (r < 0.3) {
    const limits = raiseLimits(room, actor);
    if (limits !== null && limits.min <= limits.max) {
      const amount = limits.min + Math.floor(random() * Math.min(limits.max - limits.min, limits.min));
      return { type: 'act', action: 'RAISE', amount };
    }
  }
  if (r < 0.32) return { type: 'act', action: 'ALL_IN' };
  return { type: 'act', action: 'CALL' };
}

function playHand(start: Room): Room {
  let room = start;
  while (room.gameState.stage !== 'SHOWDOWN') {
    const turn = room.gameState.currentTurnPlayerId;
    room =
      turn === null ? apply(room, 'p0', { type: 'advanceStage' }) : apply(room, turn, choose(room, turn));
  }
  const live = Object.values(room.players).filter((p) => p.isActive && !p.hasFolded);
  const inPots = room.gameState.pots.reduce((sum, pot) => sum + pot.amount, 0);
  if (inPots > 0 && live.length > 1) {
    const winner = live[Math.floor(random() * live.length)] as (typeof live)[number];
    room = apply(room, 'p0', { type: 'declareWinners', winnerIds: [winner.id, ...live.map((p) => p.id)] });
  }
  // Keep the table full: top up anyone who went broke.
  for (const p of Object.values(room.players))
    if (p.stack === 0) room = apply(room, 'p0', { type: 'rebuy', playerId: p.id, amount: 50_000 });
  return apply(room, 'p0', { type: 'newHand' });
}

let room = setUp();
for (let h = 0; h < WARMUP_HANDS; h++) room = playHand(room);
measuring = true;
for (let h = 0; h < HANDS; h++) room = playHand(room);

samples.sort((a, b) => a - b);
const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
console.log(
  JSON.stringify(
    {
      benchmark: 'applyCommand, 10-player hands',
      hands: HANDS,
      commands: samples.length,
      medianMicros: Number(at(0.5).toFixed(2)),
      p95Micros: Number(at(0.95).toFixed(2)),
      p99Micros: Number(at(0.99).toFixed(2)),
      meanMicros: Number(mean.toFixed(2)),
      node: process.version,
    },
    null,
    2,
  ),
);
