/** roomJson and the snapshot encoder: the same bytes as JSON.stringify and Socket.IO's own encoder. */
import { Encoder, PacketType } from 'socket.io-parser';
import { describe, expect, it, vi } from 'vitest';
import { applyCommand, createRoom } from '../engine';
import type { Room } from '../engine/types';
import { logDelta } from '../shared/log-delta';
import {
  EncodedSnapshot,
  immutableJson,
  keepSnapshotEventJson,
  keptSnapshotEventParts,
  LOG_MARK,
  roomJson,
  roomJsonParts,
  snapshotEventJson,
  snapshotParser,
} from './room-json';

function sampleRoom(): Room {
  let room = createRoom({
    roomCode: 'AB3DE',
    hostId: 'host',
    hostName: 'Hôst "quoted" \\ 🂡',
    startingChips: 50_00,
    now: 1,
  });
  const joined = applyCommand(room, 'p1', { type: 'join', name: '李 ♥ </script>', startingChips: 50_00 }, 2);
  if (!joined.ok || !joined.room) throw new Error('join refused');
  room = joined.room;
  const approved = applyCommand(room, 'host', { type: 'approve', playerId: 'p1' }, 3);
  if (!approved.ok || !approved.room) throw new Error('approve refused');
  const started = applyCommand(approved.room, 'host', { type: 'startGame' }, 4);
  if (!started.ok || !started.room) throw new Error('start refused');
  return started.room;
}

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

describe('snapshot encoder', () => {
  const ours = new snapshotParser.Encoder();
  const standard = new Encoder();
  const encode = (e: Encoder, packet: object) => e.encode(packet as Parameters<Encoder['encode']>[0]);

  it('encodes a room snapshot exactly as Socket.IO does', () => {
    const room = sampleRoom();
    const packet = {
      type: PacketType.EVENT,
      nsp: '/',
      data: ['room', { version: 42, room, presence: { host: true, p1: false } }],
    };
    expect(encode(ours, packet)).toEqual(encode(standard, packet));
    // Also when the store did not write it first.
    const fresh = sampleRoom();
    const again = { ...packet, data: ['room', { version: 7, room: fresh, presence: {} }] };
    expect(encode(ours, again)).toEqual(encode(standard, again));
  });

  it('encodes a broadcast (log cut by logDelta, logFrom set) exactly as Socket.IO does', () => {
    const room = sampleRoom();
    const delta = logDelta({ version: 5, room, presence: { host: true, p1: true } }, room.nextEventSeq - 1);
    expect(delta.room.log).toHaveLength(1);
    const packet = { type: PacketType.EVENT, nsp: '/', data: ['room', delta] };
    const [text] = encode(ours, packet);
    expect(text).toEqual(encode(standard, packet)[0]);
    expect(JSON.parse(String(text).slice(1))).toEqual(['room', delta]);
  });

  it('encodes a kept snapshot from its kept JSON, the same text, without reading the room again', () => {
    const room = sampleRoom();
    const delta = logDelta({ version: 5, room, presence: { host: true, p1: false } }, room.nextEventSeq - 1);
    const packet = { type: PacketType.EVENT, nsp: '/', data: ['room', delta] };
    const expected = encode(standard, packet);
    const json = keepSnapshotEventJson(delta);
    expect(json).toBe(JSON.stringify(['room', delta]));
    expect(keepSnapshotEventJson(delta)).toBe(json);
    // Its parts: the room's JSON as roomJsonParts cuts it, between the event's head and tail.
    const parts = keptSnapshotEventParts(delta)!;
    expect(`${parts.head}${parts.before}${parts.log}${parts.after}${parts.tail}`).toBe(json);
    expect([parts.before, parts.log, parts.after]).toEqual(roomJsonParts(delta.room));
    expect(keptSnapshotEventParts({ ...delta })).toBeUndefined();
    // The kept text is invisible to the snapshot's keys and to JSON.stringify.
    expect(Object.keys(delta)).toEqual(['version', 'room', 'presence', 'logFrom']);
    expect(JSON.parse(JSON.stringify(delta))).toEqual(JSON.parse(json)[1]);
    // Reading the room again would read its `ledger`.
    let reads = 0;
    const ledger = delta.room.ledger;
    Object.defineProperty(delta.room, 'ledger', {
      enumerable: true,
      get: () => {
        reads++;
        return ledger;
      },
    });
    expect(encode(ours, packet)).toEqual(expected);
    expect(snapshotEventJson(['room', delta])).toBe(json);
    expect(reads).toBe(0);
    // Not a snapshot: refused, nothing kept.
    const notSnapshot = { room, version: 1, presence: {} };
    expect(() => keepSnapshotEventJson(notSnapshot)).toThrow(TypeError);
    expect(Object.getOwnPropertySymbols(notSnapshot)).toEqual([]);
  });

  it('writes an EncodedSnapshot as it is, in an event or an acknowledgement, as Socket.IO writes the object', () => {
    const room = sampleRoom();
    const snapshot = { version: 9, room, presence: { host: true, p1: false } };
    const encoded = new EncodedSnapshot(9, JSON.stringify(snapshot));
    const event = (data: unknown) => ({ type: PacketType.EVENT, nsp: '/', data: ['room', data] });
    expect(encode(ours, event(encoded))).toEqual(encode(standard, event(snapshot)));
    const ack = (data: unknown) => ({ type: PacketType.ACK, nsp: '/', id: 12, data: [{ ok: true, data }] });
    expect(encode(ours, ack(encoded))).toEqual(encode(standard, ack(snapshot)));
    // Anything else holding one is stringified through toJSON: still the same JSON.
    const other = { type: PacketType.ACK, nsp: '/', id: 4, data: [{ ok: true, data: encoded, extra: 1 }] };
    expect(encode(ours, other)).toEqual(
      encode(standard, { ...other, data: [{ ok: true, data: snapshot, extra: 1 }] }),
    );
    expect(JSON.stringify(encoded)).toBe(JSON.stringify(snapshot));
  });

  it('leaves every other packet to the standard encoder', () => {
    const room = sampleRoom();
    const packets = [
      { type: PacketType.EVENT, nsp: '/', data: ['session', { playerId: 'p', token: 't' }] },
      { type: PacketType.EVENT, nsp: '/', data: ['gone', { roomCode: 'AB3DE', reason: 'deleted' }] },
      {
        type: PacketType.ACK,
        nsp: '/',
        id: 3,
        data: [{ ok: true, data: { version: 1, room, presence: {} } }],
      },
      { type: PacketType.EVENT, nsp: '/', data: ['room', { room, version: 1, presence: {} }] },
      { type: PacketType.EVENT, nsp: '/', id: 5, data: ['room', { version: 1, room, presence: {} }] },
      { type: PacketType.EVENT, nsp: '/admin', data: ['room', { version: 1, room, presence: {} }] },
      { type: PacketType.EVENT, nsp: '/', data: ['bin', Buffer.from([1, 2, 3])] },
      { type: PacketType.CONNECT, nsp: '/', data: { sid: 'x' } },
    ];
    for (const packet of packets) expect(encode(ours, packet)).toEqual(encode(standard, packet));
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
