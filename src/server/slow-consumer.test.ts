/**
 * Integration (slow-ish: a few thousand commands): a phone that joins a room and then stops reading,
 * while it keeps its connection alive with pongs nobody asked for. Engine.IO neither limits what it
 * queues for a connection nor checks that a pong answers a ping, so the server held every snapshot the
 * room broadcast, without end. Now it drops the connection once its queue passes MAX_QUEUED_BYTES
 * (outgoing-limit.ts), and the other phones in the room are not held up meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_QUEUED_BYTES } from './outgoing-limit';
import type { ChiplessServer } from './socket-gateway';
import { okData, sleep, startServer, TestClient, type TestServer, withTimeout } from './test-helpers';

const servers: TestServer[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
});

/** Engine.IO's queue of a server socket, and the bytes in it. */
interface EngineConn {
  readyState: string;
  writeBuffer: Array<{ data?: unknown }>;
}
const queuedBytes = (conn: EngineConn) =>
  conn.writeBuffer.reduce((n, p) => n + (typeof p.data === 'string' ? p.data.length : 0), 0);

function serverSocketOf(io: ChiplessServer, playerId: string) {
  const socket = [...io.of('/').sockets.values()].find((s) => s.data.playerId === playerId);
  if (!socket) throw new Error(`no socket of ${playerId}`);
  return socket;
}

/** A room with a host and one reading player, on a fresh server. */
async function table() {
  // The host commits faster than people do (the tests' own limit is 1,000 a second).
  const server = await startServer({ env: { COMMAND_RATE_PER_SEC: '100000', COMMAND_BURST: '100000' } });
  servers.push(server);
  const host = await TestClient.connect(server.url);
  clients.push(host);
  const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
  const reader = await TestClient.connect(server.url);
  clients.push(reader);
  okData(await reader.joinRoom(code, 'Ravi', 5000));
  await host.must(code, { type: 'approve', playerId: reader.playerId });
  return { server, host, reader, code };
}

/**
 * The host commits until `dropped()` (or `max` commands); returns how many it took and the most ever
 * queued for the stuck connection.
 */
async function commitUntil(
  host: TestClient,
  code: string,
  conn: EngineConn,
  dropped: () => boolean,
  max: number,
  everyCommand: (n: number) => Promise<void> | void = () => {},
) {
  let most = 0;
  let n = 0;
  while (n < max && !dropped()) {
    n++;
    await host.must(code, {
      type: 'updateSettings',
      smallBlind: 100 + (n % 50),
      bigBlind: 200 + 2 * (n % 50),
    });
    most = Math.max(most, queuedBytes(conn));
    await everyCommand(n);
  }
  return { commands: n, most };
}

