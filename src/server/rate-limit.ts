/**
 * Token buckets for rate limits: per connection (commands, joins) and per IP (joins).
 * Time comes from the caller so tests and the server share one clock.
 */

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
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.ratePerSec, this.burst, now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(now);
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
