/**
 * The Redis adapter's message for a broadcast to one room, made without the adapter: what a Redis save
 * publishes for a commit (RoomStore.publishesOnSave) so that the other processes' adapters take it as
 * this process's broadcast. redis-adapter.ts makes it for the room service on the event loop; the room
 * thread (room-thread.ts) makes it from the RoomPublisher the socket side sends it, since the adapter
 * lives on the socket thread. Kept apart from redis-adapter.ts so the room thread does not load the
 * adapter package for it.
 */
import { PacketType } from 'socket.io-parser';
import { keptSnapshotEventParts, snapshotEventJson } from './room-json';
import type { Publication } from './store/room-store';

/** Who publishes, as the adapter's messages and channels say it (RedisAdapter's uid and channel). */
export interface RoomPublisher {
  /** The adapter's uid: its own messages start with it, and it drops them (redis-adapter.ts). */
  uid: string;
  /** The adapter's broadcast channel, `<key>#<nsp>#`; one room's is that plus `<room>#`. */
  channel: string;
  /** The namespace's name ('/'). */
  nsp: string;
}

/**
 * The JSON of a broadcast `[uid, { type, data, nsp }, opts]` of a 'room' snapshot, as the text before
 * the event's data, the data (snapshotEventJson: the room's JSON from roomJson) and the text after it;
 * null for any other value.
 */
export function broadcastJson(value: unknown): { head: string; data: string; tail: string } | null {
  if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== 'string') return null;
  const packet = value[1] as { type?: unknown; data?: unknown; nsp?: unknown } | null;
  if (typeof packet !== 'object' || packet === null) return null;
  const keys = Object.keys(packet);
  if (keys.length !== 3 || keys[0] !== 'type' || keys[1] !== 'data' || keys[2] !== 'nsp') return null;
  const data = snapshotEventJson(packet.data);
  if (data === null) return null;
  return {
    head: `[${JSON.stringify(value[0])},{"type":${JSON.stringify(packet.type)},"data":`,
    data,
    tail: `,"nsp":${JSON.stringify(packet.nsp)}},${JSON.stringify(value[2])}]`,
  };
}

/** `value`'s JSON, from its broadcastJson when it has one. */
export function textOf(value: unknown, broadcast: ReturnType<typeof broadcastJson>): string {
  return broadcast === null ? JSON.stringify(value) : `${broadcast.head}${broadcast.data}${broadcast.tail}`;
}

/**
 * The channel and message RedisAdapter.broadcast publishes for an event to one room with no flags
 * (socket.io 4.8's BroadcastOperator.emit builds `{ type: EVENT, data: [event, ...args] }` and the
 * adapter publishes `[uid, packet, { rooms, except, flags }]` on `<key>#<nsp>#<room>#`), as published
 * by `publisher`. Other processes' adapters take it as that broadcast; the publisher's own adapter
 * drops it (redis-adapter.ts, skipOwnPublications) as it drops its own broadcasts.
 */
export function roomPublication(
  publisher: RoomPublisher,
  room: string,
  event: string,
  args: unknown[],
): Publication {
  const packet = { type: PacketType.EVENT, data: [event, ...args], nsp: publisher.nsp };
  const opts = { rooms: [room], except: [], flags: {} };
  const channel = `${publisher.channel}${room}#`;
  const value = [publisher.uid, packet, opts];
  const broadcast = broadcastJson(value);
  // A snapshot whose event JSON was kept with its parts (keepSnapshotEventJson, as broadcaster.ts
  // does): the message's parts around its room JSON come with it (PublicationParts).
  const kept = event === 'room' && args.length === 1 ? keptSnapshotEventParts(args[0]) : undefined;
  const message = textOf(value, broadcast);
  if (broadcast === null || kept === undefined) return { channel, message };
  return {
    channel,
    message,
    parts: {
      head: `${broadcast.head}${kept.head}`,
      before: kept.before,
      mid: kept.log,
      after: kept.after,
      tail: `${kept.tail}${broadcast.tail}`,
    },
  };
}
