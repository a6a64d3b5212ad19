/**
 * The tracking maintenance job on both stores (CONTRACT C5.8, C5.3, C5.4):
 * events older than EVENT_RETENTION_DAYS are deleted (on PostgreSQL their
 * monthly partitions dropped whole) while what they derived stays;
 * partitions are made ahead; received ids past the 7-day window are
 * forgotten; cookieless salts are deleted after 48 hours; and two processes
 * may run it at once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import type { TrackedEvent } from '../../src/schemas/tracked-events.js';
import { createServices } from '../../src/services/index.js';
import { dayOf } from '../../src/services/tracking/cookieless.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { BROWSER_UA, conversion, identify, pageView, type Event } from '../helpers/tracking.js';

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();
const month = (ms: number) => at(ms).slice(0, 7);

describe.each(storeKinds())('tracking maintenance on %s (C5.8)', (kind) => {
  let t: TestApp;
  let workspace: TestWorkspace;
  const now = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind);
    workspace = await t.createWorkspace('Retained');
  });
  afterAll(async () => t?.close());

  const store = () => new Store(t.db.database);
  const events = (visitor: string) => store().forWorkspace(workspace.id).repos.events.forVisitor(visitor, '2000-01-01T00:00:00.000Z', 1000);
  const send = (receivedAt: number, batch: Event[], address = '198.51.100.7') =>
    t.services.ingest.ingest(workspace.id, batch as TrackedEvent[], { receivedAt, address, userAgent: BROWSER_UA });

  it('C5.8: events older than EVENT_RETENTION_DAYS are deleted, what they derived stays; recent ones stay', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    // far enough that its whole month is past the 395 days (PostgreSQL drops that partition)
    const then = now - 460 * DAY;
    const oldBatch = [pageView(old, '/', { ts: at(then) }), identify(old, { email: 'retained@example.com' }, { ts: at(then + 1000) }), conversion(old, 'Old signup', { ts: at(then + 2000) })];
    expect((await send(then + 5000, oldBatch)).accepted).toBe(3);
    expect((await send(now - 2 * DAY, [pageView(recent, '/recent', { ts: at(now - 2 * DAY) })])).accepted).toBe(1);
    const services = t.services.forWorkspace(workspace.id);
    const [identity] = (await services.identities.list({ email: 'retained@example.com' }, { limit: 10, offset: 0 })).items;
    const activityBefore = await services.identities.activity(identity!.id, { limit: 10, offset: 0 });
    const leadsBefore = (await services.leads.list({}, { limit: 100, offset: 0 })).items.filter((lead) => lead.visitor_id === old);
    expect(activityBefore.total).toBe(3);
    expect(leadsBefore).toHaveLength(1);
    if (kind === 'postgres') expect(await store().operator.eventPartitions.list()).toContain(month(then));

    const report = await t.services.trackingMaintenance.run(now);
    expect(report.eventsDeleted).toBe(kind === 'postgres' ? 0 : 3);
    if (kind === 'postgres') {
      expect(report.partitionsDropped).toContain(month(then));
      const months = await store().operator.eventPartitions.list();
      expect(months).not.toContain(month(then));
      // made ahead: this month and the two after it
      for (const ahead of [0, 31, 62]) expect(months).toContain(month(now + ahead * DAY));
    }
    expect(await events(old)).toEqual([]);
    expect((await events(recent)).map((event) => event.path)).toEqual(['/recent']);
    expect(await services.identities.get(identity!.id)).toEqual(identity);
    expect(await services.identities.activity(identity!.id, { limit: 10, offset: 0 })).toEqual(activityBefore);
    expect((await services.leads.list({}, { limit: 100, offset: 0 })).items.filter((lead) => lead.visitor_id === old)).toEqual(leadsBefore);

    // the old ids were forgotten with them (PostgreSQL keeps them apart, SQLite in the log itself):
    // an event that old is ignored anyway when received now
    if (kind === 'postgres') expect(report.idsForgotten).toBeGreaterThanOrEqual(3);
    expect((await t.services.ingest.ingest(workspace.id, oldBatch as TrackedEvent[], { receivedAt: now, address: '198.51.100.7', userAgent: BROWSER_UA }))).toEqual({
      accepted: 0,
      duplicates: 0,
      ignored: 3,
    });
    // a recent id is still known
    const again = pageView(recent, '/again', { ts: at(now - DAY) });
    expect((await send(now - DAY, [again])).accepted).toBe(1);
    await t.services.trackingMaintenance.run(now);
    expect((await send(now, [again])).duplicates).toBe(1);
  });

  it('C5.8: EVENT_RETENTION_DAYS decides, and two processes may run the job at once', async () => {
    const shortRetention = createServices(store(), { tracking: { eventRetentionDays: 30 } });
    const visitor = randomUUID();
    await send(now - 40 * DAY, [pageView(visitor, '/forty', { ts: at(now - 40 * DAY) })]);
    await send(now - 20 * DAY, [pageView(visitor, '/twenty', { ts: at(now - 20 * DAY) })]);
    const other = createServices(store(), { tracking: { eventRetentionDays: 30 } });
    await Promise.all([shortRetention.trackingMaintenance.run(now), other.trackingMaintenance.run(now)]);
    expect((await events(visitor)).map((event) => event.path)).toEqual(['/twenty']);
  });

  it('C5.4: cookieless salts are kept 48 hours, then deleted; salts are never stored with data', async () => {
    const address = '198.51.100.8';
    await send(now - 3 * DAY, [pageView(undefined, '/three-days-ago', { ts: at(now - 3 * DAY) })], address);
    await send(now, [pageView(undefined, '/today', { ts: at(now) })], address);
    const salts = store().operator.trackingSalts;
    expect(await salts.find(dayOf(now - 3 * DAY))).toBeDefined();
    expect(await salts.find(dayOf(now))).toBeDefined();
    await t.services.trackingMaintenance.run(now);
    expect(await salts.find(dayOf(now - 3 * DAY))).toBeUndefined();
    expect(await salts.find(dayOf(now))).toBeDefined();
  });
});
