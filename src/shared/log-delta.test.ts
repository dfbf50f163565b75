/** Log deltas: what a broadcast carries and how a phone folds it back into the whole log. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand, createRoom } from '../engine';
import { LOG_LIMIT } from '../engine/room';
import type { Command, Room } from '../engine/types';
import { logCovers, logDelta, mergeSnapshot } from './log-delta';
import type { RoomSnapshot } from './protocol';

let clock = 0;
function step(room: Room, actor: string, command: Command): Room {
  const res = applyCommand(room, actor, command, ++clock);
  if (!res.ok || !res.room) throw new Error(`${command.type} refused: ${res.ok ? 'deleted' : res.error}`);
  return res.room;
}

/** The rooms a 3-player game goes through (versions 1..n), long enough to overflow the log cap. */
function history(): Room[] {
  let room = createRoom({ roomCode: 'LOGDL', hostId: 'ana', hostName: 'Ana', startingChips: 5_000, now: 0 });
  const rooms = [room];
  const push = (actor: string, command: Command) => {
    room = step(room, actor, command);
    rooms.push(room);
  };
  for (const id of ['ben', 'cal']) {
    push(id, { type: 'join', name: id, startingChips: 5_000 });
    push('ana', { type: 'approve', playerId: id });
  }
  push('ana', { type: 'startGame' });
  for (let hand = 0; hand < 12; hand++) {
    // Everyone checks or calls (CALL) to the end of the betting, then the host awards the pot.
    while (room.gameState.stage !== 'SHOWDOWN') {
      const turn = room.gameState.currentTurnPlayerId;
      if (turn) push(turn, { type: 'act', action: 'CALL' });
      else push('ana', { type: 'advanceStage' });
    }
    push('ana', { type: 'declareWinners', winnerIds: ['ana'] });
    push('ana', { type: 'newHand' });
  }
  return rooms;
}

const rooms = history();
const snap = (i: number, presence: Record<string, boolean> = {}): RoomSnapshot => ({
  version: i + 1,
  room: rooms[i]!,
  presence,
});
/** The broadcast of the change that made version i+1 (rooms[i]) from rooms[i-1]. */
const broadcast = (i: number) => logDelta(snap(i), rooms[i - 1]!.nextEventSeq);

describe('logDelta', () => {
  it('keeps only the events this change logged', () => {
    expect(rooms.at(-1)!.log).toHaveLength(LOG_LIMIT);
    const last = rooms.length - 1;
    const b = broadcast(last);
    expect(b.logFrom).toBe(rooms[last - 1]!.nextEventSeq);
    expect(b.room.log.map((e) => e.seq)).toEqual(
      rooms[last]!.log.filter((e) => e.seq >= rooms[last - 1]!.nextEventSeq).map((e) => e.seq),
    );
    expect(b.room.log.length).toBeGreaterThan(0);
    // Everything else is the room as it is.
    expect({ ...b.room, log: rooms[last]!.log }).toEqual(rooms[last]);
    expect(b.version).toBe(rooms.length);
  });

  it('carries no event for a change that logged none (presence)', () => {
    const room = rooms.at(-1)!;
    const b = logDelta({ version: 9, room, presence: { ana: false } }, room.nextEventSeq);
    expect(b.room.log).toEqual([]);
    expect(b.presence).toEqual({ ana: false });
    expect(b.logFrom).toBe(room.nextEventSeq);
  });

  it('does not change its input', () => {
    const s = snap(rooms.length - 1);
    const before = structuredClone(s);
    logDelta(s, 0);
    expect(s).toEqual(before);
  });
});

