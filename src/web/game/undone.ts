import type { LoggedEvent } from '../../engine/types';

/**
 * Which events of a room's log the host's undo took back, as a test for one event. The log keeps
 * them (it only moves forward, so phones still merge it by seq), followed by an `undone` event: the
 * events from its `undoneSeq` up to its own `seq` were taken back. What the screen derives from the
 * log (the fold-win overlay, the hand log's lines) asks this first, so a taken-back fold wins nothing.
 *
 * A join and a change of blinds keep the room's undo point (src/engine/undo.ts), so their events may
 * sit in that stretch without being taken back; no undoable command logs either, so they never are.
 */
export function takenBack(log: readonly LoggedEvent[]): (event: LoggedEvent) => boolean {
  const ranges: Array<{ from: number; to: number }> = [];
  for (const e of log) if (e.type === 'undone') ranges.push({ from: e.undoneSeq, to: e.seq });
  if (ranges.length === 0) return () => false;
  return (event) =>
    event.type !== 'playerJoined' &&
    event.type !== 'settingsUpdated' &&
    // Undoing a New Hand and then the award before it: the first undo's line sits in the second's
    // stretch, and stays as it is (an undo is never itself taken back).
    event.type !== 'undone' &&
    ranges.some(({ from, to }) => event.seq >= from && event.seq < to);
}
