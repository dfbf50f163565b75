/**
 * Outgoing backpressure: a connection whose phone stopped reading is dropped once what waits for it
 * here passes a budget, instead of the server holding every snapshot the room broadcasts meanwhile.
 *
 * Engine.IO queues a connection's packets in its `writeBuffer` while the transport is busy (a
 * WebSocket write not yet taken by the kernel, no long-polling GET waiting) and never limits it. Its
 * heartbeat does not bound it either: the server only closes a connection whose pong is late, and
 * any pong counts, even one nobody asked for, so a client that keeps sending pongs and never reads
 * (a hostile one, or a broken one) kept its connection forever while each broadcast of its room
 * piled up (measured: 788 snapshots, 2.6 MB, after 2,000 commands; without end).
 *
 * Counted per connection from Engine.IO's own events (one listener shared by every connection, no
 * closure per socket): `packetCreate` adds a packet's size, the server's `flush` (the queue handed to
 * the transport) resets it. What the transport already holds is one flushed queue (at most the budget)
 * plus the kernel's socket buffer, which the OS bounds.
 */

/** The part of an Engine.IO transport read here. */
interface EngineTransport {
  readonly name: string;
  /** The `ws` WebSocket of the websocket transport. */
  readonly socket?: { terminate?: () => void };
}

/** The part of an Engine.IO socket (a connection) used here. */
export interface EngineConnection {
  readonly transport: EngineTransport;
  readonly readyState: string;
  on(event: 'packetCreate', listener: (this: EngineConnection, packet: { data?: unknown }) => void): unknown;
  close(discard?: boolean): unknown;
}

/** The part of the Engine.IO server used here. */
export interface EngineServer {
  on(event: 'connection', listener: (conn: EngineConnection) => void): unknown;
  on(event: 'flush', listener: (conn: EngineConnection) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Bytes (JSON characters) that may wait for one connection before it is dropped. A table is at most
 * ~10 phones; a broadcast is 3-6 KB and a whole snapshot ~13 KB, and anything queues here only once
 * the kernel's send buffer for that phone (hundreds of KB to a few MB) is full, i.e. it has read
 * nothing for a long while. 1 MB is then ~200 more broadcasts: minutes of play at a table's pace, far
 * beyond any phone that is still reading on a bad network. A dropped phone reconnects and resumes
 * with a whole snapshot, so nothing is lost but the backlog it never read.
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;

function packetBytes(data: unknown): number {
  if (typeof data === 'string') return data.length;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  // Packets without data (ping, noop, close) still cost their object.
  return 16;
}

/**
 * Drops every connection of `engine` whose queued packets pass `maxBytes`; `onDrop` is told (for a
 * log line) before. Returns a function that stops watching new connections.
 */
export function limitQueuedBytes(
  engine: EngineServer,
  options: { maxBytes?: number; onDrop?: (conn: EngineConnection, queuedBytes: number) => void } = {},
): () => void {
  const maxBytes = options.maxBytes ?? MAX_QUEUED_BYTES;
  const queued = new WeakMap<EngineConnection, number>();

  const drop = (conn: EngineConnection, bytes: number) => {
    if (conn.readyState === 'closed') return;
    options.onDrop?.(conn, bytes);
    // A WebSocket's orderly close waits up to 30 s for the peer's answer, which a peer that does not
    // read never sends: destroy the TCP connection now (its buffers go with it).
    if (conn.transport.name === 'websocket') conn.transport.socket?.terminate?.();
    // discard: close even with packets queued. A plain close waits for them to drain, which they
    // never do here: the connection stayed in 'closing' with its queue until the peer hung up.
    conn.close(true);
  };

  // Shared by every connection (`this` is the connection).
  function onPacketCreate(this: EngineConnection, packet: { data?: unknown }) {
    const before = queued.get(this) ?? 0;
    if (before < 0) return; // already being dropped
    const bytes = before + packetBytes(packet.data);
    if (bytes <= maxBytes) {
      queued.set(this, bytes);
      return;
    }
    queued.set(this, -1);
    // Not from inside the send: a broadcast may be walking the room's sockets right now.
    process.nextTick(drop, this, bytes);
  }
  const onConnection = (conn: EngineConnection) => {
    conn.on('packetCreate', onPacketCreate);
  };
  const onFlush = (conn: EngineConnection) => {
    if ((queued.get(conn) ?? 0) > 0) queued.set(conn, 0);
  };

  engine.on('connection', onConnection);
  engine.on('flush', onFlush);
  return () => {
    engine.off('connection', onConnection);
    engine.off('flush', onFlush);
  };
}
