/**
 * The snapshot events' text (a room's snapshot as Socket.IO sends it) and the Socket.IO encoder that
 * writes it: the same bytes as Socket.IO's own encoder, with the room's JSON from room-json.ts (its
 * skeleton reused, never stringified twice for one command), a snapshot's event text kept on it for
 * every later encoding (the publication and this process's sockets, in Redis mode), and snapshots whose
 * text another thread made (EncodedSnapshot) written as they are.
 */
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import type { Room } from '../engine/types';
import type { RoomSnapshot } from '../shared/protocol';
import { joinedParts, roomJsonParts } from './room-json';

/** What isSnapshot finds: a RoomSnapshot's shape. */
type Snapshot = { version: number; room: Room; presence: Record<string, boolean>; logFrom?: number };

/** A RoomSnapshot with its keys in the order its builders write them (so the text is JSON.stringify's). */
function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return (
    (keys.length === 3 || (keys.length === 4 && keys[3] === 'logFrom')) &&
    keys[0] === 'version' &&
    keys[1] === 'room' &&
    keys[2] === 'presence'
  );
}

/**
 * Where keepSnapshotEventJson leaves a snapshot's event JSON and its parts: symbol keys, which neither
 * JSON.stringify nor Object.keys (isSnapshot) sees.
 */
const EVENT_JSON = Symbol('chipless.snapshotEventJson');
const EVENT_PARTS = Symbol('chipless.snapshotEventParts');

/**
 * A snapshot event's JSON (snapshotEventJson) in the parts that join into it: `head`, then the room's
 * JSON as roomJsonParts makes it (`before` its log, the `log`, `after` it: the very strings of the
 * room's skeleton), then `tail`. What lets a Redis save send the room's JSON once for the row and the
 * publication (redis-store.ts, PublicationParts).
 */
export interface SnapshotEventParts {
  head: string;
  before: string;
  log: string;
  after: string;
  tail: string;
}

/** snapshotEventJson(['room', snapshot]) as its head, its room's JSON (roomJsonParts, and joined) and its tail. */
function eventPieces(snapshot: Snapshot): { head: string; room: string[]; roomJson: string; tail: string } {
  const { version, room, presence, logFrom } = snapshot;
  const end = 'logFrom' in snapshot ? `,"logFrom":${JSON.stringify(logFrom)}}]` : '}]';
  const parts = roomJsonParts(room);
  return {
    head: `["room",{"version":${JSON.stringify(version)},"room":`,
    room: parts,
    roomJson: joinedParts(parts),
    tail: `,"presence":${JSON.stringify(presence)}${end}`,
  };
}

/**
 * snapshotEventJson(['room', snapshot]), kept on `snapshot` so that every later encoding of that
 * event (snapshotEventJson: the publication, the frame for this process's sockets) reuses it, with its
 * parts (keptSnapshotEventParts). For a commit in Redis mode (broadcaster.ts): its snapshot is encoded
 * for the publication before the save and for the local sockets after Redis answers, when other rooms'
 * commands have usually replaced the one skeleton roomJson keeps, so the room was stringified again
 * (~1.6 skeletons a command instead of ~1, each ~11 KB of garbage; bench/README.md, session 13).
 * `snapshot` must not change afterwards (a snapshot never does: logDelta and snapshotOf build new ones)
 * and must have a snapshot's keys; the JSON lives as long as the snapshot does.
 */
export function keepSnapshotEventJson(snapshot: object): string {
  const kept = (snapshot as { [EVENT_JSON]?: string })[EVENT_JSON];
  if (kept !== undefined) return kept;
  if (!isSnapshot(snapshot)) throw new TypeError('keepSnapshotEventJson: not a room snapshot');
  const { head, room, roomJson: roomText, tail } = eventPieces(snapshot);
  const json = `${head}${roomText}${tail}`;
  Object.defineProperty(snapshot, EVENT_JSON, { value: json });
  if (room.length === 3) {
    const [before, log, after] = room as [string, string, string];
    const parts: SnapshotEventParts = { head, before, log, after, tail };
    Object.defineProperty(snapshot, EVENT_PARTS, { value: parts });
  }
  return json;
}

