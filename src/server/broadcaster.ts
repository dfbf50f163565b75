/**
 * The RoomBroadcaster over the Socket.IO server: builds snapshots (the committed record plus presence)
 * and sends them, and the 'gone' notices, to the sockets of a room or of single players. Works across
 * processes through whichever adapter the Server has (in-memory by default, Redis in scale-out).
 */
import { logDelta } from '../shared/log-delta';
import type { RoomSnapshot } from '../shared/protocol';
import type { RoomBroadcaster } from './room-service';
import type { ChiplessServer, SocketData } from './socket-gateway';
import type { StoredRoom } from './store/room-store';

/** The Socket.IO room holding every socket of one player (to tell them they were removed). */
export const playerRoom = (playerId: string) => `p:${playerId}`;
/** After a cross-process presence request fails, use local presence for this long (ms). */
const PRESENCE_LOCAL_ONLY_MS = 10_000;

/** Builds snapshots and implements the RoomBroadcaster over the Socket.IO server. */
export interface Broadcaster extends RoomBroadcaster {
  /** The snapshot of a committed record, with who is connected now. */
  snapshotOf(record: StoredRoom): Promise<RoomSnapshot>;
  /** Ids of the players with at least one socket in the room, on any process. */
  onlinePlayers(roomCode: string): Promise<Set<string>>;
}

export function createBroadcaster(io: ChiplessServer): Broadcaster {
  // Presence asks every process (fetchSockets through the adapter). A process that is alive but
  // unresponsive (frozen loop, SIGSTOP, partition) makes that request time out; then, and for a
  // short while after, presence is what this process sees itself, so commands and broadcasts on the
  // healthy processes go on without waiting for the frozen one each time.
  let localOnlyUntil = 0;
  const onlinePlayers = async (roomCode: string) => {
    let sockets: Array<{ data: SocketData }>;
    if (Date.now() < localOnlyUntil) {
      sockets = await io.local.in(roomCode).fetchSockets();
    } else {
      try {
        sockets = await io.in(roomCode).fetchSockets();
      } catch {
        localOnlyUntil = Date.now() + PRESENCE_LOCAL_ONLY_MS;
        sockets = await io.local.in(roomCode).fetchSockets();
      }
    }
    return new Set(sockets.map((s) => s.data.playerId));
  };
  const snapshotOf = async (record: StoredRoom): Promise<RoomSnapshot> => {
    const online = await onlinePlayers(record.room.roomCode);
    const presence: Record<string, boolean> = {};
    for (const id of Object.keys(record.room.players)) presence[id] = online.has(id);
    return { version: record.version, room: record.room, presence };
  };
  return {
    snapshotOf,
    onlinePlayers,
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
