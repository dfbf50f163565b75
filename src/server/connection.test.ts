/**
 * Integration: what the server keeps of a connection. The first HTTP request is dropped once the
 * handshake is read (memory at thousands of sockets), and what it was needed for still holds: the
 * client's address, through X-Forwarded-For when TRUST_PROXY is set. Every socket shares one listener
 * per event (no closures per socket), and they still act for their own socket.
 */
import { randomUUID } from 'node:crypto';
import { io as ioClient } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { TOO_MANY_REQUESTS } from './socket-gateway';
import { emitWithAck, okData, startServer, TestClient, type TestServer } from './test-helpers';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serverWith(env: Record<string, string>): Promise<TestServer> {
  const s = await startServer({ env });
  servers.push(s);
  return s;
}

/** The server side of the only connected socket. */
function onlySocket(server: TestServer) {
  const sockets = [...server.app.io.of('/').sockets.values()];
  expect(sockets).toHaveLength(1);
  return sockets[0]!;
}

/** A raw client whose requests carry `forwardedFor` as X-Forwarded-For; resolves once it has a session. */
async function connectVia(server: TestServer, forwardedFor: string) {
  const socket = ioClient(server.url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { 'X-Forwarded-For': forwardedFor },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('session', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

describe('connections', () => {
  it('drop the first HTTP request and keep the address the trusted proxy appended to X-Forwarded-For', async () => {
    const server = await serverWith({ TRUST_PROXY: 'true' });
    const socket = await connectVia(server, '203.0.113.7, 10.0.0.1');
    try {
      const serverSide = onlySocket(server);
      expect(serverSide.data.ip).toBe('10.0.0.1');
      expect((serverSide.conn as unknown as { request: unknown }).request).toBeNull();
    } finally {
      socket.disconnect();
    }
  });

  it('a forged left-most X-Forwarded-For entry does not escape the per-IP join limit', async () => {
    const server = await serverWith({ TRUST_PROXY: 'true', JOIN_RATE_PER_IP_PER_MIN: '3' });
    const sockets: Array<Awaited<ReturnType<typeof connectVia>>> = [];
    const create = async (forwardedFor: string) => {
      // A new connection each time: its own per-connection bucket is full, only the IP's can refuse.
      const socket = await connectVia(server, forwardedFor);
      sockets.push(socket);
      const ack = await emitWithAck(socket, 'createRoom', {
        commandId: randomUUID(),
        name: 'Hana',
        startingChips: 5000,
      });
      return ack.ok ? 'ok' : ack.error;
    };
    try {
      const results = [];
      // The client writes a new address each time; the proxy appends the same real one.
      for (let i = 0; i < 5; i++) results.push(await create(`203.0.113.${i}, 198.51.100.7`));
      expect(results).toEqual(['ok', 'ok', 'ok', TOO_MANY_REQUESTS, TOO_MANY_REQUESTS]);
      // Another real client behind the same proxy has its own bucket.
      expect(await create('203.0.113.0, 198.51.100.8')).toBe('ok');
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });

  it('without a trusted proxy use the peer address, and play on without the request', async () => {
    const server = await serverWith({ TRUST_PROXY: 'false' });
    const host = await TestClient.connect(server.url);
    try {
      const serverSide = onlySocket(server);
      expect(serverSide.data.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect((serverSide.conn as unknown as { request: unknown }).request).toBeNull();
      const snap = okData(await host.createRoom('Hana', 5000));
      expect(
        await host.must(snap.room.roomCode, { type: 'updateSettings', smallBlind: 10, bigBlind: 20 }),
      ).toBe(2);
    } finally {
      host.close();
    }
  });

  it('share one listener per event among all sockets, each acting for its own socket', async () => {
    const server = await serverWith({});
    const host = await TestClient.connect(server.url);
    const guest = await TestClient.connect(server.url);
    try {
      const [a, b] = [...server.app.io.of('/').sockets.values()];
      for (const event of [
        'createRoom',
        'joinRoom',
        'resume',
        'command',
        'disconnecting',
        'disconnect',
      ] as const) {
        // 'disconnect' has a second one, oneSocketPerConnection's (connection-limit.ts), shared too.
        expect(a!.listeners(event)).toHaveLength(event === 'disconnect' ? 2 : 1);
        expect(a!.listeners(event)).toEqual(b!.listeners(event));
      }
      const snap = okData(await host.createRoom('Hana', 5000));
      const code = snap.room.roomCode;
      const joined = okData(await guest.joinRoom(code, 'Ivo', 5000));
      const ids = Object.values(joined.room.players).map((p) => [p.name, p.isHost]);
      expect(ids).toEqual([
        ['Hana', true],
        ['Ivo', false],
      ]);
      // The guest's command is the guest's: it may not act as the host.
      expect(await guest.command(code, { type: 'startGame' })).toEqual({
        ok: false,
        error: expect.stringMatching(/host/i),
      });
    } finally {
      host.close();
      guest.close();
    }
  });
});
