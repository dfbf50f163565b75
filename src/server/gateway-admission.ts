/**
 * What a message must pass before the gateway's handlers see it (socket-gateway.ts): a known event, a
 * size, a schema and the sender's rate limits; and how every handler is answered. Split from
 * socket-gateway.ts (session 36's code-health pass): that file keeps what the handlers do with rooms.
 */
import type { z } from 'zod';
import { MAX_MESSAGE_BYTES } from '../shared/limits';
import { type Ack, type ClientToServerEvents, INVALID_REQUEST, TOO_MANY_REQUESTS } from '../shared/protocol';
import type { Config } from './config';
import type { Logger } from './logger';
import { KeyedRateLimiter } from './rate-limit';
import { SOMETHING_WENT_WRONG } from './room-service';
import type { ChiplessSocket } from './socket-gateway';

const EVENTS = new Set<string>(['createRoom', 'joinRoom', 'resume', 'command', 'seatLink', 'claimSeat']);

/** JSON size of a message's arguments (the ack function excluded); Infinity when it cannot be measured. */
function messageBytes(args: unknown[]): number {
  try {
    const json = JSON.stringify(args.filter((a) => typeof a !== 'function'));
    return json === undefined ? 0 : Buffer.byteLength(json);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function ackOf(args: unknown[]): ((res: unknown) => void) | undefined {
  const last = args[args.length - 1];
  return typeof last === 'function' ? (last as (res: unknown) => void) : undefined;
}

/** The listener of one event on every socket (see `listenerFor`). */
export type SharedListener = (this: ChiplessSocket, ...args: unknown[]) => Promise<void>;

export interface Admission {
  /** A join or create: charged to the connection and to its IP, both of which must have a token. */
  takeJoin(socket: ChiplessSocket): boolean;
  /** A command, a resume or a malformed message: charged to the player, across their sockets. */
  takeCommand(socket: ChiplessSocket): boolean;
  /**
   * A lookup that found no room, or a room without the sender, charged to the sender's IP: its answer
   * tells whether the code exists, and one IP may hold many connections. False when the IP has no
   * tokens left: the lookup is then refused like any other, room or no room. Members never get here.
   */
  takeMiss(socket: ChiplessSocket): boolean;
  /**
   * The listener of one event, shared by every socket (EventEmitter calls it with the socket as
   * `this`): schema, rate limit, handler, ack. Never throws: a failing handler is logged and answered
   * 'Something went wrong'. Without an ack function the answer is dropped.
   *
   * Shared rather than made per socket: at 6,000 sockets, a listener closure per event and socket held
   * ~2.5 KB a socket (tsx names every named closure with Object.defineProperty, which gives each its
   * own dictionary of properties): ~12 MB and ~117K objects every major GC marked (bench/README.md,
   * session 9).
   */
  listenerFor<S extends z.ZodType, T>(
    event: keyof ClientToServerEvents,
    schema: S,
    limit: (socket: ChiplessSocket, req: z.output<S>) => boolean,
    handler: (socket: ChiplessSocket, req: z.output<S>) => Promise<Ack<T>>,
  ): SharedListener;
  /** Socket.IO middleware: unknown events and oversized messages never reach a listener. */
  checkBoundary(socket: ChiplessSocket, packet: unknown[], next: (err?: Error) => void): void;
  /** Stops the sweep of idle rate-limit buckets. */
  close(): void;
}

export function createAdmission(config: Config, logger: Logger, now: () => number): Admission {
  const joinsPerIp = new KeyedRateLimiter(config.joinRatePerIpPerMin / 60, config.joinRatePerIpPerMin);
  const missesPerIp = new KeyedRateLimiter(config.failedLookupRatePerMin / 60, config.failedLookupRatePerMin);
  // Commands (and malformed messages) per player, across every socket of theirs on this process: per
  // socket, a player's budget grew with each tab or connection opened with their token (session 33's
  // audit). A connection without a token is a player of its own, limited as such.
  const commandsPerPlayer = new KeyedRateLimiter(config.commandRatePerSec, config.commandBurst);
  const sweep = setInterval(() => {
    const t = now();
    joinsPerIp.sweep(t);
    missesPerIp.sweep(t);
    commandsPerPlayer.sweep(t);
  }, 60_000);
  sweep.unref();

  const takeJoin = (socket: ChiplessSocket) => {
    const t = now();
    // Both buckets are charged: a connection cannot hide behind a busy IP or the other way round.
    const perConnection = socket.data.joins.take(t);
    const perIp = joinsPerIp.take(socket.data.ip, t);
    return perConnection && perIp;
  };
  const takeCommand = (socket: ChiplessSocket) => commandsPerPlayer.take(socket.data.playerId, now());
  const takeMiss = (socket: ChiplessSocket) => missesPerIp.take(socket.data.ip, now());

  /** Answers a message through its ack function, if it came with one; a throwing ack is logged. */
  const answer = (ack: ((res: unknown) => void) | undefined, event: string, res: Ack<unknown>) => {
    try {
      ack?.(res);
    } catch (err) {
      logger.warn({ err, event }, 'ack failed');
    }
  };

  function listenerFor<S extends z.ZodType, T>(
    event: keyof ClientToServerEvents,
    schema: S,
    limit: (socket: ChiplessSocket, req: z.output<S>) => boolean,
    handler: (socket: ChiplessSocket, req: z.output<S>) => Promise<Ack<T>>,
  ): SharedListener {
    return async function (this: ChiplessSocket, ...args: unknown[]) {
      const ack = ackOf(args);
      try {
        const parsed = schema.safeParse(args[0]);
        if (!parsed.success) {
          // Count invalid messages too, so a flood of garbage is throttled like anything else.
          if (!takeCommand(this)) return answer(ack, event, { ok: false, error: TOO_MANY_REQUESTS });
          return answer(ack, event, { ok: false, error: INVALID_REQUEST });
        }
        if (!limit(this, parsed.data)) return answer(ack, event, { ok: false, error: TOO_MANY_REQUESTS });
        answer(ack, event, await handler(this, parsed.data));
      } catch (err) {
        logger.error({ err, event, actor: this.data.playerId }, 'handler failed');
        answer(ack, event, { ok: false, error: SOMETHING_WENT_WRONG });
      }
    };
  }

  const checkBoundary = (socket: ChiplessSocket, packet: unknown[], next: (err?: Error) => void) => {
    const [event, ...args] = packet as [unknown, ...unknown[]];
    if (typeof event === 'string' && EVENTS.has(event) && messageBytes(args) <= MAX_MESSAGE_BYTES) {
      next();
      return;
    }
    if (!takeCommand(socket)) return;
    try {
      ackOf(args)?.({ ok: false, error: INVALID_REQUEST });
    } catch {
      // The client's ack could not be sent; nothing else to do.
    }
  };

  return { takeJoin, takeCommand, takeMiss, listenerFor, checkBoundary, close: () => clearInterval(sweep) };
}
