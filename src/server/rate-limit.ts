/**
 * Token buckets for rate limits: per connection (commands, joins) and per IP (joins, failed room
 * lookups, analytics beacons), and the client IP those are keyed on.
 * Time comes from the caller so tests and the server share one clock.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIPv6 } from 'node:net';

/**
 * What one client is, for a per-IP limit: an IPv4 address as it is; an IPv6 address by its /64
 * network, written `a:b:c:d::/64`. A household or a phone on a mobile network gets a whole /64 and
 * may use any address in it, so counting single IPv6 addresses would give one prober 2^64 buckets.
 * IPv4 addresses written as IPv6 (`::ffff:1.2.3.4`, a dual-stack listener's view of IPv4 peers) stay
 * as they are. Anything else (not an address) is its own key.
 */
export function ipLimitKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare) || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) return address;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) =>
    (part === '' ? [] : part.split(':')).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Hears of the first X-Forwarded-For header clientIp ignores; see onUntrustedForwardedFor. */
let untrustedForwardedFor: (() => void) | undefined;

/**
 * Sets what hears, once per process, that a request or handshake carried an X-Forwarded-For header
 * while TRUST_PROXY is off (main.ts: a warning). Behind a reverse proxy that means every phone has the
 * proxy's address and they all share its per-IP limits. Once: after the first, clientIp pays a
 * variable check; until then, a header lookup. `undefined` clears it (tests).
 */
export function onUntrustedForwardedFor(listener: (() => void) | undefined): void {
  untrustedForwardedFor = listener;
}

/**
 * The client per-IP limits key on (ipLimitKey of its address). Without `trustProxy`, the peer's
 * address. Behind a trusted proxy, the right-most X-Forwarded-For entry: the one that proxy appended
 * (its own client's address). Every entry left of it was written by the client, or by proxies nobody
 * vouches for, so it is never used: not even when the right-most is empty (the peer's address then,
 * the proxy's, shared by all its clients).
 */
export function clientIp(
  headers: IncomingHttpHeaders,
  remoteAddress: string | undefined,
  trustProxy: boolean,
): string {
  const peer = ipLimitKey(remoteAddress ?? 'unknown');
  if (!trustProxy) {
    if (untrustedForwardedFor !== undefined && headers['x-forwarded-for'] !== undefined) {
      const listener = untrustedForwardedFor;
      untrustedForwardedFor = undefined;
      listener();
    }
    return peer;
  }
  const last = lastForwarded(headers, 'x-forwarded-for');
  return last ? ipLimitKey(last) : peer;
}

/**
 * The right-most entry of an X-Forwarded-* header (undefined when absent or empty): the one the
 * trusted proxy (one hop) wrote; entries left of it are the client's to write. Node joins repeated
 * lines of a header into one (', '); an array's last line is still the last.
 */
export function lastForwarded(headers: IncomingHttpHeaders, name: string): string | undefined {
  const header = headers[name];
  const value = Array.isArray(header) ? header.join(',') : header;
  return value?.slice(value.lastIndexOf(',') + 1).trim() || undefined;
}

/** One token bucket: `ratePerSec` tokens refill per second up to `burst`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSec: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one token; false when the bucket is empty (the request must be refused). */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Takes up to `wanted` whole tokens (a quantity, such as minutes); returns how many it got. */
  takeUpTo(wanted: number, now: number): number {
    this.refill(now);
    const got = Math.max(0, Math.min(wanted, Math.floor(this.tokens)));
    this.tokens -= got;
    return got;
  }

  /** True when the bucket is full again (a keyed limiter may forget it). */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.ratePerSec);
    this.last = now;
  }
}

/** Token buckets by key (an IP address). Full buckets are forgotten on sweep, so memory stays bounded. */
export class KeyedRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly ratePerSec: number,
    private readonly burst: number,
  ) {}

  /** Takes one token from `key`'s bucket; false when it is empty. */
  take(key: string, now: number): boolean {
    return this.bucket(key, now).take(now);
  }

  /** Takes up to `wanted` whole tokens from `key`'s bucket; returns how many it got. */
  takeUpTo(key: string, wanted: number, now: number): number {
    return this.bucket(key, now).takeUpTo(wanted, now);
  }

  private bucket(key: string, now: number): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.ratePerSec, this.burst, now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Forgets the buckets that refilled completely. */
  sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(key);
  }

  /** Number of keys tracked (for tests). */
  get size(): number {
    return this.buckets.size;
  }
}
