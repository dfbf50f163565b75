// @vitest-environment node
/**
 * The room client against a real Socket.IO server on a random port: what it does when an answer
 * never comes on a connection that still looks alive.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoomClient, NO_CONNECTION_ERROR, type RoomClient } from './client';

let closeAll: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeAll?.();
  closeAll = null;
});

/** A server that answers every event but `command`, whose answers are lost (a dead connection's fate). */
async function silentServer() {
  const httpServer = createServer();
  const io = new Server(httpServer);
  const connections: string[] = [];
  io.on('connection', (socket) => {
    connections.push(socket.id);
    socket.on('resume', (_req: unknown, ack: (res: unknown) => void) => ack({ ok: false, error: 'x' }));
    socket.on('command', () => {});
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return { io, url, connections };
}

const waitFor = async (check: () => boolean, ms = 3000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('room client', () => {
  it('a command unanswered on a socket that says it is connected: "No connection…", and it reconnects at once', async () => {
    const { io, url, connections } = await silentServer();
    const seen: boolean[] = [];
    const client: RoomClient = createRoomClient(
      { session: () => {}, room: () => {}, gone: () => {}, connection: (c) => seen.push(c) },
      { url, ackTimeoutMs: 200 },
    );
    closeAll = async () => {
      client.close();
      await io.close();
    };
    await waitFor(() => connections.length === 1);
    const res = await client.command('ABCDE', { type: 'startGame' });
    expect(res).toEqual({ ok: false, error: NO_CONNECTION_ERROR });
    // Without the forced close, Socket.IO would keep the silent connection until its heartbeat gave up.
    // The server sees the new connection before the client hears it is connected.
    await waitFor(() => connections.length === 2 && seen.length === 3);
    expect(seen).toEqual([true, false, true]);
  });

  it('an answered command leaves the connection alone', async () => {
    const { io, url, connections } = await silentServer();
    io.on('connection', (socket) => {
      socket.removeAllListeners('command');
      socket.on('command', (_req: unknown, ack: (res: unknown) => void) =>
        ack({ ok: true, data: { version: 7 } }),
      );
    });
    const client = createRoomClient(
      { session: () => {}, room: () => {}, gone: () => {}, connection: () => {} },
      { url, ackTimeoutMs: 200 },
    );
    closeAll = async () => {
      client.close();
      await io.close();
    };
    await waitFor(() => connections.length === 1);
    expect(await client.command('ABCDE', { type: 'startGame' })).toEqual({ ok: true, data: { version: 7 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connections).toHaveLength(1);
  });
});
