/**
 * Rate limiting inside one process. The counters of a window are dropped as
 * a whole when the next window starts, so memory is bounded by the number of
 * keys and addresses seen in one minute.
 */
import { decide, windowIndex, type Clock, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

export class MemoryRateLimiter implements RateLimiter {
  #window = -1;
  #counts = new Map<string, number>();

  constructor(private readonly clock: Clock = Date.now) {}

  consumeNow(bucket: string, limit: number): RateLimitDecision {
    const nowMs = this.clock();
    const window = windowIndex(nowMs);
    if (window !== this.#window) {
      this.#window = window;
      this.#counts = new Map();
    }
    const used = this.#counts.get(bucket) ?? 0;
    if (used >= limit) return decide(limit, used, false, nowMs);
    this.#counts.set(bucket, used + 1);
    return decide(limit, used + 1, true, nowMs);
  }

  async consume(bucket: string, limit: number): Promise<RateLimitDecision> {
    return this.consumeNow(bucket, limit);
  }

  state(): string {
    return 'memory';
  }

  now(): number {
    return this.clock();
  }

  async close(): Promise<void> {
    this.#counts.clear();
  }
}
