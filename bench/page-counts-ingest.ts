/**
 * What the overview's page counters (page_counts, migration 0007) cost at
 * ingest: in process, no HTTP, 32 batches of 50 page views in flight over 8
 * pages of one host (the ingest bench's pages, so every batch bumps the same
 * rows: the worst case for PostgreSQL's row locks), it reports the mean time
 * a batch spent in PageCountsRepository.add and its share of the batch's
 * time. `off` makes add() a no-op, for a throughput comparison on a quiet
 * machine. Needs TEST_POSTGRES_URL for PostgreSQL (BENCHMARKS.md).
 *
 *   npx tsx bench/page-counts-ingest.ts sqlite,postgres 600 on,on
 */
import { randomUUID } from 'node:crypto';
import { Store } from '../src/repositories/index.js';
import { PageCountsRepository } from '../src/repositories/tenant/page-counts.repository.js';
import { createServices } from '../src/services/index.js';
import { openDatabase } from '../src/db/database.js';
import { createEmptyDatabase } from '../test/helpers/stores.js';
import { BROWSER_UA } from '../test/helpers/tracking.js';

const PATHS = ['/', '/pricing', '/features', '/docs/getting-started', '/docs/api', '/blog/lead-scoring-101', '/customers', '/careers'];
const original = PageCountsRepository.prototype.add;
const noop = async () => {};
let inAdd = 0;
let inBatches = 0;
const timed = async function (this: PageCountsRepository, ...args: Parameters<typeof original>) {
  const t0 = performance.now();
  try { return await original.apply(this, args); } finally { inAdd += performance.now() - t0; }
};
const kinds = (process.argv[2] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const BATCHES = Number(process.argv[3] ?? 300);
const CONCURRENCY = 32;

for (const kind of kinds) {
  for (const mode of (process.argv[4] ?? 'off,on,off,on').split(',')) {
    PageCountsRepository.prototype.add = mode === 'on' ? timed : noop;
    inAdd = 0; inBatches = 0;
    const empty = await createEmptyDatabase(kind);
    const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
    await database.migrate();
    const db = { database, destroy: async () => { await database.close(); await empty.drop(); } };
    const store = new Store(db.database);
    const services = createServices(store, { tracking: { geoipDatabase: 'off' } });
    const ws = await services.workspaces.create('bench');
    const visitors = Array.from({ length: 2000 }, () => ({ id: randomUUID(), last: 0, batches: 0 }));
    let next = 0;
    let events = 0;
    const start = performance.now();
    const worker = async () => {
      while (next < BATCHES) {
        next += 1;
        const visitor = visitors[Math.floor(Math.random() * visitors.length)]!;
        const t0 = Math.max(Date.now() - 1000, visitor.last + 1);
        const batch = Array.from({ length: 50 }, (_, index) => ({
          id: randomUUID(), type: 'page', visitor_id: visitor.id, ts: new Date(t0 + index * 20).toISOString(),
          url: `https://www.bench.example${PATHS[(visitor.batches + index) % PATHS.length]}`, title: 'Bench page',
        }));
        visitor.last = t0 + 1000;
        visitor.batches += 1;
        const b0 = performance.now();
        const counts = await services.ingest.receive(ws.id, { key: 'x', events: batch }, { receivedAt: Date.now(), address: '203.0.113.5', userAgent: BROWSER_UA });
        inBatches += performance.now() - b0;
        events += counts.accepted;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - start) / 1000;
    const today = new Date().toISOString().slice(0, 10);
    const top = await store.forWorkspace(ws.id).repos.pageCounts.top(today, today, 10);
    process.stdout.write(`${[kind, 'page counters', mode, Math.round(events / seconds), 'events/s', events, 'events', 'counted', top.reduce((sum, page) => sum + page.views, 0), 'mean batch ms', (inBatches / BATCHES).toFixed(1), 'mean add ms', (inAdd / BATCHES).toFixed(2), 'share', ((100 * inAdd) / inBatches).toFixed(1) + '%'].join(' ')}\n`);
    await db.destroy();
  }
}
