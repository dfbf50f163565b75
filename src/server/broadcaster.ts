/**
 * The RoomBroadcaster over the Socket.IO server: builds snapshots (the committed record plus presence)
 * and sends them, and the 'gone' notices, to the sockets of a room or of single players. Works across
 * processes through whichever adapter the Server has (in-memory by default, Redis in scale-out).
 */
import { logDelta } from '../shared/log-delta';
import type { RoomSnapshot } from '../shared/protocol';
import { createPresence, type Presence } from './presence';
import type { PreparedSnapshot, RoomBroadcaster } from './room-service';
import { keepSnapshotEventJson } from './snapshot-encoder';
import type { ChiplessServer } from './socket-gateway';
import type { Publication, StoredRoom } from './store/room-store';

/** The Socket.IO room holding every socket of one player (to tell them they were removed). */
export const playerRoom = (playerId: string) => `p:${playerId}`;

/**
 * What an adapter that can publish through the store offers (the Redis adapter, redis-adapter.ts): the
 * message it would publish for `io.to(room).emit(event, ...args)`, for the save to publish
 * (RoomStore.publishesOnSave); this process's own sockets then get it from
 * `io.to(room).local.emit(event, ...args)`.
 */
export interface RoomBroadcastEncoder {
  encodeRoomBroadcast(room: string, event: string, ...args: unknown[]): Publication;
}

/** Whether a Socket.IO adapter is a RoomBroadcastEncoder. */
function isRoomBroadcastEncoder(adapter: unknown): adapter is RoomBroadcastEncoder {
  return typeof (adapter as Partial<RoomBroadcastEncoder> | null)?.encodeRoomBroadcast === 'function';
}

/** Builds snapshots and implements the RoomBroadcaster over the Socket.IO server. */
export interface Broadcaster extends RoomBroadcaster {
  /** The snapshot of a committed record, with who is connected now. */
  snapshotOf(record: StoredRoom): Promise<RoomSnapshot>;
  /** Ids of the players with at least one socket in the room, on any process. */
  onlinePlayers(roomCode: string): Promise<Set<string>>;
  /** Where onlinePlayers comes from; its settle notices ask for a room to be broadcast again. */
  presence: Presence;
}

export function createBroadcaster(io: ChiplessServer): Broadcaster {
  // Local sockets read live, other processes' players kept until a change is announced (presence.ts):
  // no request to every process per broadcast. Player rooms are not game rooms.
  const roomPresence = createPresence(io, { tracks: (room) => !room.startsWith(playerRoom('')) });
  const onlinePlayers = (roomCode: string) => roomPresence.online(roomCode);
  const snapshotOf = async (record: StoredRoom): Promise<RoomSnapshot> => {
    const online = await onlinePlayers(record.room.roomCode);
    const presence: Record<string, boolean> = {};
    for (const id of Object.keys(record.room.players)) presence[id] = online.has(id);
    return { version: record.version, room: record.room, presence };
  };
  /** What a commit's broadcast carries: the snapshot with the log from `logFrom` on. */
  const broadcastOf = async (record: StoredRoom, logFrom: number) =>
    logDelta(await snapshotOf(record), logFrom);
  // With the Redis adapter, a commit's snapshot can go to the other processes from the save itself.
  const adapter = io.of('/').adapter;
  const prepare = isRoomBroadcastEncoder(adapter)
    ? async (record: StoredRoom, logFrom: number): Promise<PreparedSnapshot> => {
        const roomCode = record.room.roomCode;
        const payload = await broadcastOf(record, logFrom);
        // Encoded once, for the publication now and for this process's sockets after the save.
        keepSnapshotEventJson(payload);
        return {
          publication: adapter.encodeRoomBroadcast(roomCode, 'room', payload),
          deliver: () => {
            io.to(roomCode).local.emit('room', payload);
          },
        };
      }
    : undefined;
  return {
    snapshotOf,
    onlinePlayers,
    presence: roomPresence,
    async snapshot(record, logFrom = record.room.nextEventSeq) {
      io.to(record.room.roomCode).emit('room', await broadcastOf(record, logFrom));
    },
    ...(prepare ? { prepare } : {}),
    async gone(roomCode, reason, playerIds) {
      // Each leave is made here first (`local`: at once), then everywhere: the Redis adapter's
      // socketsLeave is a request through Redis that reaches this process's own sockets only when it
      // comes back, after the snapshot that follows the notice (which 'gone' says never comes).
      if (playerIds === undefined) {
        io.to(roomCode).emit('gone', { roomCode, reason });
        io.in(roomCode).local.socketsLeave(roomCode);
        io.in(roomCode).socketsLeave(roomCode);
        return;
      }
      for (const id of playerIds) {
        io.to(playerRoom(id)).emit('gone', { roomCode, reason });
        io.in(playerRoom(id)).local.socketsLeave(roomCode);
        io.in(playerRoom(id)).socketsLeave(roomCode);
      }
    },
  };
}
