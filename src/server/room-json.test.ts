/** roomJson: the same bytes as JSON.stringify. */
import { describe, expect, it, vi } from 'vitest';
import { applyCommand } from '../engine';
import type { Room } from '../engine/types';
import { logDelta } from '../shared/log-delta';
import { immutableJson, LOG_MARK, roomJson, roomJsonParts } from './room-json';
import { sampleRoom } from './test-helpers';

describe('roomJson', () => {
  it('is JSON.stringify of the room, byte for byte', () => {
    const room = sampleRoom();
    expect(roomJson(room)).toBe(JSON.stringify(room));
    expect(JSON.parse(roomJson(room))).toEqual(room);
    // Whatever the keys' order, undefined values, an empty log or odd text.
    const odd = { nextEventSeq: 3, log: [], roomCode: 'A"\\B\u2028', extra: undefined, ledger: [] };
    expect(roomJson(odd as unknown as Room)).toBe(JSON.stringify(odd));
    const later = applyCommand(room, 'host', { type: 'act', action: 'CALL' }, 9);
    if (!later.ok || !later.room) throw new Error('refused');
    expect(roomJson(later.room)).toBe(JSON.stringify(later.room));
    // In parts (for the journal): the skeleton around the log, joining into the same text.
    const parts = roomJsonParts(later.room);
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(JSON.stringify(later.room.log));
    expect(parts.join('')).toBe(JSON.stringify(later.room));
    expect(roomJsonParts({ ...later.room, log: [] }).join('')).toBe(
      JSON.stringify({ ...later.room, log: [] }),
    );
  });

  it('stringifies a log event once for the rooms that carry it one after the other', () => {
    const room = sampleRoom();
    const [first] = room.log;
    if (!first) throw new Error('empty log');
    // Every JSON.stringify of this event reads `at` exactly once.
    let reads = 0;
    const at = first.at;
    const counted = { ...first };
    Object.defineProperty(counted, 'at', {
      enumerable: true,
      get: () => {
        reads++;
        return at;
      },
    });
    const log = [counted, ...room.log.slice(1)];
    const a = { ...room, log };
    const b = { ...room, log, lastActivity: 99 };
    expect(roomJson(a)).toBe(JSON.stringify({ ...room, log: [{ ...first }, ...room.log.slice(1)] }));
    expect(reads).toBe(1);
    expect(JSON.parse(roomJson(b))).toEqual({ ...b, log: [{ ...first }, ...room.log.slice(1)] });
    expect(reads).toBe(1);
  });

  it("reuses the last room's JSON for a copy that differs only in its log, and only then", () => {
    const room = sampleRoom();
    // Counts how often the settings are stringified.
    let stringified = 0;
    const settings = {
      ...room.settings,
      toJSON: () => {
        stringified++;
        return room.settings;
      },
    };
    const counted = { ...room, settings } as Room;
    const expected = (r: Room) => JSON.stringify({ ...r, settings: room.settings });

    expect(roomJson(counted)).toBe(expected(counted));
    expect(stringified).toBe(1);
    // The store's copy (log empty) and the broadcast's (log cut): the same skeleton.
    const forStore = { ...counted, log: [] };
    const forBroadcast = logDelta({ version: 2, room: counted, presence: {} }, room.nextEventSeq - 1).room;
    expect(roomJson(forStore)).toBe(expected(forStore));
    expect(roomJson(forBroadcast)).toBe(expected(forBroadcast));
    expect(stringified).toBe(1);

    // Any other value changed (even to an equal copy), a key added, or the keys reordered: stringified again.
    const changed = { ...counted, lastActivity: counted.lastActivity + 1 };
    expect(roomJson(changed)).toBe(expected(changed));
    expect(stringified).toBe(2);
    const copied = { ...counted, players: { ...counted.players } };
    expect(roomJson(copied)).toBe(expected(copied));
    expect(stringified).toBe(3);
    const added = { ...counted, extra: 1 } as Room;
    expect(roomJson(added)).toBe(expected(added));
    expect(stringified).toBe(4);
    const { log, ...rest } = counted;
    const reordered = { log, ...rest } as Room;
    expect(roomJson(reordered)).toBe(expected(reordered));
    expect(stringified).toBe(5);
    // Back to the first room: its skeleton was replaced, so stringified again, still exact.
    expect(roomJson(counted)).toBe(expected(counted));
    expect(stringified).toBe(6);
  });

  it('puts the log where the room has it, whatever the other values hold', () => {
    const room = sampleRoom();
    const [id] = Object.keys(room.players);
    const player = room.players[id!]!;
    // Text that looks like the log's key, nested keys named log, and the mark itself in values.
    for (const name of ['"log":[]', `"log":${JSON.stringify(LOG_MARK)}`, LOG_MARK]) {
      const odd = {
        ...room,
        settings: { ...room.settings, log: LOG_MARK, other: { log: [] } },
        players: { ...room.players, [id!]: { ...player, name } },
      } as unknown as Room;
      expect(roomJson(odd)).toBe(JSON.stringify(odd));
      const forStore = { ...odd, log: [] };
      expect(roomJson(forStore)).toBe(JSON.stringify(forStore));
    }
    // The log first or last among the keys.
    const { log, ...rest } = room;
    for (const r of [
      { log, ...rest },
      { ...rest, log },
    ] as Room[])
      expect(roomJson(r)).toBe(JSON.stringify(r));
  });

  it('stringifies a room without a log list as JSON.stringify does', () => {
    const noLog = { roomCode: 'AB3DE', nextEventSeq: 1 } as unknown as Room;
    expect(roomJson(noLog)).toBe(JSON.stringify(noLog));
    const oddLog = { roomCode: 'AB3DE', log: 'x', players: {} } as unknown as Room;
    expect(roomJson(oddLog)).toBe(JSON.stringify(oddLog));
    const logOnly = { log: [] } as unknown as Room;
    expect(roomJson(logOnly)).toBe('{"log":[]}');
    const logFirst = { log: [], a: 1, b: undefined, c: 'x' } as unknown as Room;
    expect(roomJson(logFirst)).toBe(JSON.stringify(logFirst));
    expect(roomJsonParts(noLog)).toEqual([JSON.stringify(noLog)]);
    expect(roomJsonParts(oddLog)).toEqual([JSON.stringify(oddLog)]);
    expect(roomJsonParts(logFirst).join('')).toBe(JSON.stringify(logFirst));
  });
});

