/** The snapshot encoder: the same bytes as Socket.IO's own encoder. */
import { Encoder, PacketType } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { logDelta } from '../shared/log-delta';
import type { RoomSnapshot } from '../shared/protocol';
import { roomJsonParts } from './room-json';
import {
  EncodedSnapshot,
  keepSnapshotEventJson,
  keptSnapshotEventParts,
  snapshotEventJson,
  snapshotParser,
  withIdle,
} from './snapshot-encoder';
import { sampleRoom } from './test-helpers';

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

  it("withIdle: an acknowledgement's idle, the same text from the object and from an EncodedSnapshot, never negative", () => {
    const snapshot: RoomSnapshot = { version: 9, room: sampleRoom(), presence: { host: true, p1: false } };
    const encoded = new EncodedSnapshot(9, JSON.stringify(snapshot));
    const ack = (data: unknown) => ({ type: PacketType.ACK, nsp: '/', id: 12, data: [{ ok: true, data }] });
    const expected = encode(standard, ack({ ...snapshot, idle: 25_000 }));
    expect(encode(ours, ack(withIdle(snapshot, 25_000)))).toEqual(expected);
    expect(encode(ours, ack(withIdle(encoded, 25_000)))).toEqual(expected);
    expect(withIdle(encoded, 25_000).version).toBe(9);
    // A clock stepped back: 0. Not a number (never made, guarded): 0, not the invalid JSON "NaN".
    expect(withIdle(snapshot, -60_000).idle).toBe(0);
    expect(JSON.parse(withIdle(encoded, Number.NaN).json).idle).toBe(0);
    expect(JSON.parse(withIdle(encoded, Number.POSITIVE_INFINITY).json).idle).toBe(0);
    expect(snapshot).not.toHaveProperty('idle');
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
