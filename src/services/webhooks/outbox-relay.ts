/**
 * The delivery workers' hints between processes (README "Alerts"): with
 * REDIS_URL, a commit that wrote to an outbox in one process wakes the
 * workers of every process, over Redis pub/sub on a channel of its own, the
 * way Live's notices travel (live/live-bus.ts, the same class). Without it, a
 * process wakes only its own workers: the others find the delivery at their
 * next poll (WEBHOOK_POLL_MS), as before. A hint lost is a poll's wait, never
 * a delivery lost.
 */
import { OUTBOXES, type CommitSignal, type Outbox } from '../../db/commit-signal.js';
import { RedisLiveBus } from '../live/live-bus.js';

export const OUTBOX_CHANNEL = 'leadlight:outbox';

export interface OutboxRelay {
  /** whether the hints can go out (Redis connected; always, without Redis): tests wait for it */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function relayOutboxHints(redisUrl: string | undefined, commits: CommitSignal, onError?: (error: Error) => void): OutboxRelay {
  if (redisUrl === undefined) return { ready: async () => true, close: async () => undefined };
  const bus = new RedisLiveBus(redisUrl, onError, OUTBOX_CHANNEL);
  bus.onNotice((message) => {
    if ((OUTBOXES as readonly string[]).includes(message)) commits.heard(message as Outbox);
  });
  commits.relayTo((outbox) => bus.publish(outbox));
  return {
    ready: (timeoutMs) => bus.ready(timeoutMs),
    async close() {
      commits.relayTo(undefined);
      await bus.close();
    },
  };
}
