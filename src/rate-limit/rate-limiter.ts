/**
 * Fixed 60-second windows aligned to the clock (CONTRACT C3.3): every process
 * and every store agrees on when a window starts and ends, so a counter shared
 * through Redis and one kept in memory mean the same thing.
 */

export const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** requests left in this window, never negative */
  remaining: number;
  /** Unix seconds when the window ends */
  resetAt: number;
  /** seconds until the window ends, at least 1 */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts one request against `bucket` unless its window's `limit` is used up. */
  consume(bucket: string, limit: number): Promise<RateLimitDecision>;
  /** `consume` answered at once, by a limiter that needs no I/O (in memory); absent otherwise */
  consumeNow?(bucket: string, limit: number): RateLimitDecision;
  /** how limits are counted right now, as /readyz reports it */
  state(): string;
  /** the limiter's clock (ms), which places requests in windows */
  now(): number;
  close(): Promise<void>;
}

export type Clock = () => number;

export function windowIndex(nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS);
}

export function decide(limit: number, used: number, allowed: boolean, nowMs: number): RateLimitDecision {
  const endMs = (windowIndex(nowMs) + 1) * WINDOW_MS;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - used),
    resetAt: endMs / 1000,
    retryAfter: Math.max(1, Math.ceil((endMs - nowMs) / 1000)),
  };
}
