/**
 * Doctor's check of the clock: this machine's clock is not before the year
 * this version was built, and it agrees with the database server's and
 * Redis's within a few seconds (rate-limit windows end on the minute for
 * every process, and timestamps are written by both this process and the
 * database).
 */
import type { CheckResult } from './check.js';

export const BUILD_YEAR = 2026;
export const MAX_SKEW_MS = 5_000;

export interface ClockReading {
  /** PostgreSQL, Redis */
  source: string;
  /** its clock minus this machine's; undefined when it did not answer */
  skewMs: number | undefined;
}

export function checkClock(now: number, readings: ClockReading[]): CheckResult {
  const local = new Date(now);
  const parts = [`local ${local.toISOString()}`];
  const problems: string[] = [];
  if (local.getUTCFullYear() < BUILD_YEAR) problems.push(`the local clock is before ${BUILD_YEAR}, when this version was built`);
  for (const { source, skewMs } of readings) {
    if (skewMs === undefined) {
      parts.push(`${source} not reached`);
      continue;
    }
    const rounded = Math.round(skewMs);
    parts.push(`${source} ${rounded >= 0 ? '+' : ''}${rounded} ms`);
    if (Math.abs(skewMs) > MAX_SKEW_MS) problems.push(`${source} is ${Math.abs(rounded)} ms off (over ${MAX_SKEW_MS / 1000} s)`);
  }
  const detail = parts.join('; ');
  return problems.length === 0
    ? { name: 'clock', status: 'ok', detail }
    : { name: 'clock', status: 'fail', detail: `${detail}: ${problems.join('; ')}` };
}
