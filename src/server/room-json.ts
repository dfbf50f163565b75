/**
 * The JSON text of a committed room, computed once. A command's new room is written to the store and
 * broadcast to every phone in the room; both need the same JSON.stringify of the same (never mutated)
 * room object, so the first caller pays and the second reuses it.
 */
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import type { Room } from '../engine/types';

const memo = new WeakMap<Room, string>();

/** JSON.stringify(room), remembered for as long as the room object lives. The room must not be mutated afterwards. */
export function roomJson(room: Room): string {
  let json = memo.get(room);
  if (json === undefined) {
    json = JSON.stringify(room);
    memo.set(room, json);
  }
  return json;
}

/** A RoomSnapshot with its keys in the order its builders write them (so the text is JSON.stringify's). */
function isSnapshot(
  value: unknown,
): value is { version: number; room: Room; presence: Record<string, boolean>; logFrom?: number } {
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
 * Socket.IO's encoder, except that a 'room' snapshot event reuses the room's JSON (roomJson) and skips
 * the scan for binary attachments (a snapshot has none). A broadcast's room (log cut by logDelta) is a
 * new object, so its JSON is computed here once for all the room's sockets. The text is exactly what the default encoder
 * produces.
 */
class SnapshotEncoder extends Encoder {
  override encode(packet: {
    type: number;
    nsp: string;
    id?: number;
    data?: unknown[];
  }): Array<string | Buffer> {
    const data = packet.data;
    if (
      packet.type === PacketType.EVENT &&
      packet.nsp === '/' &&
      packet.id === undefined &&
      data?.length === 2 &&
      data[0] === 'room' &&
      isSnapshot(data[1])
    ) {
      const { version, room, presence, logFrom } = data[1];
      const tail = 'logFrom' in data[1] ? `,"logFrom":${JSON.stringify(logFrom)}}]` : '}]';
      return [
        `2["room",{"version":${JSON.stringify(version)},"room":${roomJson(room)},"presence":${JSON.stringify(presence)}${tail}`,
      ];
    }
    return super.encode(packet as Parameters<Encoder['encode']>[0]);
  }
}

/** The `parser` option of the Socket.IO server. */
export const snapshotParser = { Encoder: SnapshotEncoder, Decoder, PacketType, protocol: 5 };
