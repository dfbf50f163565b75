/**
 * The one RoomStore contract test suite. Every store (SQLite, Redis, any in-memory double) runs it:
 *
 *   runRoomStoreContract('sqlite', async () => { ...; return { store, cleanup, openAnother } });
 *
 * Tests use random room codes and counter keys, so a shared backend (one Redis) needs no flushing
 * between tests. Activity semantics the suite pins down: create/save set a room's activity time to
 * `record.room.lastActivity`; touch sets it to `now`; listIdle(before) lists rooms whose activity time
 * is strictly before `before`.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Player, Room } from '../../engine/types';
import { ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '../../shared/limits';
import { gameRecords } from './engine-game';
import type { RoomStore, StoredRoom } from './room-store';

/** What a store factory hands the contract suite. */
export interface ContractStoreHandle {
  store: RoomStore;
  /** Releases everything the factory made. Must tolerate a store the suite already closed. */
  cleanup: () => Promise<void>;
  /**
   * Opens another store over the same data: a restarted process, or a second process sharing the
   * backend. The suite checks persistence across close and reopen, and races between two store
   * instances (or, for an exclusive store, that the second is refused). The suite closes what it opens.
   */
  openAnother: () => Promise<RoomStore>;
}

/** What kind of store the suite checks. */
export interface ContractOptions {
  /**
   * True for a store that one process owns (SQLite: recent writes wait in its journal): opening
   * another over the same data while one is open is refused, and the suite checks that instead of
   * the races between two instances on the same data.
   */
  exclusive?: boolean;
}

/** A random room code that will not collide with other tests sharing the backend. */
function randomCode(): string {
  let code = '';
  for (let i = 0; i < ROOM_CODE_LENGTH; i++) code += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
  return code;
}

function player(id: string, name: string, joinedAt: number, isHost: boolean): Player {
  return {
    id,
    name,
    isHost,
    isApproved: true,
    status: 'active',
    stack: 5000,
    totalInvestment: 5000,
    role: 'PLAYER',
    joinedAt,
    currentRoundBet: 0,
    totalPotContribution: 0,
    hasFolded: false,
    isActive: true,
    isAllIn: false,
    hasActedThisRound: false,
    lastChipUpdate: joinedAt,
  };
}

/** A realistic room fixture (built by hand: the suite does not depend on the engine). */
export function sampleRoom(roomCode: string, lastActivity = 1_700_000_000_000): Room {
  const hostId = `host-${randomUUID()}`;
  const guestId = `guest-${randomUUID()}`;
  return {
    roomCode,
    hostId,
    createdAt: lastActivity - 1000,
    lastActivity,
    status: 'LOBBY',
    settings: { smallBlind: 100, bigBlind: 200, maxPlayers: 10, enableRebuys: true },
    players: {
      [hostId]: player(hostId, 'Ána "the host" ♠', lastActivity - 1000, true),
      [guestId]: {
        ...player(guestId, 'Bob', lastActivity - 500, false),
        isApproved: false,
        status: 'waiting_approval',
      },
    },
    gameState: {
      stage: 'PRE_FLOP',
      dealerId: null,
      currentTurnPlayerId: null,
      handNumber: 0,
      pots: [{ id: 'main', amount: 0, eligiblePlayers: [], isMainPot: true }],
      canAdvanceStage: false,
      nextStage: null,
      nextStageName: null,
      stageProgress: 0,
      lastRaiseAmount: 0,
      autoAdvancedReason: null,
      status: 'LOBBY',
      endedAt: null,
      endedBy: null,
      message: null,
      winnerIds: [],
    },
    ledger: [],
    log: [
      {
        type: 'playerJoined',
        playerId: guestId,
        name: 'Bob',
        startingChips: 5000,
        seq: 0,
        at: lastActivity - 500,
        handNumber: 0,
      },
    ],
    nextEventSeq: 1,
  };
}

function record(code: string, version = 1, lastActivity?: number): StoredRoom {
  return {
    room: sampleRoom(code, lastActivity),
    version,
    appliedCommands: [{ commandId: `cmd-${randomUUID()}`, actorId: 'someone', version }],
  };
}

/** The next version of a stored room, as the room service would write it. */
function nextVersion(prev: StoredRoom, lastActivity = prev.room.lastActivity + 1): StoredRoom {
  return {
    room: {
      ...prev.room,
      lastActivity,
      settings: { ...prev.room.settings, smallBlind: prev.room.settings.smallBlind + 1 },
    },
    version: prev.version + 1,
    appliedCommands: [
      ...prev.appliedCommands,
      { commandId: `cmd-${randomUUID()}`, actorId: 'someone', version: prev.version + 1 },
    ],
  };
}

