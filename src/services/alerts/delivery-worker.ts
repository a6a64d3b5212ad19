/**
 * The alert delivery worker (CONTRACT C10.2, C10.3), one in every API
 * process: at once after a commit that wrote to the alert outbox, and every
 * WEBHOOK_POLL_MS (webhooks/poll-loop.ts), it claims due deliveries from the alert
 * outbox (alert-queue.repository.ts) and sends each to its destination: a
 * Slack incoming webhook (a POST with the webhook worker's rules: 10-second
 * timeout, no redirects, C8.5's address rules after name resolution), an
 * email over SMTP_URL from SMTP_FROM (nodemailer), or one of the workspace's
 * webhooks, by writing an `alert.triggered` event to the webhook outbox
 * (which signs, sends and retries it as C8.5). A failure is retried with
 * the webhooks' backoff (WEBHOOK_RETRY_BASE_MS × 2^(attempt−1), ±20 %) for
 * 25 hours after the firing, then the delivery is failed.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AlertConfig, WebhookConfig } from '../../config.js';
import type { AlertOutcome, ClaimedAlertDelivery } from '../../repositories/operator/alert-queue.repository.js';
import type { Store } from '../../repositories/index.js';
import { formatInstant } from '../../schemas/instants.js';
import { post, retryDelay, RETRY_WINDOW_MS } from '../webhooks/delivery-worker.js';
import { PollLoop } from '../webhooks/poll-loop.js';
import { emailMessage, linkOf, slackMessage } from './messages.js';
import type { AlertDestination, AlertFacts } from './model.js';

const LEASE_MS = 60_000;
const CLAIM_BATCH = 50;
const LOG_ENTRIES = 50;
const SMTP_TIMEOUT_MS = 10_000;

export class AlertDeliveryWorker {
  #loop: PollLoop | undefined;
  #unsubscribe: (() => void) | undefined;
  #stopped = true;
  #mailer: Transporter | undefined;

  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhookConfig,
    private readonly config: AlertConfig,
    private readonly clock: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** Claims and sends what is due now; answers how many attempts were made. */
  async runOnce(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const now = this.clock();
      const claimed = await this.store.transaction((repos) => repos.alertQueue.claimDue(formatInstant(now), formatInstant(now + LEASE_MS), CLAIM_BATCH));
      if (claimed.length === 0) return attempts;
      const outcomes = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      await this.store.transaction(async (repos) => {
        for (const [index, outcome] of outcomes.entries()) await repos.alertQueue.settle(claimed[index] as ClaimedAlertDelivery, outcome);
      });
      attempts += claimed.length;
      if (claimed.length < CLAIM_BATCH || this.#stopped) return attempts;
    }
  }

  private async send(delivery: ClaimedAlertDelivery, destination: AlertDestination, facts: AlertFacts): Promise<string | null> {
    switch (destination.type) {
      case 'slack': {
        const result = await post(destination.url, JSON.stringify(slackMessage(facts)), { 'user-agent': 'Leadlight-Alerts/1' }, this.webhooks.allowPrivate);
        return result.error;
      }
      case 'email': {
        if (this.config.smtpUrl === undefined) return 'SMTP_URL is not set: email alerts cannot be sent';
        this.#mailer ??= nodemailer.createTransport({
          url: this.config.smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        } as SMTPTransport.Options);
        const message = emailMessage(facts);
        await this.#mailer.sendMail({ from: this.config.smtpFrom, to: destination.to, subject: message.subject, text: message.text, html: message.html });
        return null;
      }
      case 'webhook': {
        const written = await this.store
          .forWorkspace(delivery.workspace_id)
          .transaction(async (repos) => {
            if ((await repos.webhooks.findById(destination.webhook_id)) === undefined) return 0;
            // one event of the changes feed (C11.1), delivered to the webhook the alert names (its webhook-id is the feed's id)
            const at = formatInstant(this.clock());
            const change = await repos.changes.append('alert.triggered', facts, at);
            return repos.webhooks.queue([{ webhookId: destination.webhook_id, change: { ...change, type: 'alert.triggered' } }], at);
          });
        return written === 0 ? 'the webhook was deleted' : null;
      }
    }
  }

  private async attempt(delivery: ClaimedAlertDelivery): Promise<AlertOutcome> {
    const started = performance.now();
    const destination = JSON.parse(delivery.destination) as AlertDestination;
    const stored = JSON.parse(delivery.payload) as AlertFacts;
    const facts: AlertFacts = { ...stored, link: stored.link ?? linkOf(this.config.publicUrl, stored) };
    let error: string | null;
    try {
      error = await this.send(delivery, destination, facts);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const now = this.clock();
    const attempt = delivery.attempts + 1;
    const log = (JSON.parse(delivery.log) as unknown[]).concat({ attempt, at: formatInstant(now), duration_ms: Math.round(performance.now() - started), error });
    const next = now + retryDelay(attempt, this.webhooks.retryBaseMs, this.random);
    const gaveUp = error !== null && (error === 'the webhook was deleted' || next > Date.parse(delivery.created_at) + RETRY_WINDOW_MS);
    return {
      status: error === null ? 'delivered' : gaveUp ? 'failed' : 'pending',
      next_attempt_at: formatInstant(error === null || gaveUp ? now : next),
      error,
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
    const loop = new PollLoop(() => this.runOnce(), this.webhooks.pollMs, onError);
    this.#loop = loop;
    this.#unsubscribe = this.store.database.commits.on('alerts', () => loop.wake());
    loop.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    await this.#loop?.stop();
    this.#mailer?.close();
  }
}
