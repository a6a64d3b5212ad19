/**
 * Webhook events survive a crash (CONTRACT C8.5, C2.4): a real server
 * process acknowledges a change whose event is in the outbox, is killed with
 * SIGKILL before its worker could deliver it, and the next process delivers
 * it, signed, to a real receiver. The first process polls too rarely to
 * deliver before the kill; the second polls quickly.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import { startServerProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

describe.each(storeKinds())('webhook delivery across a kill -9 on %s (C8.5)', (kind) => {
  let db: TestDatabase;
  let services: Services;
  let receiver: Receiver;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.destroy();
  });

  it('C8.5: an event written with its change is delivered after the process that wrote it was killed', async () => {
    const workspace = await services.workspaces.create('Webhook durability');
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_MS: '50' };

    const first = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '60000' });
    const hook = await fetch(`${first.url}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${receiver.url}/crash`, events: ['lead.created'] }),
    });
    expect(hook.status).toBe(201);
    const { secret } = ((await hook.json()) as { data: { secret: string } }).data;
    const created = await fetch(`${first.url}/api/v1/leads`, { method: 'POST', headers, body: JSON.stringify({ code: 'survives-kill' }) });
    expect(created.status).toBe(201);
    const leadId = ((await created.json()) as { data: { id: string } }).data.id;
    await first.stop('SIGKILL');
    expect(receiver.received).toHaveLength(0);

    const second = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '50' });
    try {
      const deadline = Date.now() + 15_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.received).toHaveLength(1);
      const [entry] = receiver.received;
      const event = new Webhook(secret).verify(entry!.body, entry!.headers) as { type: string; data: { id: string } };
      expect(event).toMatchObject({ type: 'lead.created', data: { id: leadId, code: 'survives-kill' } });
    } finally {
      await second.stop();
    }
  }, 120_000);
});
