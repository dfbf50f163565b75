import { io, type Socket } from 'socket.io-client';
import type { Command } from '../../engine/types';
import type {
  Ack,
  ClientToServerEvents,
  GoneReason,
  RoomSnapshot,
  ServerToClientEvents,
  SessionCredentials,
} from '../../shared/protocol';
import { common } from '../texts';
import { newId } from './ids';
import { storage } from './storage';

/**
 * The typed Socket.IO client: the only module that knows about the socket. Components never see it;
 * they get snapshots and send commands through the useRoom hook.
 */
export interface RoomClientEvents {
  /** New credentials from the server (sent on every connection); the client has stored them already. */
  session(creds: SessionCredentials): void;
  room(snapshot: RoomSnapshot): void;
  gone(msg: { roomCode: string; reason: GoneReason }): void;
  connection(connected: boolean): void;
}

export interface RoomClient {
  createRoom(name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  joinRoom(roomCode: string, name: string, startingChips: number): Promise<Ack<RoomSnapshot>>;
  resume(roomCode: string): Promise<Ack<RoomSnapshot>>;
  /** Sends one engine command with a fresh command id; the server dedupes retries by that id. */
  command(roomCode: string, command: Command): Promise<Ack<{ version: number }>>;
  close(): void;
}

export type RoomClientFactory = (events: RoomClientEvents) => RoomClient;

/** How long an acknowledgement may take before the user is told to try again. */
const ACK_TIMEOUT_MS = 10_000;
export const NO_CONNECTION_ERROR = common.noConnection;
const NO_CONNECTION: Ack<never> = { ok: false, error: NO_CONNECTION_ERROR };

/** Where and how a room client connects (tests give a server's URL and a short timeout). */
export interface RoomClientOptions {
  /** The server's origin; the page's own by default. */
  url?: string;
  /** How long an acknowledgement may take (default ACK_TIMEOUT_MS). */
  ackTimeoutMs?: number;
}

/** The room client of this page: the server that served it. */
export const connectRoomClient: RoomClientFactory = (events) => createRoomClient(events);

/** A room client on `options.url` (the page's origin by default). */
export function createRoomClient(events: RoomClientEvents, options: RoomClientOptions = {}): RoomClient {
  const ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const socketOptions = {
    // A function, so every reconnection presents the newest token.
    auth: (cb: (data: object) => void) => cb({ token: storage.credentials()?.token }),
  };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> =
    options.url === undefined ? io(socketOptions) : io(options.url, socketOptions);

  socket.on('connect', () => events.connection(true));
  socket.on('disconnect', () => events.connection(false));
  // A first connection that fails never connected, so no 'disconnect' comes: say "Reconnecting…"
  // while socket.io keeps trying, rather than a spinner that never explains itself.
  socket.on('connect_error', () => events.connection(false));
  socket.on('session', (creds) => {
    storage.setCredentials(creds);
    events.session(creds);
  });
  socket.on('room', (snapshot) => events.room(snapshot));
  socket.on('gone', (msg) => events.gone(msg));

  const withTimeout = <T>(send: (ack: (err: Error | null, res: Ack<T>) => void) => void) =>
    new Promise<Ack<T>>((resolve) => {
      send((err, res) => {
        if (!err) return resolve(res);
        // No answer in time on a socket that still says it is connected: the connection is most likely
        // dead without knowing it (a phone that left the Wi-Fi, a NAT that dropped it), which Socket.IO's
        // heartbeat notices only after ~45 s, with every tap failing meanwhile. Closing the transport
        // reconnects now (and the app resumes the room); on a live one it costs a reconnection.
        if (socket.connected) socket.io.engine?.close();
        resolve(NO_CONNECTION);
      });
    });

  return {
    createRoom: (name, startingChips) =>
      withTimeout((ack) =>
        socket.timeout(ackTimeoutMs).emit('createRoom', { commandId: newId(), name, startingChips }, ack),
      ),
    joinRoom: (roomCode, name, startingChips) =>
      withTimeout((ack) =>
        socket
          .timeout(ackTimeoutMs)
          .emit('joinRoom', { commandId: newId(), roomCode, name, startingChips }, ack),
      ),
    resume: (roomCode) =>
      withTimeout((ack) => socket.timeout(ackTimeoutMs).emit('resume', { roomCode }, ack)),
    command: (roomCode, command) =>
      withTimeout((ack) =>
        socket.timeout(ackTimeoutMs).emit('command', { commandId: newId(), roomCode, command }, ack),
      ),
    close: () => {
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
