/**
 * Acknowledged writes survive a crash (CONTRACT C2.4): a server process that
 * answered 201 and 200 is killed with SIGKILL at once, and the data is there
 * when the store is opened again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices, type Services } from '../src/services/index.js';
import { startServerProcess } from './helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from './helpers/stores.js';

describe.each(storeKinds())('durability on %s', (kind) => {
  let db: TestDatabase;
  let services: Services;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
  });
  afterAll(async () => db?.destroy());

  it('C2.4: writes acknowledged before a SIGKILL are all there afterwards', async () => {
    const workspace = await services.workspaces.create('Durable');
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const server = await startServerProcess({ DATABASE_URL: db.url });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const response = await fetch(`${server.url}/api/v1/leads`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ code: `durable-${index}` }),
        });
        if (response.status === 201) acknowledged.push(((await response.json()) as { data: { id: string } }).data.id);
      }),
    );
    const patched = await fetch(`${server.url}/api/v1/leads/${acknowledged[0]}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ properties: { survived: true } }),
    });
    expect(patched.status).toBe(200);
    await server.stop('SIGKILL');

    expect(acknowledged).toHaveLength(20);
    const reopened = openDatabase(kind === 'sqlite' ? { kind, filename: db.url } : { kind, url: db.url, poolSize: 1 });
    try {
      const services = createServices(new Store(reopened));
      const after = services.forWorkspace(await services.workspaces.resolve(workspace.id));
      const listed = await after.leads.list({}, { limit: 100, offset: 0 });
      expect(listed.items.map((lead) => lead.id).sort()).toEqual([...acknowledged].sort());
      // read models keep JSON fields as stored text; JSON.stringify reads through them
      const lead = JSON.parse(JSON.stringify(await after.leads.get(acknowledged[0]!)));
      expect(lead.properties).toEqual({ survived: true });
    } finally {
      await reopened.close();
    }
  });
});
