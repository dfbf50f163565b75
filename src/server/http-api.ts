/**
 * The small JSON HTTP API: GET /healthz (liveness), GET /readyz (readiness), GET /api/stats, GET
 * /api/config, POST /api/analytics/visit and POST /api/analytics/session. Bodies are size-capped and
 * validated with the shared schemas.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ConfigResponse, type StatsResponse, TOO_MANY_REQUESTS } from '../shared/protocol';
import { sessionEndSchema, visitSchema } from '../shared/schemas';
import type { Analytics } from './analytics';
import type { Config } from './config';
import type { Logger } from './logger';
import { KeyedRateLimiter } from './rate-limit';

const MAX_BODY_BYTES = 1024;

/**
 * Session minutes one client (IP) may report: MINUTES_PER_IP_PER_MINUTE a minute of wall time (a table
 * of ten phones on one Wi-Fi, each open the whole time), up to MINUTES_PER_IP_BURST at once (that table
 * reporting an eight-hour night when the pages close). Beyond it the minutes are not counted: each
 * beacon may carry up to a day (1440), so the beacon limit alone let one script add 86,400 a minute.
 */
const MINUTES_PER_IP_PER_MINUTE = 10;
const MINUTES_PER_IP_BURST = 10 * 8 * 60;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Data, never a document: nothing may run in it, nothing may frame it.
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Reads a small body; null as soon as it is known to be larger than MAX_BODY_BYTES (its announced
 * length, or what came so far): the rest is not waited for (the caller answers and closes).
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  const announced = Number(req.headers['content-length']);
  if (announced > MAX_BODY_BYTES) return Promise.resolve(null);
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      resolvePromise(null);
    };
    req.on('data', onData);
    req.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface HttpApiDeps {
  config: Config;
  analytics: Analytics;
  logger: Logger;
  now: () => number;
  clientIp: (req: IncomingMessage) => string;
  /**
   * Why this process should get no traffic now (GET /readyz answers 503 with it), or undefined when it
   * should: shutting down, or a store that does not answer.
   */
  notReady: () => Promise<string | undefined>;
}

/** A handler for the API routes; false when the path is not one of them. */
export function createHttpApi(deps: HttpApiDeps) {
  const { config, analytics, logger, now } = deps;
  // Analytics beacons per IP: generous for people, a ceiling for scripts inflating counters.
  const beacons = new KeyedRateLimiter(1, 60);
  // A drained minutes budget takes hours to fill again: swept (of the full ones) once a minute.
  const minutes = new KeyedRateLimiter(MINUTES_PER_IP_PER_MINUTE / 60, MINUTES_PER_IP_BURST);
  let minutesSwept = Number.NEGATIVE_INFINITY;

  const post = async (
    req: IncomingMessage,
    res: ServerResponse,
    record: (body: unknown, ip: string, t: number) => Promise<boolean>,
  ): Promise<void> => {
    const t = now();
    beacons.sweep(t);
    if (t - minutesSwept >= 60_000) {
      minutesSwept = t;
      minutes.sweep(t);
    }
    const ip = deps.clientIp(req);
    if (!beacons.take(ip, t)) return json(res, 429, { error: TOO_MANY_REQUESTS });
    const text = await readBody(req);
    if (text === null) {
      // The rest of the body is not read: the connection ends with this answer.
      res.setHeader('Connection', 'close');
      return json(res, 413, { error: 'Invalid request' });
    }
    if (!(await record(parseJson(text), ip, t))) return json(res, 400, { error: 'Invalid request' });
    res.statusCode = 204;
    res.end();
  };

  return async function serveApi(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const method = req.method ?? 'GET';
    const isRead = method === 'GET' || method === 'HEAD';
    switch (path) {
      case '/healthz':
        if (!isRead) return methodNotAllowed(res, 'GET');
        json(res, 200, { ok: true });
        return true;
      case '/readyz': {
        if (!isRead) return methodNotAllowed(res, 'GET');
        const reason = await deps.notReady();
        if (reason === undefined) json(res, 200, { ok: true });
        else json(res, 503, { ok: false, reason });
        return true;
      }
      case '/api/stats': {
        if (!isRead) return methodNotAllowed(res, 'GET');
        let totalHandsDealt: number;
        try {
          totalHandsDealt = await analytics.totalHandsDealt();
        } catch (err) {
          logger.warn({ err }, 'stats read failed');
          json(res, 503, { error: 'Stats unavailable' });
          return true;
        }
        json(res, 200, { totalHandsDealt } satisfies StatsResponse);
        return true;
      }
      case '/api/config':
        if (!isRead) return methodNotAllowed(res, 'GET');
        json(res, 200, {
          contactEmail: config.contactEmail,
          supportUrl: config.supportUrl,
        } satisfies ConfigResponse);
        return true;
      case '/api/analytics/visit':
        if (method !== 'POST') return methodNotAllowed(res, 'POST');
        await post(req, res, async (body) => {
          const parsed = visitSchema.safeParse(body);
          if (!parsed.success) return false;
          await analytics.recordVisit(parsed.data.newSession);
          return true;
        });
        return true;
      case '/api/analytics/session':
        if (method !== 'POST') return methodNotAllowed(res, 'POST');
        await post(req, res, async (body, ip, t) => {
          const parsed = sessionEndSchema.safeParse(body);
          if (!parsed.success) return false;
          const counted = minutes.takeUpTo(ip, parsed.data.minutes, t);
          if (counted > 0) await analytics.recordSessionEnd(counted);
          return true;
        });
        return true;
      default:
        if (path.startsWith('/api/')) {
          json(res, 404, { error: 'Not found' });
          return true;
        }
        return false;
    }
  };
}

function methodNotAllowed(res: ServerResponse, allow: string): true {
  res.setHeader('Allow', allow);
  json(res, 405, { error: 'Method not allowed' });
  return true;
}
