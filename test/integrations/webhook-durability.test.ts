/**
 * Webhook events survive a crash (CONTRACT C8.5, C2.4): a real server
 * process acknowledges a change whose event is in the outbox while the
 * receiver is down, its worker (woken by the commit) tries once and fails,
 * the process is killed with SIGKILL before its next try (it polls once a
 * minute), and the next process, polling quickly, delivers the event,
 * signed, to the receiver.
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

    // the receiver is down while the first process lives
    let down = true;
    receiver.respond = () => (down ? 503 : 200);
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
    // its one try recorded (the next is at its poll, a minute away): killed between two tries
    const tried = () => db.database.db.selectFrom('webhook_deliveries').select('id').where('attempts', '>=', 1).where('locked_until', 'is', null).execute();
    const triedBy = Date.now() + 15_000;
    while ((await tried()).length === 0 && Date.now() < triedBy) await new Promise((resolve) => setTimeout(resolve, 50));
    await first.stop('SIGKILL');
    expect(receiver.received).toHaveLength(1);
    down = false;

    const second = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '50' });
    try {
      const deadline = Date.now() + 15_000;
      while (receiver.received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(2);
      const entry = receiver.received[1];
      const event = new Webhook(secret).verify(entry!.body, entry!.headers) as { type: string; data: { id: string } };
      expect(event).toMatchObject({ type: 'lead.created', data: { id: leadId, code: 'survives-kill' } });
    } finally {
      await second.stop();
    }
  }, 120_000);
});
