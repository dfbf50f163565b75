/**
 * The RoomBroadcaster over the Socket.IO server: builds snapshots (the committed record plus presence)
 * and sends them, and the 'gone' notices, to the sockets of a room or of single players. Works across
 * processes through whichever adapter the Server has (in-memory by default, Redis in scale-out).
 */
import { logDelta } from '../shared/log-delta';
import type { RoomSnapshot } from '../shared/protocol';
import { createPresence, type Presence } from './presence';
import type { RoomBroadcaster } from './room-service';
import type { ChiplessServer } from './socket-gateway';
import type { StoredRoom } from './store/room-store';

/** The Socket.IO room holding every socket of one player (to tell them they were removed). */
export const playerRoom = (playerId: string) => `p:${playerId}`;

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
  return {
    snapshotOf,
    onlinePlayers,
    presence: roomPresence,
    async snapshot(record, logFrom = record.room.nextEventSeq) {
      io.to(record.room.roomCode).emit('room', logDelta(await snapshotOf(record), logFrom));
    },
    async gone(roomCode, reason, playerIds) {
      if (playerIds === undefined) {
        io.to(roomCode).emit('gone', { roomCode, reason });
        io.in(roomCode).socketsLeave(roomCode);
        return;
      }
      for (const id of playerIds) {
        io.to(playerRoom(id)).emit('gone', { roomCode, reason });
        io.in(playerRoom(id)).socketsLeave(roomCode);
      }
    },
  };
}
