/**
 * ringUpdate against its definition (fitsRing and a plain search for the new events) on the logs the
 * engine makes and on any others, with and without the previous log; `tail` only when the log starts
 * with the previous log's end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../engine/types';
import { fitsRing, LOG_SLOTS, ringUpdate } from './slots';

const event = (seq: number): LoggedEvent =>
  ({ type: 'handStarted', handNumber: 1, seq, at: 0 }) as unknown as LoggedEvent;

/** What ringUpdate must answer. */
function expected(log: readonly LoggedEvent[], logLastBefore: number) {
  const fits = fitsRing(log);
  if (!fits) return { fits, from: log.length };
  const from = log.findIndex((e) => e.seq > logLastBefore);
  return { fits, from: from < 0 ? log.length : from };
}

/** A fitting log of `length` consecutive events from `first`. */
const consecutive = (first: number, length: number) => Array.from({ length }, (_, i) => event(first + i));

describe('ringUpdate', () => {
  it('takes the short way on what the engine makes: the end of the previous log plus new events', () => {
    const previous = consecutive(100, LOG_SLOTS);
    const log = [...previous.slice(3), ...consecutive(150, 3)];
    expect(ringUpdate(log, 149, previous)).toEqual({ fits: true, from: LOG_SLOTS - 3, tail: true });
    // The same log, with an old event replaced by an equal but other object: the whole walk, same answer.
    const copy = [...log];
    copy[5] = event(copy[5]!.seq);
    expect(ringUpdate(copy, 149, previous)).toEqual({ fits: true, from: LOG_SLOTS - 3, tail: false });
    // No new events (the command logged nothing): the same array.
    expect(ringUpdate(previous, 149, previous)).toEqual({ fits: true, from: LOG_SLOTS, tail: true });
    // Without the previous log: the whole walk.
    expect(ringUpdate(log, 149, undefined)).toEqual({ fits: true, from: LOG_SLOTS - 3, tail: false });
  });

  it('never says a log fits when it does not, whatever it shares with the previous log', () => {
    const previous = consecutive(100, 10);
    // Old events out of order: not the end of the previous log, so the whole walk finds it.
    expect(ringUpdate([previous[8]!, previous[7]!, previous[9]!, event(110)], 109, previous)).toEqual({
      fits: false,
      from: 4,
      tail: false,
    });
    // New events not increasing.
    expect(ringUpdate([...previous, event(112), event(111)], 109, previous)).toEqual({
      fits: false,
      from: 12,
      tail: false,
    });
    // Spanning LOG_SLOTS seqs.
    expect(ringUpdate([...previous, event(100 + LOG_SLOTS)], 109, previous)).toEqual({
      fits: false,
      from: 11,
      tail: false,
    });
    // A new event at or below an old one: its seq is not above logLastBefore, so it ends the walk
    // back, and what is before it is not the previous log's end.
    expect(ringUpdate([...previous, event(105)], 109, previous)).toEqual({
      fits: false,
      from: 11,
      tail: false,
    });
  });

  it('answers as fitsRing and a plain search do, for any log and previous log (property)', () => {
    const seqs = fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 60 });
    fc.assert(
      fc.property(
        seqs,
        fc.integer({ min: 0, max: 60 }),
        seqs,
        fc.integer({ min: -1, max: 130 }),
        fc.boolean(),
        (previousSeqs, keep, newSeqs, logLastBefore, engineLike) => {
          const previous = previousSeqs.map(event);
          // Engine-like: the end of the previous log plus new events; else any mix of old objects and new.
          const fresh = (engineLike ? [...newSeqs].sort((a, b) => a - b) : newSeqs).map(event);
          const log = engineLike
            ? [...previous.slice(Math.max(0, previous.length - keep)), ...fresh]
            : fresh.map((e, i) => (i % 3 === 0 && previous[i] ? previous[i]! : e));
          const given = fitsRing(previous) ? previous : undefined;
          const { fits, from, tail } = ringUpdate(log, logLastBefore, given);
          expect({ fits, from }).toEqual(expected(log, logLastBefore));
          // `tail` only when it holds: the log's first `from` events are the previous log's last ones.
          if (tail) {
            expect(given).toBeDefined();
            expect(fits).toBe(true);
            const dropped = given!.length - from;
            expect(dropped).toBeGreaterThanOrEqual(0);
            for (let i = 0; i < from; i++) expect(log[i]).toBe(given![dropped + i]);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the property covers the short way: fitting previous logs and their engine-made successors', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: LOG_SLOTS }),
        fc.integer({ min: 0, max: LOG_SLOTS }),
        fc.integer({ min: 0, max: 5 }),
        (first, length, keep, added) => {
          const previous = consecutive(first, length);
          const logLastBefore = length > 0 ? first + length - 1 : first - 1;
          const kept = previous.slice(Math.max(0, length - Math.min(keep, LOG_SLOTS - added)));
          const log = [...kept, ...consecutive(logLastBefore + 1, added)];
          expect(ringUpdate(log, logLastBefore, previous)).toEqual({
            ...expected(log, logLastBefore),
            tail: true,
          });
          expect(ringUpdate(log, logLastBefore, previous)).toEqual({
            fits: true,
            from: kept.length,
            tail: true,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