describe('a phone that stops reading', () => {
  it('over WebSocket, answering no ping but sending pongs, is dropped once its queue passes the budget; the table goes on', async () => {
    const { server, host, reader, code } = await table();
    const stuck = await TestClient.connect(server.url);
    clients.push(stuck);
    okData(await stuck.joinRoom(code, 'Sam', 5000));
    const serverSide = serverSocketOf(server.app.io, stuck.playerId);
    const conn = serverSide.conn as unknown as EngineConn;

    // The phone stops reading its TCP socket, and keeps the connection alive with pongs.
    const engine = stuck.socket.io.engine as unknown as {
      transport: { ws: { _socket: { pause(): void } } };
      _sendPacket(type: string): void;
    };
    engine.transport.ws._socket.pause();
    const { commands, most } = await commitUntil(
      host,
      code,
      conn,
      () => !serverSide.connected,
      10_000,
      (n) => {
        if (n % 200 === 0) engine._sendPacket('pong');
      },
    );

    expect(serverSide.connected).toBe(false);
    // What waited for it never went past the budget (plus the packet that passed it).
    expect(most).toBeLessThanOrEqual(MAX_QUEUED_BYTES + 16 * 1024);
    await sleep(50);
    expect(conn.readyState).toBe('closed');
    expect(server.app.io.engine.clientsCount).toBe(2);
    // The others saw every version, and see the stuck phone offline.
    const version = await host.must(code, { type: 'updateSettings', smallBlind: 5, bigBlind: 10 });
    await reader.waitForVersion(version);
    await reader.waitFor(() => reader.latest?.presence[stuck.playerId] === false, 5000, 'offline');
    expect(commands).toBeGreaterThan(100);
  });

  it('over long-polling, never polling but posting pongs, is dropped once its queue passes the budget', async () => {
    const { server, host, reader, code } = await table();
    const base = `${server.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const { sid } = JSON.parse(open.slice(1)) as { sid: string };
    const url = `${base}&sid=${sid}`;
    const post = (body: string) => fetch(url, { method: 'POST', body }).then((r) => r.text());
    /** Polls until a packet starting with `prefix` arrives; returns it. */
    const pollFor = async (prefix: string) => {
      for (let i = 0; i < 20; i++) {
        const packets = (await (await fetch(url)).text()).split('\x1e');
        const found = packets.find((p) => p.startsWith(prefix));
        if (found) return found;
      }
      throw new Error(`no ${prefix}`);
    };
    await post('40');
    const session = JSON.parse((await pollFor('42["session"')).slice(2))[1] as { playerId: string };
    await post(
      `420${JSON.stringify(['joinRoom', { commandId: randomUUID(), roomCode: code, name: 'Sam', startingChips: 5000 }])}`,
    );
    expect(JSON.parse((await pollFor('430')).slice(3))[0].ok).toBe(true);
    const serverSide = serverSocketOf(server.app.io, session.playerId);
    const conn = serverSide.conn as unknown as EngineConn;

    // From now on: no GET, only a pong now and then.
    const { most } = await commitUntil(
      host,
      code,
      conn,
      () => !serverSide.connected,
      3000,
      async (n) => {
        if (n % 100 === 0) await post('3');
      },
    );

    expect(serverSide.connected).toBe(false);
    expect(most).toBeLessThanOrEqual(MAX_QUEUED_BYTES + 16 * 1024);
    expect(conn.readyState).toBe('closed');
    expect(server.app.io.engine.clientsCount).toBe(2);
    const version = await host.must(code, { type: 'updateSettings', smallBlind: 5, bigBlind: 10 });
    await reader.waitForVersion(version);
    await reader.waitFor(() => reader.latest?.presence[session.playerId] === false, 5000, 'offline');
  });

  it('does not hold up a graceful stop: its WebSocket is ended without waiting for the closing handshake it never answers', async () => {
    const { server, host, code } = await table();
    const stuck = await TestClient.connect(server.url);
    clients.push(stuck);
    okData(await stuck.joinRoom(code, 'Sam', 5000));
    (
      stuck.socket.io.engine as unknown as { transport: { ws: { _socket: { pause(): void } } } }
    ).transport.ws._socket.pause();
    await host.must(code, { type: 'updateSettings', smallBlind: 5, bigBlind: 10 });

    // `ws` waits 30 s for a closing handshake; main.ts gives a graceful stop 10 s before exiting 1
    // without closing the store.
    const started = performance.now();
    await withTimeout(server.app.close(), 5000, 'app.close() hung on a phone that does not read');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('an HTTP request left half-sent (a beacon from a phone that lost its network) does not hold up a graceful stop either', async () => {
    const server = await startServer();
    servers.push(server);
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => {});
    // Content-Length 100, 5 bytes sent: the server waits for the rest of the body.
    socket.write(
      'POST /api/analytics/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ses',
    );
    await sleep(100);
    const started = performance.now();
    // Before: io.close() waited for the HTTP server's close, which waits for every connection, and the
    // connections were only closed after it: main.ts's 10 s budget ran out and the store was not closed.
    await withTimeout(server.app.close(), 5000, 'app.close() hung on a half-sent request');
    expect(performance.now() - started).toBeLessThan(5000);
    socket.destroy();
  });
});
