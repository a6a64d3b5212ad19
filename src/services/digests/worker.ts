/**
 * The digest worker (CONTRACT C10.4; docs/alerts.md, "Digests"), one in
 * every API process: every DIGEST_POLL_MS it reads the members who want a
 * digest and, for each whose latest period's 08:00 (in the workspace's
 * time zone) has come and whose choice is older than that 08:00, claims
 * the member's digest of that period (one row per member and period, taken
 * in a transaction: digests.repository.ts), reads what it tells, and sends
 * it over SMTP_URL from SMTP_FROM. Sent (or found empty) it is never
 * claimed again; a failed send frees the claim after a backoff; a process
 * killed while sending leaves a claim whose lease ends, and the next
 * worker sends it. Only the latest period is ever sent: a digest is news.
 */
import type { AlertConfig } from '../../config.js';
import type { Store } from '../../repositories/index.js';
import type { DigestSubscriber } from '../../repositories/operator/digest-schedule.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { createMailer, type Mailer } from './mailer.js';
import { digestContent, isEmptyDigest } from './content.js';
import { digestEmail } from './message.js';
import { latestPeriod, type DigestPeriod } from './period.js';

export const DIGEST_POLL_MS = 30_000;
/** a claim's lease: longer than a send can take (three SMTP timeouts of 10 s) */
export const DIGEST_LEASE_MS = 2 * 60_000;
/** the wait after a failed send: RETRY_BASE_MS × 2^(attempt−1), at most RETRY_MAX_MS */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 60 * 60_000;

export interface DigestRound {
  sent: number;
  empty: number;
  failed: number;
}

export class DigestWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;
  #mailer: Mailer | undefined;

  constructor(
    private readonly store: Store,
    private readonly config: AlertConfig,
    private readonly clock: () => number = Date.now,
    private readonly pollMs = DIGEST_POLL_MS,
  ) {}

  /** Sends every digest due now; answers what became of them. */
  async runOnce(): Promise<DigestRound> {
    const round: DigestRound = { sent: 0, empty: 0, failed: 0 };
    for (const subscriber of await this.store.operator.digestSchedule.subscribers()) {
      if (this.#stopped && this.#timer !== undefined) break;
      const period = latestPeriod(this.clock(), subscriber.time_zone, subscriber.digest);
      // chosen after this period's 08:00: its first digest is the next period's
      if (subscriber.digest_since !== null && Date.parse(subscriber.digest_since) > period.sendAt) continue;
      const outcome = await this.deliver(subscriber, period);
      if (outcome !== undefined) round[outcome] += 1;
    }
    return round;
  }

  private async deliver(subscriber: DigestSubscriber, period: DigestPeriod): Promise<keyof DigestRound | undefined> {
    const workspace = this.store.forWorkspace(subscriber.workspace_id);
    const now = this.clock();
    const attempt = await workspace.transaction((repos) => repos.digests.claim(subscriber.user_id, period.key, formatInstant(now), formatInstant(now + DIGEST_LEASE_MS)));
    if (attempt === null) return undefined;
    try {
      const content = await digestContent(workspace.repos, period, subscriber.workspace_name, subscriber.time_zone);
      if (isEmptyDigest(content)) {
        await workspace.transaction((repos) => repos.digests.settle(subscriber.user_id, period.key, 'empty', formatInstant(this.clock())));
        return 'empty';
      }
      if (this.config.smtpUrl === undefined) throw new Error('SMTP_URL is not set: digests cannot be sent');
      this.#mailer ??= createMailer(this.config.smtpUrl);
      const email = digestEmail(content, this.config.publicUrl);
      await this.#mailer.send({
        from: this.config.smtpFrom,
        to: subscriber.email,
        subject: email.subject,
        text: email.text,
        html: email.html,
        // the same for every attempt at one digest: a mail client that got it already shows it once
        messageId: `<digest.${period.key.replace(':', '.')}.${subscriber.user_id}.${subscriber.workspace_id}@leadlight>`,
      });
      await workspace.transaction((repos) => repos.digests.settle(subscriber.user_id, period.key, 'sent', formatInstant(this.clock())));
      return 'sent';
    } catch (failure) {
      const retryAt = this.clock() + Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
      const error = failure instanceof Error ? failure.message : String(failure);
      await workspace.transaction((repos) => repos.digests.release(subscriber.user_id, period.key, formatInstant(retryAt), error));
      return 'failed';
    }
  }

  /** Runs every poll interval until stop(); failures go to `onError`. */
  start(onError: (error: unknown) => void): void {
    this.#stopped = false;
    const tick = () => {
      this.#timer = setTimeout(() => {
        this.#running = this.runOnce()
          .catch(onError)
          .finally(() => {
            this.#running = undefined;
            if (!this.#stopped) tick();
          });
      }, this.pollMs);
      this.#timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    this.#mailer?.close();
  }
}
