/**
 * A 202 is durable (CONTRACT C5.3, C2.4): a real server answers batches from
 * many visitors at once and is killed with SIGKILL right after; every event
 * it acknowledged is in the log when the store is opened again, and the
 * identities, activity and leads they derive are there and served by the
 * next server.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { startServerProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { conversion, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const VISITORS = 40;

describe.each(storeKinds())('durability of tracked events on %s', (kind) => {
  let db: TestDatabase;
  let services: Services;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
  });
  afterAll(async () => db?.destroy());

  it('C5.3, C2.4: events acknowledged before a SIGKILL are all there afterwards, and what they derive appears', async () => {
    const workspace = await services.workspaces.create('Durable tracking');
    const { key } = await services.siteKeys.create(workspace.id);
    const apiKey = (await services.apiKeys.create(workspace.id, 'production')).key;
    const server = await startServerProcess({ DATABASE_URL: db.url });
    const acknowledged = new Map<string, { events: Event[]; email: string }>();
    await Promise.all(
      Array.from({ length: VISITORS }, async (_, index) => {
        const visitor = randomUUID();
        const email = `durable-${index}@example.com`;
        const events = [pageView(visitor, '/'), pageView(visitor, '/pricing'), identify(visitor, { email }), conversion(visitor, 'Signed up', { code: `durable-${index}` })];
        const answer = await postEvents(server.url, key, events);
        if (answer.status === 202 && (answer.body.data as { accepted: number }).accepted === events.length) acknowledged.set(visitor, { events, email });
      }),
    );
    await server.stop('SIGKILL');
    expect(acknowledged.size).toBe(VISITORS);

    const reopened = openDatabase(kind === 'sqlite' ? { kind, filename: db.url } : { kind, url: db.url, poolSize: 1 });
    try {
      const after = new Store(reopened).forWorkspace(workspace.id as WorkspaceId);
      for (const [visitor, { events }] of acknowledged) {
        const logged = await after.repos.events.forVisitor(visitor, '2000-01-01T00:00:00.000Z', 100);
        expect(logged.map((event) => event.id).sort()).toEqual(events.map((event) => event.id as string).sort());
      }
    } finally {
      await reopened.close();
    }

    const restarted = await startServerProcess({ DATABASE_URL: db.url });
    try {
      const get = async (path: string) =>
        (await (await fetch(`${restarted.url}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
          data: Record<string, unknown>[];
          pagination: { total: number };
        };
      expect((await get('/identities?limit=1')).pagination.total).toBe(VISITORS);
      expect((await get('/leads?limit=1')).pagination.total).toBe(VISITORS);
      for (const [visitor, { email }] of acknowledged) {
        const [identity] = (await get(`/identities?email=${email}`)).data;
        expect(identity?.visitor_id).toBe(visitor);
        expect((await get(`/identities/${String(identity!.id)}/activity`)).pagination.total).toBe(4);
      }
    } finally {
      await restarted.stop();
    }
  });
});
