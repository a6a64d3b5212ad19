/**
 * Redis for tests: the URL from TEST_REDIS_URL (set in CI, where Redis must
 * answer: a test that needs it fails, never skips, when it does not), and a
 * key prefix per test so parallel files never share counters.
 */
import { randomBytes } from 'node:crypto';

export function redisUrl(): string | undefined {
  const url = process.env.TEST_REDIS_URL;
  return url === undefined || url.trim() === '' ? undefined : url.trim();
}

export function testKeyPrefix(): string {
  return `leadlight-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
}
