/**
 * Event retention at its exact edge (CONTRACT C5.8), on both stores: with
 * EVENT_RETENTION_DAYS = 30, an event exactly 30 days old stays and one a
 * millisecond older is deleted; on PostgreSQL a month's partition is dropped
 * once the retention cutoff reaches the first instant of the next month,
 * not a millisecond earlier (while its last event is still retained). An
 * event received late (up to 7 days after its time) leaves with its time's
 * others: SQLite walks the week after the cutoff in arrival windows.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import type { TrackedEvent } from '../../src/schemas/tracked-events.js';
import { createServices } from '../../src/services/index.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { BROWSER_UA, pageView, type Event } from '../helpers/tracking.js';

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const at = (ms: number) => new Date(ms).toISOString();

describe.each(storeKinds())('event retention at its edge on %s (C5.8)', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  async function setUp() {
    t = await createTestApp(kind);
    const workspace = await t.createWorkspace('Retention edge');
    const store = new Store(t.db.database);
    const services = createServices(store, { tracking: { eventRetentionDays: RETENTION_DAYS } });
    return { workspace, store, services };
  }
  /** Each event received a minute after it happened (the 7-day rule looks at the time received). */
  async function send(workspace: TestWorkspace, event: Event) {
    const received = Date.parse(String(event.ts)) + 60_000;
    const counts = await t!.services.ingest.ingest(workspace.id, [event] as TrackedEvent[], { receivedAt: received, address: '198.51.100.9', userAgent: BROWSER_UA });
    expect(counts.accepted).toBe(1);
  }
  const paths = async (store: Store, workspace: TestWorkspace, visitor: string) =>
    (await store.forWorkspace(workspace.id).repos.events.forVisitor(visitor, '2000-01-01T00:00:00.000Z', 100)).map((event) => event.path);

  it('C5.8: an event exactly EVENT_RETENTION_DAYS old stays; a millisecond older, it is deleted', async () => {
    const { workspace, store, services } = await setUp();
    const now = Date.now();
    const cutoff = now - RETENTION_DAYS * DAY;
    const visitor = randomUUID();
    await send(workspace, pageView(visitor, '/exactly', { ts: at(cutoff) }));
    await send(workspace, pageView(visitor, '/older', { ts: at(cutoff - 1) }));
    await services.trackingMaintenance.run(now);
    expect(await paths(store, workspace, visitor)).toEqual(['/exactly']);
  });

  it('C5.8: an event received up to 7 days after it happened leaves with the others of its time, whatever hour of the week after the cutoff it arrived in', async () => {
    const { workspace, store, services } = await setUp();
    const now = Date.now();
    const cutoff = now - RETENTION_DAYS * DAY;
    const visitor = randomUUID();
    const late = [
      ['/first-hour', cutoff - 1, cutoff + 30 * 60_000],
      ['/mid-week', cutoff - 1, cutoff + 3.5 * DAY],
      ['/last-instant', cutoff - 1, cutoff - 1 + 7 * DAY],
      ['/kept', cutoff, cutoff + 7 * DAY],
    ] as const;
    for (const [path, happened, received] of late) {
      const counts = await t!.services.ingest.ingest(workspace.id, [pageView(visitor, path, { ts: at(happened) })] as TrackedEvent[], { receivedAt: received, address: '198.51.100.9', userAgent: BROWSER_UA });
      expect(counts.accepted, path).toBe(1);
    }
    await services.trackingMaintenance.run(now);
    expect(await paths(store, workspace, visitor)).toEqual(['/kept']);
  });

  it('C5.8: a month leaves once the cutoff reaches the next month\'s first instant, not a millisecond earlier', async () => {
    const { workspace, store, services } = await setUp();
    // the first instant of the month three months back, and an event on the last millisecond before it
    const today = new Date();
    const monthStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 3, 1);
    const lastMonth = at(monthStart - 1).slice(0, 7);
    const visitor = randomUUID();
    await send(workspace, pageView(visitor, '/last-ms-of-month', { ts: at(monthStart - 1) }));

    const early = await services.trackingMaintenance.run(monthStart - 1 + RETENTION_DAYS * DAY);
    expect(early.partitionsDropped).not.toContain(lastMonth);
    expect(await paths(store, workspace, visitor)).toEqual(['/last-ms-of-month']);

    const reached = await services.trackingMaintenance.run(monthStart + RETENTION_DAYS * DAY);
    expect(await paths(store, workspace, visitor)).toEqual([]);
    if (kind === 'postgres') {
      expect(reached.partitionsDropped).toContain(lastMonth);
      expect(await store.operator.eventPartitions.list()).not.toContain(lastMonth);
    }
  });
});