describe('immutableJson', () => {
  it('gives JSON.stringify of the object, stringifying a recently given object only once', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const a = { type: 'bet', seq: 1 };
      const b = { type: 'bet', seq: 2 };
      expect(immutableJson(a)).toBe('{"type":"bet","seq":1}');
      expect(immutableJson(b)).toBe('{"type":"bet","seq":2}');
      expect(immutableJson(a)).toBe('{"type":"bet","seq":1}');
      expect(immutableJson(b)).toBe('{"type":"bet","seq":2}');
      expect(stringify).toHaveBeenCalledTimes(2);
      // An equal but other object is its own.
      expect(immutableJson({ type: 'bet', seq: 1 })).toBe('{"type":"bet","seq":1}');
      expect(stringify).toHaveBeenCalledTimes(3);
      // Hundreds of objects later (the cache goes round many times) each still gets its own JSON, and
      // `a` is stringified again.
      const many = Array.from({ length: 500 }, (_, i) => ({ i }));
      for (const [i, o] of many.entries()) expect(immutableJson(o)).toBe(`{"i":${i}}`);
      expect(immutableJson(a)).toBe('{"type":"bet","seq":1}');
      expect(stringify).toHaveBeenCalledTimes(504);
      // The newest are found again, newest or not, in any order.
      for (const i of [499, 450, 480, 437]) expect(immutableJson(many[i]!)).toBe(`{"i":${i}}`);
      expect(stringify).toHaveBeenCalledTimes(504);
    } finally {
      stringify.mockRestore();
    }
  });
});
