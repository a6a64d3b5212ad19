/**
 * The webhook delivery worker (CONTRACT C8.5), one in every API process:
 * at once after a commit that wrote to the outbox, and every WEBHOOK_POLL_MS
 * (poll-loop.ts), it claims due deliveries from the outbox in the
 * database (webhook-queue.repository.ts), sends each, signed the Standard
 * Webhooks way, with a 10-second timeout and no redirects (a 3xx is a
 * failure), to an address checked after name resolution, and records the
 * attempt. A 2xx is delivered; anything else is retried with exponential
 * backoff and jitter: WEBHOOK_RETRY_BASE_MS (5 s) × 2^(attempt−1), ±20 %,
 * at most an hour between attempts, until a day and an hour after the event
 * (so a delivery is tried for more than 24 hours), then it is failed. An
 * endpoint with FAILING_AFTER failures in a row is marked failing until a
 * delivery succeeds.
 */
import http from 'node:http';
import https from 'node:https';
import type { WebhookConfig } from '../../config.js';
import type { Store } from '../../repositories/index.js';
import type { ClaimedDelivery, Outcome } from '../../repositories/operator/webhook-queue.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { PollLoop } from './poll-loop.js';
import { signedHeaders } from './signing.js';
import { guardedLookup, literalRefusal } from './targets.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** a claimed delivery is this process's for this long (longer than a send can take) */
const LEASE_MS = 60_000;
const CLAIM_BATCH = 50;
const MAX_DELAY_MS = 60 * 60_000;
/** deliveries are tried until this long after their event */
export const RETRY_WINDOW_MS = 25 * 60 * 60_000;
export const FAILING_AFTER = 5;
/** at most this many log entries are kept per delivery (the latest) */
const LOG_ENTRIES = 50;

export interface AttemptResult {
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

/** The delay before retry number `attempt` (1 = after the first failure). */
export function retryDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exact = Math.min(baseMs * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(exact * (0.8 + 0.4 * random()));
}

/** POSTs `body` to `url`; never follows redirects; refuses private addresses unless allowed. */
export function post(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const refused = literalRefusal(url, allowPrivate);
  if (refused !== undefined) return Promise.resolve({ responseCode: null, durationMs: 0, error: `refused: ${refused}` });
  return new Promise((resolve) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Leadlight-Webhooks/1', ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(allowPrivate) as never,
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const code = response.statusCode ?? 0;
          finish({ responseCode: code, durationMs: took(), error: code >= 200 && code < 300 ? null : `answered ${code}` });
        });
        response.on('error', (error) => finish({ responseCode: response.statusCode ?? null, durationMs: took(), error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`));
    }, DELIVERY_TIMEOUT_MS);
    request.on('error', (error) => finish({ responseCode: null, durationMs: took(), error: error.message }));
    request.end(body);
  });
}

export class WebhookDeliveryWorker {
  #loop: PollLoop | undefined;
  #unsubscribe: (() => void) | undefined;
  #stopped = true;

  constructor(
    private readonly store: Store,
    private readonly config: WebhookConfig,
    private readonly clock: () => number = Date.now,
    /** the jitter's source (tests fix it) */
    private readonly random: () => number = Math.random,
  ) {}

  /** Claims and sends what is due now; answers how many attempts were made. */
  async runOnce(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const now = this.clock();
      const claimed = await this.store.transaction((repos) =>
        repos.webhookQueue.claimDue(formatInstant(now), formatInstant(now + LEASE_MS), CLAIM_BATCH),
      );
      if (claimed.length === 0) return attempts;
      // sent in parallel; their outcomes recorded in one transaction
      const outcomes = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      await this.store.transaction(async (repos) => {
        for (const [index, outcome] of outcomes.entries()) {
          await repos.webhookQueue.settle(claimed[index] as ClaimedDelivery, outcome, FAILING_AFTER);
        }
      });
      attempts += claimed.length;
      if (claimed.length < CLAIM_BATCH || this.#stopped) return attempts;
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<Outcome> {
    let result: AttemptResult;
    if (delivery.url === null || delivery.secret === null) result = { responseCode: null, durationMs: 0, error: 'the endpoint was deleted' };
    else if (delivery.enabled !== true) result = { responseCode: null, durationMs: 0, error: 'the endpoint is disabled' };
    else {
      const timestamp = Math.floor(this.clock() / 1000);
      const headers = signedHeaders(delivery.secret, delivery.message_id, timestamp, delivery.payload);
      result = await post(delivery.url, delivery.payload, headers, this.config.allowPrivate);
    }
    const now = this.clock();
    const attempt = delivery.attempts + 1;
    const log = (JSON.parse(delivery.log) as unknown[]).concat({
      attempt,
      at: formatInstant(now),
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      error: result.error,
    });
    const delivered = result.error === null;
    const next = now + retryDelay(attempt, this.config.retryBaseMs, this.random);
    const gaveUp = !delivered && (delivery.url === null || delivery.enabled !== true || next > Date.parse(delivery.created_at) + RETRY_WINDOW_MS);
    return {
      status: delivered ? 'delivered' : gaveUp ? 'failed' : 'pending',
      next_attempt_at: formatInstant(delivered || gaveUp ? now : next),
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      error: result.error,
      at: formatInstant(now),
      log: JSON.stringify(log.slice(-LOG_ENTRIES)),
    };
  }

  /**
   * Runs every WEBHOOK_POLL_MS, and at once after a commit that wrote to the
   * outbox (this process's, or another's over the relay: commit-signal.ts),
   * until stop(); failures go to `onError`.
   */
  start(onError: (error: unknown) => void): void {
    this.#stopped = false;
    const loop = new PollLoop(() => this.runOnce(), this.config.pollMs, onError);
    this.#loop = loop;
    this.#unsubscribe = this.store.database.commits.on('webhooks', () => loop.wake());
    loop.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    await this.#loop?.stop();
  }
}
