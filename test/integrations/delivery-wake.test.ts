/**
 * The delivery workers wake when a commit wrote to their outbox (CONTRACT
 * C8.5, C10.3; README "Alerts"): a server process polling once a minute
 * (WEBHOOK_POLL_MS=60000) delivers an alert fired by an event it took, and a
 * webhook event of a lead it created, long before its first poll; and on
 * PostgreSQL with Redis, a firing committed by another process (this test's
 * own, which runs no worker: as a CLI command would) wakes the server's
 * worker over Redis pub/sub. Each wait is shorter than the poll interval, so
 * a worker that only polled fails these tests.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import { relayOutboxHints } from '../../src/services/webhooks/outbox-relay.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { postgresUrl } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { redisUrl } from '../helpers/redis.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { BROWSER_UA, identify, pageView, postEvents } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** the workers' poll in these tests: far longer than any wait below */
const POLL_MS = '60000';
/** how long a test waits for a message (a third of the poll) */
const WAIT_MS = 20_000;

async function waitFor(receiver: Receiver, path: string): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  const count = () => receiver.received.filter((entry) => entry.path === path).length;
  while (count() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return count();
}

async function createAlert(base: string, key: string, name: string, url: string): Promise<void> {
  const created = await fetch(`${base}/api/v1/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, trigger: { type: 'page_viewed', path: '/pricing*' }, destination: { type: 'slack', url } }),
  });
  expect(created.status).toBe(201);
}

describe.each(storeKinds())('delivery workers woken by a commit on %s (C8.5, C10.3)', (kind) => {
  let db: TestDatabase;
  let services: Services;
  let receiver: Receiver;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
    receiver = await startReceiver();
    server = await startServerProcess({ DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: POLL_MS, INTELLIGENCE_WORKER: '0' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await db?.destroy();
  });

  it('C10.3: an alert fired by an event the process took is delivered before its first poll', async () => {
    const workspace = await services.workspaces.create('Wake alerts');
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const siteKey = (await services.siteKeys.create(workspace.id, 'site', [])).key;
    await createAlert(server.url, key, 'Pricing', `${receiver.url}/slack-wake`);
    const visitor = randomUUID();
    const sent = await postEvents(server.url, siteKey, [identify(visitor, { email: 'wake@example.com', name: 'Wanda Wake' }), pageView(visitor, '/pricing')]);
    expect(sent.status).toBe(202);
    expect(await waitFor(receiver, '/slack-wake')).toBe(1);
    expect(receiver.received.find((entry) => entry.path === '/slack-wake')?.body).toContain('Wanda Wake');
  }, 60_000);

  it('C8.5: a webhook event written with a lead is delivered before the first poll', async () => {
    const workspace = await services.workspaces.create('Wake webhooks');
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const hook = await fetch(`${server.url}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver.url}/hook-wake`, events: ['lead.created'] }) });
    expect(hook.status).toBe(201);
    const created = await fetch(`${server.url}/api/v1/leads`, { method: 'POST', headers, body: JSON.stringify({ code: 'woken' }) });
    expect(created.status).toBe(201);
    expect(await waitFor(receiver, '/hook-wake')).toBe(1);
    expect(receiver.received.find((entry) => entry.path === '/hook-wake')?.body).toContain('"code":"woken"');
  }, 60_000);
});

describe.runIf(postgresUrl() !== undefined && redisUrl() !== undefined)('delivery workers woken by another process over Redis (PostgreSQL)', () => {
  let db: TestDatabase;
  let services: Services;
  let receiver: Receiver;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    services = createServices(new Store(db.database));
    receiver = await startReceiver();
    server = await startServerProcess({
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl() as string,
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: POLL_MS,
      INTELLIGENCE_WORKER: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await db?.destroy();
  });

  it('C10.3: a firing committed by a process without workers is delivered by the server before its first poll', async () => {
    const workspace = await services.workspaces.create('Wake across processes');
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const siteKey = (await services.siteKeys.create(workspace.id, 'site', [])).key;
    await createAlert(server.url, key, 'Pricing elsewhere', `${receiver.url}/slack-relay`);
    // this process relays its commits' hints as a server does (server.ts); it runs no delivery worker
    const relay = relayOutboxHints(redisUrl(), db.database.commits);
    try {
      expect(await relay.ready(10_000)).toBe(true);
      const visitor = randomUUID();
      const counts = await services.ingest.receive(
        workspace.id as WorkspaceId,
        { key: siteKey, events: [identify(visitor, { email: 'relay@example.com', name: 'Remy Relay' }), pageView(visitor, '/pricing')] },
        { receivedAt: Date.now(), address: '203.0.113.9', userAgent: BROWSER_UA },
      );
      expect(counts.accepted).toBe(2);
      expect(await waitFor(receiver, '/slack-relay')).toBe(1);
      expect(receiver.received.find((entry) => entry.path === '/slack-relay')?.body).toContain('Remy Relay');
    } finally {
      await relay.close();
    }
  }, 60_000);
});
