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

function isSnapshot(
  value: unknown,
): value is { version: number; room: Room; presence: Record<string, boolean> } {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 3 && keys[0] === 'version' && keys[1] === 'room' && keys[2] === 'presence';
}

/**
 * Socket.IO's encoder, except that a 'room' snapshot event reuses the room's JSON (roomJson) and skips
 * the scan for binary attachments (a snapshot has none). The text is exactly what the default encoder
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
      const { version, room, presence } = data[1];
      return [
        `2["room",{"version":${JSON.stringify(version)},"room":${roomJson(room)},"presence":${JSON.stringify(presence)}}]`,
      ];
    }
    return super.encode(packet as Parameters<Encoder['encode']>[0]);
  }
}

/** The `parser` option of the Socket.IO server. */
export const snapshotParser = { Encoder: SnapshotEncoder, Decoder, PacketType, protocol: 5 };
