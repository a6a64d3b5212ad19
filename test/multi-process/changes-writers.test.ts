/**
 * The changes feed under writers on several real API processes over one
 * database (CONTRACT C11.1), on both stores: three processes create leads
 * at once, several requests at a time each, while a reader polls the feed
 * from its cursor through whichever process comes next; at the end it has
 * seen every change exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';

const PROCESSES = 3;
const PER_PROCESS = 40;
const PARALLEL = 4;

describe.each(storeKinds())('changes feed with writers on three processes (%s)', (kind) => {
  let db: TestDatabase;
  let servers: ServerProcess[] = [];
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Feed writers');
    key = (await services.apiKeys.create(workspace.id, 'production', 'writers')).key;
    const env = { DATABASE_URL: db.url, RATE_LIMIT_PRODUCTION: '1000000' };
    servers = await Promise.all(Array.from({ length: PROCESSES }, () => startServerProcess(env)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.destroy();
  });

  const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  /** Follows the feed from `url` to its last page (through `server`); answers the lead ids and the poll link. */
  async function drain(server: ServerProcess, url: string): Promise<{ ids: string[]; poll: string }> {
    const ids: string[] = [];
    let next: string | undefined = url.replace(/^http:\/\/[^/]+/, server.url);
    for (;;) {
      const response = await fetch(next, { headers: headers() });
      expect(response.status).toBe(200);
      ids.push(...((await response.json()) as { data: { data: { id: string } }[] }).data.map((event) => event.data.id));
      const link = response.headers.get('link') ?? '';
      const found = /<([^>]+)>; rel="(next|poll)"/.exec(link)!;
      if (found[2] === 'poll') return { ids, poll: found[1]! };
      next = found[1]!.replace(/^http:\/\/[^/]+/, server.url);
    }
  }

  it('C11.1: a reader polling from its cursor sees every change of every process exactly once', async () => {
    let cursor = (await drain(servers[0]!, `${servers[0]!.url}/api/v1/changes?types=lead.created&limit=10`)).poll;
    const seen: string[] = [];
    let writing = true;
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const page = await drain(servers[reads++ % PROCESSES]!, cursor);
        seen.push(...page.ids);
        cursor = page.poll;
      }
    })();
    const written: string[] = [];
    await Promise.all(
      servers.flatMap((server, process) =>
        Array.from({ length: PARALLEL }, async (_, lane) => {
          for (let i = lane; i < PER_PROCESS; i += PARALLEL) {
            const response = await fetch(`${server.url}/api/v1/leads`, { method: 'POST', headers: headers(), body: JSON.stringify({ code: `p${process}-${i}` }) });
            expect(response.status).toBe(201);
            written.push(((await response.json()) as { data: { id: string } }).data.id);
          }
        }),
      ),
    );
    writing = false;
    await reader;
    const deadline = Date.now() + 15_000;
    while (seen.length < written.length && Date.now() < deadline) {
      const page = await drain(servers[reads++ % PROCESSES]!, cursor);
      seen.push(...page.ids);
      cursor = page.poll;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(written).toHaveLength(PROCESSES * PER_PROCESS);
    expect(seen).toHaveLength(written.length);
    expect(new Set(seen)).toEqual(new Set(written));
    expect(reads).toBeGreaterThan(PROCESSES);
  }, 120_000);
});