/** Defines the RoomStore contract suite for one store implementation. */
export function runRoomStoreContract(
  name: string,
  makeStore: () => Promise<ContractStoreHandle>,
  options: ContractOptions = {},
): void {
  describe(`RoomStore contract: ${name}`, () => {
    let handle: ContractStoreHandle;
    let store: RoomStore;

    beforeEach(async () => {
      handle = await makeStore();
      store = handle.store;
    });
    afterEach(async () => {
      await handle.cleanup();
    });

    describe('load and create', () => {
      it('load of an unknown code is null', async () => {
        expect(await store.load(randomCode())).toBeNull();
      });

      it('create then load round-trips the record exactly', async () => {
        const rec = record(randomCode());
        rec.room.log.push({
          type: 'potAwarded',
          potId: 'side-1',
          amount: 12345,
          winners: [{ playerId: 'p', name: '李 ♥ émoji 🂡', amount: 12345 }],
          reason: 'SHOWDOWN',
          message: null,
          seq: 1,
          at: 1,
          handNumber: 3,
        });
        expect(await store.create(rec)).toBe(true);
        const loaded = await store.load(rec.room.roomCode);
        expect(loaded).toEqual(rec);
        // Undefined optional fields must not appear, null ones must stay null.
        expect(loaded?.room.gameState.dealerId).toBeNull();
      });

      it('create on a taken code returns false and keeps the first room', async () => {
        const code = randomCode();
        const first = record(code);
        const second = record(code, 7);
        expect(await store.create(first)).toBe(true);
        expect(await store.create(second)).toBe(false);
        expect(await store.load(code)).toEqual(first);
      });

      it('concurrent creates of one code: exactly one wins', async () => {
        const code = randomCode();
        const results = await Promise.all([1, 2, 3, 4, 5].map((v) => store.create(record(code, v))));
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true) + 1;
        expect((await store.load(code))?.version).toBe(winner);
      });

      it('loaded records are copies: mutating them changes nothing stored', async () => {
        const rec = record(randomCode());
        await store.create(rec);
        rec.room.status = 'ENDED';
        const loaded = await store.load(rec.room.roomCode);
        expect(loaded?.room.status).toBe('LOBBY');
        if (loaded) loaded.room.settings.bigBlind = 1;
        expect((await store.load(rec.room.roomCode))?.room.settings.bigBlind).toBe(200);
      });

      it('round-trips a large room (hundreds of log entries)', async () => {
        const rec = record(randomCode());
        for (let i = 1; i <= 500; i++) {
          rec.room.log.push({ type: 'stageChanged', stage: 'FLOP', seq: i, at: i, handNumber: i });
        }
        rec.room.nextEventSeq = 501;
        expect(await store.create(rec)).toBe(true);
        expect(await store.load(rec.room.roomCode)).toEqual(rec);
      });
    });

    describe('save (optimistic concurrency)', () => {
      it('a real game, save after save: load returns exactly what was saved (the log full and sliding)', async () => {
        const code = randomCode();
        const records = gameRecords(code, 90);
        const rooms = records.map((r) => r.room);
        expect(await store.create(records[0]!)).toBe(true);
        for (let i = 1; i < records.length; i++) {
          expect(await store.save(records[i]!, i)).toBe(true);
          expect(await store.load(code)).toEqual(records[i]);
        }
        expect(rooms.at(-1)!.log.length).toBe(50);
        expect(rooms.at(-1)!.log[0]!.seq).toBeGreaterThan(0);
      });

      it('save with the stored version replaces the room', async () => {
        const v1 = record(randomCode());
        await store.create(v1);
        const v2 = nextVersion(v1);
        expect(await store.save(v2, 1)).toBe(true);
        expect(await store.load(v1.room.roomCode)).toEqual(v2);
        const v3 = nextVersion(v2);
        expect(await store.save(v3, 2)).toBe(true);
        expect(await store.load(v1.room.roomCode)).toEqual(v3);
      });

      it('save with a wrong expected version returns false and writes nothing', async () => {
        const v1 = record(randomCode());
        await store.create(v1);
        const v2 = nextVersion(v1);
        expect(await store.save(v2, 0)).toBe(false);
        expect(await store.save(v2, 2)).toBe(false);
        expect(await store.load(v1.room.roomCode)).toEqual(v1);
        expect(await store.save(v2, 1)).toBe(true);
        // A stale writer that read version 1 loses now.
        expect(await store.save({ ...nextVersion(v1), version: 2 }, 1)).toBe(false);
        expect(await store.load(v1.room.roomCode)).toEqual(v2);
      });

      it('save of a room that does not exist returns false and does not create it', async () => {
        const v1 = record(randomCode());
        expect(await store.save(nextVersion(v1), 1)).toBe(false);
        expect(await store.load(v1.room.roomCode)).toBeNull();
      });

      it('concurrent saves against one version: exactly one wins', async () => {
        const v1 = record(randomCode());
        await store.create(v1);
        const candidates = [0, 1, 2, 3, 4, 5].map(() => nextVersion(v1));
        const results = await Promise.all(candidates.map((c) => store.save(c, 1)));
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = candidates[results.indexOf(true)];
        expect(await store.load(v1.room.roomCode)).toEqual(winner);
      });
    });

    describe('delete', () => {
      it('delete with the stored version removes the room', async () => {
        const v1 = record(randomCode());
        await store.create(v1);
        expect(await store.delete(v1.room.roomCode, 1)).toBe(true);
        expect(await store.load(v1.room.roomCode)).toBeNull();
        expect(await store.delete(v1.room.roomCode, 1)).toBe(false);
      });

      it('delete with a wrong version returns false and keeps the room', async () => {
        const v1 = record(randomCode());
        await store.create(v1);
        expect(await store.delete(v1.room.roomCode, 2)).toBe(false);
        expect(await store.load(v1.room.roomCode)).toEqual(v1);
      });

      it('delete of an unknown code returns false', async () => {
        expect(await store.delete(randomCode(), 1)).toBe(false);
      });

      it('a deleted code can be created again', async () => {
        const code = randomCode();
        await store.create(record(code));
        await store.delete(code, 1);
        const again = record(code);
        expect(await store.create(again)).toBe(true);
        expect(await store.load(code)).toEqual(again);
      });
    });

    describe('activity: touch and listIdle', () => {
      it('listIdle lists rooms whose activity is strictly before the cut-off', async () => {
        const t = 1_800_000_000_000 + randomInt(1_000_000);
        const old = record(randomCode(), 1, t - 10_000);
        const fresh = record(randomCode(), 1, t);
        await store.create(old);
        await store.create(fresh);
        const idle = await store.listIdle(t - 1);
        expect(idle).toContain(old.room.roomCode);
        expect(idle).not.toContain(fresh.room.roomCode);
        expect(await store.listIdle(t)).not.toContain(fresh.room.roomCode);
        expect(await store.listIdle(t + 1)).toContain(fresh.room.roomCode);
      });

      it('touch moves the activity time without changing version or room', async () => {
        const t = 1_800_000_000_000 + randomInt(1_000_000);
        const rec = record(randomCode(), 1, t);
        await store.create(rec);
        await store.touch([rec.room.roomCode], t + 60_000);
        expect(await store.listIdle(t + 30_000)).not.toContain(rec.room.roomCode);
        expect(await store.listIdle(t + 60_001)).toContain(rec.room.roomCode);
        const loaded = await store.load(rec.room.roomCode);
        expect(loaded?.version).toBe(1);
        expect(loaded?.appliedCommands).toEqual(rec.appliedCommands);
        expect(loaded?.room.players).toEqual(rec.room.players);
      });

      it('save sets the activity time to the saved room lastActivity', async () => {
        const t = 1_800_000_000_000 + randomInt(1_000_000);
        const v1 = record(randomCode(), 1, t);
        await store.create(v1);
        await store.save(nextVersion(v1, t + 100_000), 1);
        expect(await store.listIdle(t + 50_000)).not.toContain(v1.room.roomCode);
        expect(await store.listIdle(t + 100_001)).toContain(v1.room.roomCode);
      });

      it('touch moves many rooms at once and skips the codes of rooms that do not exist', async () => {
        const t = 1_800_000_000_000 + randomInt(1_000_000);
        const rooms = [record(randomCode(), 1, t), record(randomCode(), 1, t), record(randomCode(), 1, t)];
        for (const r of rooms) await store.create(r);
        const missing = randomCode();
        const [a, b, c] = rooms.map((r) => r.room.roomCode) as [string, string, string];
        await store.touch([a, missing, c], t + 60_000);
        const idle = await store.listIdle(t + 30_000);
        expect(idle).not.toContain(a);
        expect(idle).toContain(b);
        expect(idle).not.toContain(c);
        expect(await store.load(missing)).toBeNull();
        await store.touch([], t + 90_000);
        expect(await store.listIdle(t + 30_000)).toContain(b);
      });

      it('touch of an unknown code does nothing (and does not create it)', async () => {
        const code = randomCode();
        await store.touch([code], Date.now());
        expect(await store.load(code)).toBeNull();
        expect(await store.listIdle(Number.MAX_SAFE_INTEGER)).not.toContain(code);
      });

      it('deleted rooms are not listed as idle', async () => {
        const rec = record(randomCode(), 1, 1000);
        await store.create(rec);
        await store.delete(rec.room.roomCode, 1);
        expect(await store.listIdle(Number.MAX_SAFE_INTEGER)).not.toContain(rec.room.roomCode);
      });
    });

    describe('counters', () => {
      it('missing counters read as 0; increments add up', async () => {
        const p = `test/${randomUUID()}`;
        expect(await store.readCounters([`${p}/a`, `${p}/b`])).toEqual({ [`${p}/a`]: 0, [`${p}/b`]: 0 });
        await store.increment({ [`${p}/a`]: 1, [`${p}/b`]: 5 });
        await store.increment({ [`${p}/a`]: 2 });
        expect(await store.readCounters([`${p}/a`, `${p}/b`, `${p}/c`])).toEqual({
          [`${p}/a`]: 3,
          [`${p}/b`]: 5,
          [`${p}/c`]: 0,
        });
      });

      it('readCounters of no keys is an empty object; increment of nothing is a no-op', async () => {
        await store.increment({});
        expect(await store.readCounters([])).toEqual({});
      });

      it('counter keys look like the spec paths', async () => {
        const key = `daily_analytics/2026-11-21/games_started/${randomUUID()}`;
        await store.increment({ [key]: 1 });
        expect(await store.readCounters([key])).toEqual({ [key]: 1 });
      });

      it('concurrent increments are atomic', async () => {
        const key = `test/${randomUUID()}/hands`;
        const other = `test/${randomUUID()}/minutes`;
        await Promise.all(
          Array.from({ length: 100 }, (_, i) => store.increment({ [key]: 1, [other]: i % 2 === 0 ? 3 : 0 })),
        );
        expect(await store.readCounters([key, other])).toEqual({ [key]: 100, [other]: 150 });
      });

      it('counters are independent of rooms', async () => {
        const key = `test/${randomUUID()}`;
        const rec = record(randomCode());
        await store.create(rec);
        await store.increment({ [key]: 4 });
        await store.delete(rec.room.roomCode, 1);
        expect(await store.readCounters([key])).toEqual({ [key]: 4 });
      });
    });

    describe('persistence and multiple instances', () => {
      it('every committed write survives close and reopen', async () => {
        const v1 = record(randomCode());
        const gone = record(randomCode());
        const key = `test/${randomUUID()}`;
        await store.create(v1);
        await store.create(gone);
        const v2 = nextVersion(v1);
        await store.save(v2, 1);
        await store.delete(gone.room.roomCode, 1);
        await store.increment({ [key]: 7 });
        await store.close();
        const reopened = await handle.openAnother();
        try {
          expect(await reopened.load(v1.room.roomCode)).toEqual(v2);
          expect(await reopened.load(gone.room.roomCode)).toBeNull();
          expect(await reopened.readCounters([key])).toEqual({ [key]: 7 });
          expect(await reopened.save(nextVersion(v2), 2)).toBe(true);
        } finally {
          await reopened.close();
        }
      });

      if (options.exclusive) {
        it('an exclusive store refuses a second instance while open, and goes on working', async () => {
          const v1 = record(randomCode());
          await store.create(v1);
          await expect(handle.openAnother()).rejects.toThrow('is in use by another Chipless server');
          expect(await store.save(nextVersion(v1), 1)).toBe(true);
          expect((await store.load(v1.room.roomCode))?.version).toBe(2);
          await store.close();
          const reopened = await handle.openAnother();
          try {
            expect((await reopened.load(v1.room.roomCode))?.version).toBe(2);
          } finally {
            await reopened.close();
          }
        });
      } else {
        it('two instances on the same data: a save against a stale version loses', async () => {
          const other = await handle.openAnother();
          try {
            const v1 = record(randomCode());
            await store.create(v1);
            expect(await other.load(v1.room.roomCode)).toEqual(v1);
            const a = nextVersion(v1);
            const b = nextVersion(v1);
            const results = await Promise.all([store.save(a, 1), other.save(b, 1)]);
            expect(results.filter(Boolean)).toHaveLength(1);
            const expected = results[0] ? a : b;
            expect(await store.load(v1.room.roomCode)).toEqual(expected);
            expect(await other.load(v1.room.roomCode)).toEqual(expected);
          } finally {
            await other.close();
          }
        });

        it('two instances on the same data: increments from both add up', async () => {
          const other = await handle.openAnother();
          try {
            const key = `test/${randomUUID()}`;
            await Promise.all(
              Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : other).increment({ [key]: 1 })),
            );
            expect(await other.readCounters([key])).toEqual({ [key]: 50 });
          } finally {
            await other.close();
          }
        });
      }
    });

    it('close may be called more than once', async () => {
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
