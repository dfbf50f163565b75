/**
 * A socket.io-client parser for the load bots that does not build the room object of every snapshot.
 * 6,000 bots receive ~6,000 snapshots (≈13 KB each) per second; parsing all of them would make the load
 * generator, not the server, the busiest process on a 2-core machine. A 'room' event whose JSON starts
 * with its version (`{"version":N,...`, as the server and the floor send it) is delivered as a
 * LazySnapshot: the version is read from the text and the rest is parsed only if someone reads `.room`.
 * Every other packet goes through the standard socket.io-parser.
 *
 * Use: `io(url, { parser: lazyParser })`.
 */
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import type { Room } from '../src/engine/types';
import type { RoomSnapshot } from '../src/shared/protocol';

const ROOM_EVENT_PREFIX = '2["room",{"version":';

/** A received snapshot whose body is parsed on first use. */
export class LazySnapshot implements RoomSnapshot {
  private parsed: RoomSnapshot | undefined;

  constructor(
    readonly version: number,
    /** The JSON of the snapshot object. */
    readonly json: string,
  ) {}

  private get full(): RoomSnapshot {
    this.parsed ??= JSON.parse(this.json) as RoomSnapshot;
    return this.parsed;
  }

  get room(): Room {
    return this.full.room;
  }

  get presence(): Record<string, boolean> {
    return this.full.presence;
  }

  /** JSON size in bytes (ASCII payloads: characters). */
  get size(): number {
    return this.json.length;
  }

  toJSON(): RoomSnapshot {
    return this.full;
  }
}

class LazyDecoder extends Decoder {
  override add(chunk: unknown): void {
    if (typeof chunk === 'string' && chunk.startsWith(ROOM_EVENT_PREFIX) && chunk.endsWith(']')) {
      let i = ROOM_EVENT_PREFIX.length;
      let version = 0;
      for (let c = chunk.charCodeAt(i); c >= 48 && c <= 57; c = chunk.charCodeAt(++i)) {
        version = version * 10 + (c - 48);
      }
      if (i > ROOM_EVENT_PREFIX.length) {
        const json = chunk.slice(ROOM_EVENT_PREFIX.length - '{"version":'.length, -1);
        this.emitReserved('decoded', {
          type: PacketType.EVENT,
          nsp: '/',
          data: ['room', new LazySnapshot(version, json)],
        });
        return;
      }
    }
    super.add(chunk);
  }
}

/** The parser to pass as socket.io-client's `parser` option. */
export const lazyParser = { Encoder, Decoder: LazyDecoder, PacketType, protocol: 5 };