/** The parts of the event JSON keepSnapshotEventJson kept on `snapshot`, if it kept any. */
export function keptSnapshotEventParts(snapshot: unknown): SnapshotEventParts | undefined {
  if (typeof snapshot !== 'object' || snapshot === null) return undefined;
  return (snapshot as { [EVENT_PARTS]?: SnapshotEventParts })[EVENT_PARTS];
}

/**
 * JSON.stringify(data) for an event's data `['room', snapshot]`, with the room's JSON from roomJson
 * (its skeleton reused), or as kept by keepSnapshotEventJson; null for any other data.
 */
export function snapshotEventJson(data: unknown): string | null {
  if (!Array.isArray(data) || data.length !== 2 || data[0] !== 'room') return null;
  const kept = (data[1] as { [EVENT_JSON]?: string } | null)?.[EVENT_JSON];
  if (kept !== undefined) return kept;
  if (!isSnapshot(data[1])) return null;
  const { head, roomJson: roomText, tail } = eventPieces(data[1]);
  return `${head}${roomText}${tail}`;
}

/**
 * A snapshot whose JSON text is already made: what the socket thread sends when the rooms live on their
 * own thread (thread-rooms.ts), which sends their JSON, not the objects. The encoder below writes the
 * text as it is into a 'room' event or a subscription's acknowledgement; anything else that stringifies
 * one (toJSON) gets the same JSON, parsed back.
 */
export class EncodedSnapshot {
  /** `version` is the snapshot's (what its JSON says). */
  constructor(
    readonly version: number,
    readonly json: string,
  ) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * `snapshot` (a subscription's acknowledgement) with RoomSnapshot.idle set: `idle` ms since the table's
 * last move, as a number of whole ms, never negative (0 for anything not a finite positive number). The same
 * keys in the same order either way.
 */
export function withIdle<S extends RoomSnapshot | EncodedSnapshot>(snapshot: S, idle: number): S;
export function withIdle(
  snapshot: RoomSnapshot | EncodedSnapshot,
  idle: number,
): RoomSnapshot | EncodedSnapshot {
  // Never negative (a clock stepped back), never NaN or Infinity (which JSON cannot say).
  const ms = Number.isFinite(idle) && idle > 0 ? Math.floor(idle) : 0;
  if (snapshot instanceof EncodedSnapshot)
    return new EncodedSnapshot(snapshot.version, `${snapshot.json.slice(0, -1)},"idle":${ms}}`);
  return { ...snapshot, idle: ms };
}

/** The text of an acknowledgement `[{ ok: true, data: EncodedSnapshot }]`, or null for any other data. */
function encodedAckJson(data: unknown): string | null {
  if (!Array.isArray(data) || data.length !== 1) return null;
  const res = data[0] as { ok?: unknown; data?: unknown } | null;
  if (typeof res !== 'object' || res === null || res.ok !== true || !(res.data instanceof EncodedSnapshot))
    return null;
  return Object.keys(res).length === 2 ? `[{"ok":true,"data":${res.data.json}}]` : null;
}

/**
 * Socket.IO's encoder, except that a 'room' snapshot event reuses the room's JSON (roomJson) and skips
 * the scan for binary attachments (a snapshot has none). A broadcast's room (log cut by logDelta) is a
 * new object, so its JSON is computed here once for all the room's sockets. An EncodedSnapshot, in an
 * event or an acknowledgement, is written as it is. The text is exactly what the default encoder
 * produces.
 */
class SnapshotEncoder extends Encoder {
  override encode(packet: {
    type: number;
    nsp: string;
    id?: number;
    data?: unknown[];
  }): Array<string | Buffer> {
    if (packet.nsp === '/') {
      if (packet.type === PacketType.EVENT && packet.id === undefined) {
        const data = packet.data;
        if (
          Array.isArray(data) &&
          data.length === 2 &&
          data[0] === 'room' &&
          data[1] instanceof EncodedSnapshot
        )
          return [`2["room",${data[1].json}]`];
        const json = snapshotEventJson(data);
        if (json !== null) return [`2${json}`];
      } else if (packet.type === PacketType.ACK && packet.id !== undefined) {
        const json = encodedAckJson(packet.data);
        if (json !== null) return [`3${packet.id}${json}`];
      }
    }
    return super.encode(packet as Parameters<Encoder['encode']>[0]);
  }
}

/** The `parser` option of the Socket.IO server. */
export const snapshotParser = { Encoder: SnapshotEncoder, Decoder, PacketType, protocol: 5 };
