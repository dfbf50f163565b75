/**
 * Helpers shared by the engine's tests (not part of the public API).
 */
import { applyCommand } from './commands';
import { createRoom } from './room';
import type { Command, GameEvent, Room } from './types';

/** Freezes an object graph so any write to it throws (ESM code runs in strict mode). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Runs a command on a frozen room and returns the new room; throws with the error when refused. */
export function run(room: Room, actorId: string, command: Command, now = 1_000): Room {
  const { room: out } = runWithEvents(room, actorId, command, now);
  if (out === null) throw new Error('room was deleted');
  return out;
}

/** Like run, also returning the events. */
export function runWithEvents(
  room: Room,
  actorId: string,
  command: Command,
  now = 1_000,
): { room: Room | null; events: GameEvent[] } {
  const before = structuredClone(room);
  const res = applyCommand(deepFreeze(room), actorId, command, now);
  if (!res.ok) throw new Error(`refused: ${res.error}`);
  if (JSON.stringify(before) !== JSON.stringify(room)) throw new Error('input mutated');
  return { room: res.room, events: res.events };
}

/** Runs a command that must be refused and returns its error. */
export function refuse(room: Room, actorId: string, command: Command, now = 1_000): string {
  const res = applyCommand(deepFreeze(room), actorId, command, now);
  if (res.ok) throw new Error(`expected a refusal of ${command.type}`);
  return res.error;
}

/**
 * A lobby with players 'p0' (host) .. 'p{n-1}', all approved, named P0.., with the given stacks
 * (cents). Blinds as given (default 100/200).
 */
export function lobby(stacks: number[], blinds: [number, number] = [100, 200]): Room {
  let room = createRoom({
    roomCode: 'ABCDE',
    hostId: 'p0',
    hostName: 'P0',
    startingChips: stacks[0] ?? 10_000,
    now: 1_000,
  });
  for (let i = 1; i < stacks.length; i++) {
    room = run(room, `p${i}`, { type: 'join', name: `P${i}`, startingChips: stacks[i] ?? 0 }, 1_000 + i);
    room = run(room, 'p0', { type: 'approve', playerId: `p${i}` }, 1_000 + i);
  }
  if (blinds[0] !== 100 || blinds[1] !== 200)
    room = run(room, 'p0', { type: 'updateSettings', smallBlind: blinds[0], bigBlind: blinds[1] });
  return room;
}

/** Stacks by player id. */
export function stacks(room: Room): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of Object.values(room.players)) out[p.id] = p.stack;
  return out;
}

/** The player (throws when absent). */
export function player(room: Room, id: string) {
  const p = room.players[id];
  if (p === undefined) throw new Error(`no player ${id}`);
  return p;
}

/** A step for `play`: an action by a player, or 'advance' (host advances the stage). */
export type Step =
  | 'advance'
  | [actor: string, action: 'FOLD' | 'CALL' | 'ALL_IN']
  | [string, 'RAISE', number];

/** Plays steps in order (each must be accepted). */
export function play(room: Room, ...steps: Step[]): Room {
  let r = room;
  for (const step of steps) {
    if (step === 'advance') r = run(r, r.hostId, { type: 'advanceStage' });
    else if (step[1] === 'RAISE') r = run(r, step[0], { type: 'act', action: 'RAISE', amount: step[2] });
    else r = run(r, step[0], { type: 'act', action: step[1] });
  }
  return r;
}

/** A started game: lobby(stacks, blinds) then startGame. */
export function started(stacks: number[], blinds: [number, number] = [100, 200]): Room {
  return run(lobby(stacks, blinds), 'p0', { type: 'startGame' });
}

/**
 * A three-handed hand (p0 dealer, p1 small blind, p2 big blind, as `started` deals it) called and
 * checked down to the showdown: everyone in for the big blind, nobody folded.
 */
export function checkedDownThreeWay(room: Room): Room {
  const round: Step[] = [
    ['p1', 'CALL'],
    ['p2', 'CALL'],
    ['p0', 'CALL'],
  ];
  return play(
    room,
    ['p0', 'CALL'],
    ['p1', 'CALL'],
    ['p2', 'CALL'],
    'advance',
    ...round,
    'advance',
    ...round,
    'advance',
    ...round,
  );
}

/** Pots as [id, amount, eligible] triples. */
export function potsOf(room: Room): Array<[string, number, string[]]> {
  return room.gameState.pots.map((p) => [p.id, p.amount, p.eligiblePlayers]);
}
