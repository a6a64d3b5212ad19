/**
 * The background work of tracking, run by every API process (CONTRACT C5.3,
 * C5.4, C5.8): partitions of the event log made ahead of time (PostgreSQL),
 * events older than EVENT_RETENTION_DAYS deleted (whole monthly partitions
 * dropped on PostgreSQL, the rest in small batches), received ids forgotten
 * once their events are past the 7-day window, and cookieless salts deleted
 * after 48 hours; also Idempotency-Keys past their lifetime (C8.2), and
 * webhook deliveries of events more than 30 days old once settled
 * (delivered or failed), with the payloads they keep (C8.5; as long as
 * Stripe keeps its events), and the overview's visitor-day markers of days
 * no accepted event can reach any more (C9.5). What events derived (identities, activity,
 * sessions, leads) stays. Every step can run in several processes at once: each deletion
 * only removes what is already due, and partitions are created if absent.
 */
import type { Store } from '../../repositories/index.js';
import { nextMonth } from '../../repositories/operator/event-partitions.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { CHANGE_RETENTION_DAYS } from '../tenant/changes.service.js';
import { IDEMPOTENCY_LIFETIME_MS } from '../tenant/idempotency.service.js';
import { dayOf } from './cookieless.js';
import type { IngestService } from './ingest.service.js';
import { MAX_CLOCK_AHEAD_MS, MAX_EVENT_AGE_MS } from './ingest.service.js';

const DAY_MS = 86_400_000;
/** settled webhook deliveries, payloads included, are kept this long after their event */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
/** rows per deleting statement, each in its own short transaction (SQLite holds its write lock for each) */
const DELETE_CHUNK = 5_000;
/** partitions are made this many months ahead of the current one */
const MONTHS_AHEAD = 2;
/** received ids are kept this much longer than the window in which their events are accepted */
const ID_MARGIN_MS = 60 * 60_000;

export interface MaintenanceReport {
  partitionsDropped: string[];
  eventsDeleted: number;
  idsForgotten: number;
  saltsDeleted: number;
  /** Idempotency-Keys past their lifetime (C8.2) */
  idempotencyKeysPruned: number;
  /** settled webhook deliveries past their retention (C8.5) */
  webhookDeliveriesPruned: number;
  /** changes feed events past their retention (C11.1) */
  changesPruned: number;
  /** the overview's visitor-day markers past the ingest's window (C9.5) */
  visitorDaysPruned: number;
}

export interface MaintenanceOptions {
  eventRetentionDays: number;
}

export class TrackingMaintenance {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;

  constructor(
    private readonly store: Store,
    private readonly ingest: IngestService,
    private readonly options: MaintenanceOptions,
  ) {}

  async run(now: number = Date.now()): Promise<MaintenanceReport> {
    // the month a 7-day-old event falls in, this month, and the next ones
    await this.ingest.partitionsAhead(now - MAX_EVENT_AGE_MS - MAX_CLOCK_AHEAD_MS, MONTHS_AHEAD + 1);
    const cutoff = now - this.options.eventRetentionDays * DAY_MS;
    const partitionsDropped = await this.dropPartitions(cutoff);
    let eventsDeleted = 0;
    let idsForgotten = 0;
    let idempotencyKeysPruned = 0;
    let webhookDeliveriesPruned = 0;
    let changesPruned = 0;
    let visitorDaysPruned = 0;
    // an event older than MAX_EVENT_AGE_MS is ignored, so no event can reach these days' markers (a day of margin)
    const markersBefore = dayOf(now - MAX_EVENT_AGE_MS - DAY_MS);
    const changesBefore = formatInstant(now - CHANGE_RETENTION_DAYS * DAY_MS);
    const deliveriesBefore = formatInstant(now - WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS);
    const keysBefore = formatInstant(now - IDEMPOTENCY_LIFETIME_MS);
    const idsBefore = formatInstant(now - MAX_EVENT_AGE_MS - ID_MARGIN_MS);
    // an event is accepted at most MAX_EVENT_AGE_MS after its time: one older than the cutoff was received before this
    const receivedBefore = cutoff + MAX_EVENT_AGE_MS;
    for (const workspace of await this.store.operator.workspaces.listAll()) {
      const scope = this.store.forWorkspace(workspace.id);
      for (const window of scope.repos.events.retentionWindows(cutoff, receivedBefore)) {
        eventsDeleted += await chunked(() => scope.transaction((repos) => repos.events.deleteBefore(formatInstant(cutoff), window, DELETE_CHUNK)));
      }
      idsForgotten += await chunked(() => scope.transaction((repos) => repos.events.pruneIds(idsBefore, DELETE_CHUNK)));
      idempotencyKeysPruned += await chunked(() => scope.transaction((repos) => repos.idempotency.prune(keysBefore, DELETE_CHUNK)));
      webhookDeliveriesPruned += await chunked(() => scope.transaction((repos) => repos.webhooks.pruneDeliveries(deliveriesBefore, DELETE_CHUNK)));
      changesPruned += await chunked(() => scope.transaction((repos) => repos.changes.prune(changesBefore, DELETE_CHUNK)));
      visitorDaysPruned += await scope.transaction((repos) => repos.trafficCounts.pruneVisitorDays(markersBefore));
    }
    const saltsDeleted = await this.store.transaction((repos) => repos.trackingSalts.deleteBefore(dayOf(now - DAY_MS)));
    return { partitionsDropped, eventsDeleted, idsForgotten, saltsDeleted, idempotencyKeysPruned, webhookDeliveriesPruned, changesPruned, visitorDaysPruned };
  }

  /** Runs now and then every `intervalMs`, until stop(); failures go to `onError` and the next run tries again. */
  start(intervalMs: number, onError: (error: unknown) => void, firstAfterMs = 5_000): void {
    const tick = (delay: number) => {
      this.#timer = setTimeout(() => {
        this.#running = this.run()
          .catch(onError)
          .finally(() => {
            this.#running = undefined;
            if (this.#timer !== undefined) tick(intervalMs);
          });
      }, delay);
      this.#timer.unref();
    };
    tick(firstAfterMs);
  }

  /** Stops the schedule and waits for a run in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** PostgreSQL: drops the partitions whose whole month is before `cutoff`. */
  private async dropPartitions(cutoff: number): Promise<string[]> {
    const partitions = this.store.operator.eventPartitions;
    const dropped: string[] = [];
    for (const month of await partitions.list()) {
      if (Date.parse(`${nextMonth(month)}-01T00:00:00Z`) > cutoff) continue;
      await partitions.drop(month);
      dropped.push(month);
    }
    if (dropped.length > 0) this.ingest.forgetPartitions();
    return dropped;
  }
}

/** Repeats a deletion of at most DELETE_CHUNK rows until one deletes fewer; returns the total. */
async function chunked(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await step();
    total += deleted;
    if (deleted < DELETE_CHUNK) return total;
  }
}
