/**
 * The floor of the load benchmark: a bare Socket.IO server with no rules, no store and no validation.
 * For each 'command' it acks with the room's next version and rebroadcasts a snapshot of the real
 * size and shape (a snapshot captured from the real server, else a synthetic one) to the room.
 * Whatever the real server costs on top of this is what Chipless itself adds.
 *
 * Run by load.ts with `fork`; reports `{ port }` over IPC once listening. Env: FLOOR_SNAPSHOT (a JSON file).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import type { RoomSnapshot } from '../src/shared/protocol';
import { syntheticSnapshot } from './sample-snapshot';

const sample: RoomSnapshot = process.env.FLOOR_SNAPSHOT
  ? (JSON.parse(readFileSync(process.env.FLOOR_SNAPSHOT, 'utf8')) as RoomSnapshot)
  : syntheticSnapshot();

const versions = new Map<string, number>();
const httpServer = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
});
const io = new Server(httpServer, { transports: ['websocket'], serveClient: false });

io.on('connection', (socket) => {
  socket.emit('session', { playerId: socket.id, token: '' });
  socket.on('join', (req: { roomCode: string }, ack: (res: unknown) => void) => {
    socket.join(req.roomCode);
    if (!versions.has(req.roomCode)) versions.set(req.roomCode, 1);
    ack({ ok: true, data: { ...sample, version: versions.get(req.roomCode) } });
  });
  socket.on('command', (req: { roomCode: string }, ack: (res: unknown) => void) => {
    const version = (versions.get(req.roomCode) ?? 0) + 1;
    versions.set(req.roomCode, version);
    ack({ ok: true, data: { version } });
    io.to(req.roomCode).emit('room', { ...sample, version });
  });
});

httpServer.listen(0, '127.0.0.1', () => {
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ port });
});

const shutdown = () => {
  io.close();
  httpServer.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
