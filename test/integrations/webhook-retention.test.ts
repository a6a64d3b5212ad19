/**
 * Webhook deliveries are not kept forever (CONTRACT C8.5, C8.4): the hourly
 * upkeep deletes deliveries, payloads included, whose event is more than 30
 * days old once they are settled (delivered or failed), on both stores,
 * exactly at the edge: 30 days old stays, a millisecond more goes; a
 * delivery still pending stays whatever its age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { WEBHOOK_DELIVERY_RETENTION_DAYS } from '../../src/services/tracking/maintenance.service.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const settings = { allowPrivate: true, retryBaseMs: HOUR_MS, pollMs: 60_000 };

describe.each(storeKinds())('webhook delivery retention on %s (C8.5)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: settings });
    ws = await t.createWorkspace('Delivery retention');
    receiver = await startReceiver();
    receiver.respond = (request) => (request.path === '/down' ? 500 : 200);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const deliveries = () =>
    t.db.database.db.selectFrom('webhook_deliveries').select(['id', 'status', 'created_at']).where('workspace_id', '=', ws.id).orderBy('created_at').execute();

  it('C8.5: settled deliveries of events 30 days old stay, a millisecond older are deleted; pending ones stay', async () => {
    expect(WEBHOOK_DELIVERY_RETENTION_DAYS).toBe(30);
    for (const path of ['/up', '/down']) {
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}${path}`, events: ['lead.created'] } })).statusCode).toBe(201);
    }
    // one event, two deliveries with the same time: /up delivered, /down given up after the retry window
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'settled', source: 'website' } })).statusCode).toBe(201);
    await t.services.webhookWorker.runOnce();
    await new WebhookDeliveryWorker(new Store(t.db.database), settings, () => Date.now() + 26 * HOUR_MS).runOnce();
    // a later event whose deliveries are never attempted: pending
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'pending', source: 'website' } })).statusCode).toBe(201);
    const before = await deliveries();
    expect(before.map((row) => row.status).sort()).toEqual(['delivered', 'failed', 'pending', 'pending']);
    const settled = before.filter((row) => row.status !== 'pending');
    expect(settled.map((row) => row.status).sort()).toEqual(['delivered', 'failed']);
    const eventAt = Date.parse(String(settled[0]!.created_at));
    expect(Date.parse(String(settled[1]!.created_at))).toBe(eventAt);

    const atEdge = await t.services.trackingMaintenance.run(eventAt + 30 * DAY_MS);
    expect(atEdge.webhookDeliveriesPruned).toBe(0);
    expect(await deliveries()).toHaveLength(4);

    const past = await t.services.trackingMaintenance.run(eventAt + 30 * DAY_MS + 1);
    expect(past.webhookDeliveriesPruned).toBe(2);
    const left = await deliveries();
    expect(left.map((row) => row.status)).toEqual(['pending', 'pending']);

    // pending, however old: kept until it is settled
    const later = await t.services.trackingMaintenance.run(eventAt + 90 * DAY_MS);
    expect(later.webhookDeliveriesPruned).toBe(0);
    expect((await deliveries()).map((row) => row.id)).toEqual(left.map((row) => row.id));
  });
});