describe('mergeSnapshot', () => {
  it('rebuilds exactly the whole snapshot from one full snapshot and the broadcasts after it', () => {
    for (const start of [0, 5, 30]) {
      let held = mergeSnapshot(null, snap(start)).snapshot;
      for (let i = start + 1; i < rooms.length; i++) {
        const merged = mergeSnapshot(held, broadcast(i));
        expect(merged.missing).toBe(false);
        held = merged.snapshot;
        expect(held).toEqual(snap(i));
      }
    }
  });

  it('returns the held snapshot itself when nothing changed, and a full snapshot as it came', () => {
    const full = snap(20);
    const held = mergeSnapshot(null, full);
    expect(held).toEqual({ snapshot: full, missing: false });
    expect(held.snapshot).toBe(full);
    expect(mergeSnapshot(full, broadcast(20)).snapshot).toBe(full);
    expect(mergeSnapshot(full, broadcast(19)).snapshot).toBe(full);
  });

  it('takes presence from a same-version broadcast', () => {
    const held = snap(20, { ana: true, ben: true });
    const presence = logDelta(snap(20, { ana: true, ben: false }), rooms[20]!.nextEventSeq);
    const merged = mergeSnapshot(held, presence);
    expect(merged.missing).toBe(false);
    expect(merged.snapshot).toEqual(snap(20, { ana: true, ben: false }));
    // Every phone's presence changed: still a change.
    const flipped = mergeSnapshot(
      snap(20, { ana: true }),
      logDelta(snap(20, { ana: false }), rooms[20]!.nextEventSeq),
    );
    expect(flipped.snapshot).toEqual(snap(20, { ana: false }));
    // The same presence again: nothing changed, the held snapshot itself.
    const same = logDelta(snap(20, { ana: true, ben: true }), rooms[20]!.nextEventSeq);
    expect(mergeSnapshot(held, same).snapshot).toBe(held);
  });

  it('keeps the newer state when an older broadcast arrives late, and still adds its events', () => {
    // Two processes' broadcasts crossed: version 31's arrives before version 30's.
    let held = snap(28);
    const early = mergeSnapshot(held, broadcast(30));
    const lostEvents = rooms[29]!.nextEventSeq > rooms[28]!.nextEventSeq;
    expect(early.missing).toBe(lostEvents);
    held = early.snapshot;
    const late = mergeSnapshot(held, broadcast(29));
    expect(late.missing).toBe(false);
    expect(late.snapshot).toEqual(snap(30));
  });

  it('says events are missing when a broadcast was lost, and a full snapshot mends the log', () => {
    // Find a change that logged something, and lose its broadcast.
    const lost = rooms.findIndex((r, i) => i > 10 && r.nextEventSeq > rooms[i - 1]!.nextEventSeq);
    const held = snap(lost - 1);
    const after = mergeSnapshot(held, broadcast(lost + 1));
    expect(after.missing).toBe(true);
    expect(after.snapshot.version).toBe(lost + 2);
    const mended = mergeSnapshot(after.snapshot, snap(lost + 1));
    expect(mended.missing).toBe(false);
    expect(mended.snapshot).toEqual(snap(lost + 1));
  });

  it('logCovers: a hole left by a broadcast that ran ahead, and the late one filling it', () => {
    const lost = rooms.findIndex((r, i) => i > 10 && r.nextEventSeq > rooms[i - 1]!.nextEventSeq);
    const held = snap(lost - 1);
    const from = held.room.nextEventSeq;
    const ahead = broadcast(lost + 1);
    const to = ahead.logFrom!;
    expect(to).toBeGreaterThan(from);
    const early = mergeSnapshot(held, ahead).snapshot;
    expect(logCovers(early.room.log, from, to)).toBe(false);
    const late = mergeSnapshot(early, broadcast(lost)).snapshot;
    expect(logCovers(late.room.log, from, to)).toBe(true);
    // One event short of the range, or an empty log: not covered; an empty range is covered.
    const short = late.room.log.filter((e) => e.seq !== to - 1);
    expect(logCovers(short, from, to)).toBe(false);
    expect(logCovers([], from, to)).toBe(false);
    // A full log: events older than its window are not wanted.
    const full = rooms.at(-1)!.log;
    expect(full).toHaveLength(LOG_LIMIT);
    expect(logCovers(full, full[0]!.seq - 5, full[0]!.seq + 1)).toBe(true);
    // A hole just after a full log's first event is one all the same.
    const holed = full.map((e, i) => (i === 0 ? e : { ...e, seq: e.seq + 1 }));
    expect(logCovers(holed, full[0]!.seq + 1, full[0]!.seq + 3)).toBe(false);
    // A log that is not full holds everything since the room began: a hole before its first event is
    // one (a new room's first broadcast lost, the second arrived; review of session 37).
    const young = rooms[3]!.log;
    expect(young.length).toBeLessThan(LOG_LIMIT);
    expect(logCovers(young.slice(1), young[0]!.seq, young[1]!.seq)).toBe(false);
    expect(logCovers(young, young[0]!.seq, young[1]!.seq)).toBe(true);
    // `to` itself is not asked for: a log up to the room's last event covers up to its next seq.
    expect(logCovers(young, young[0]!.seq, rooms[3]!.nextEventSeq)).toBe(true);
    expect(logCovers(late.room.log, to, to)).toBe(true);
  });

  it("an acknowledgement's idle stays with its state: on a first load, and on a resume over a held log it outran; a later change drops it", () => {
    const last = rooms.length - 1;
    expect(rooms[last - 3]!.log).toHaveLength(LOG_LIMIT);
    const acked = (i: number, idle: number): RoomSnapshot => ({ ...snap(i), idle });
    // A reload: nothing held.
    expect(mergeSnapshot(null, acked(last - 3, 25_000)).snapshot).toEqual(acked(last - 3, 25_000));
    // A phone that slept through three changes: the held log has events older than the
    // acknowledgement's window, so the merge builds a new snapshot; the server's count comes with it.
    const held = mergeSnapshot(null, snap(last - 3)).snapshot;
    const resumed = mergeSnapshot(held, acked(last, 25_000)).snapshot;
    expect(resumed).toEqual(acked(last, 25_000));
    // The next change (a broadcast) or a presence change at the same version: its moment is new.
    const next = { ...snap(last, { ana: false }), logFrom: rooms[last]!.nextEventSeq };
    expect(mergeSnapshot(resumed, next).snapshot.idle).toBeUndefined();
    expect(mergeSnapshot(resumed, broadcast(last)).snapshot).toBe(resumed);
  });

  it('starts over for another room, and flags a broadcast held without a full snapshot', () => {
    const other = { ...snap(3), room: { ...rooms[3]!, roomCode: 'OTHER' } };
    expect(mergeSnapshot(other, snap(10))).toEqual({ snapshot: snap(10), missing: false });
    const first = mergeSnapshot(null, broadcast(10));
    expect(first.missing).toBe(true);
    expect(first.snapshot.logFrom).toBeUndefined();
  });

  it('converges on the whole snapshot whatever the order, duplicates and lost broadcasts, once a full one arrives', () => {
    const last = rooms.length - 1;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: last - 1 }),
        fc.array(fc.integer({ min: 1, max: last }), { maxLength: 40 }),
        fc.integer({ min: 0, max: last }),
        (start, deliveries, fullAt) => {
          let held = mergeSnapshot(null, snap(start)).snapshot;
          for (const i of deliveries) held = mergeSnapshot(held, broadcast(i)).snapshot;
          held = mergeSnapshot(held, snap(fullAt)).snapshot;
          // The full one (or a newer state already held, with the full one's log folded in), then
          // every broadcast after it, in order: the phone holds the whole room.
          for (let i = fullAt + 1; i <= last; i++) held = mergeSnapshot(held, broadcast(i)).snapshot;
          expect(held).toEqual(snap(last));
          expect(held.room.log.length).toBeLessThanOrEqual(LOG_LIMIT);
        },
      ),
    );
  });

  it('without losses or reordering, every step equals the whole snapshot and nothing is flagged', () => {
    const last = rooms.length - 1;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: last - 1 }), fc.integer({ min: 0, max: 3 }), (start, repeats) => {
        let held = mergeSnapshot(null, snap(start)).snapshot;
        for (let i = start + 1; i <= last; i++) {
          for (let r = 0; r <= repeats; r++) {
            const m = mergeSnapshot(held, broadcast(i));
            expect(m.missing).toBe(false);
            held = m.snapshot;
          }
          expect(held).toEqual(snap(i));
        }
      }),
      { numRuns: 20 },
    );
  });
});
