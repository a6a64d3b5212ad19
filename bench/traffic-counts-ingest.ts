/**
 * What the overview's counters cost at ingest (C9.5; BENCHMARKS.md "The
 * overview's traffic"): in process, no HTTP, one batch at a time (so the
 * process's CPU time is the batch's), BATCHES batches of 50 page views from
 * 10 visitors of a pool of 5,000 (new sessions and growing ones, 8 pages, 5
 * referrers) through the ingest service. Reports the process's CPU per
 * event, and the CPU spent in the two counter upserts (traffic_counts,
 * page_counts) per batch. Run it on two trees alternately to compare.
 * Needs TEST_POSTGRES_URL for PostgreSQL (whose CPU is in its server: only
 * the client's is counted).
 *
 *   npx tsx bench/traffic-counts-ingest.ts sqlite 600
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { PageCountsRepository } from '../src/repositories/tenant/page-counts.repository.js';
import { TrafficCountsRepository } from '../src/repositories/tenant/traffic-counts.repository.js';
import { createServices } from '../src/services/index.js';
import { createEmptyDatabase } from '../test/helpers/stores.js';
import { BROWSER_UA } from '../test/helpers/tracking.js';

const PATHS = ['/', '/pricing', '/features', '/docs/getting-started', '/docs/api', '/blog/lead-scoring-101', '/customers', '/careers'];
const REFERRERS = ['https://www.google.com/', 'https://news.ycombinator.com/', 'https://www.linkedin.com/', 'https://t.co/x', ''];
const kinds = (process.argv[2] ?? 'sqlite').split(',') as ('sqlite' | 'postgres')[];
const BATCHES = Number(process.argv[3] ?? 600);

let inCounters = 0;
for (const [type, method] of [
  [TrafficCountsRepository, 'add'],
  [PageCountsRepository, 'add'],
] as const) {
  const original = type.prototype[method] as (...args: unknown[]) => Promise<void>;
  (type.prototype as unknown as Record<string, unknown>)[method] = async function (this: unknown, ...args: unknown[]) {
    const c0 = process.cpuUsage();
    try {
      return await original.apply(this, args);
    } finally {
      const used = process.cpuUsage(c0);
      inCounters += used.user + used.system;
    }
  };
}

for (const kind of kinds) {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  try {
    await database.migrate();
    const services = createServices(new Store(database), { tracking: { geoipDatabase: 'off' } });
    const workspace = await services.workspaces.create('bench');
    const visitors = Array.from({ length: 5000 }, (_, index) => ({ id: randomUUID(), last: 0, pages: 0, referrer: REFERRERS[index % REFERRERS.length]! }));
    const batch = () =>
      Array.from({ length: 10 }, () => visitors[Math.floor(Math.random() * visitors.length)]!).flatMap((visitor) => {
        const t0 = Math.max(Date.now() - 1000, visitor.last + 1);
        visitor.last = t0 + 100;
        return Array.from({ length: 5 }, (_, index) => {
          visitor.pages += 1;
          return {
            id: randomUUID(),
            type: 'page',
            visitor_id: visitor.id,
            ts: new Date(t0 + index * 20).toISOString(),
            url: `https://www.bench.example${PATHS[visitor.pages % PATHS.length]}`,
            ...(visitor.referrer === '' ? {} : { referrer: visitor.referrer }),
          };
        });
      });
    const run = async (batches: number) => {
      let events = 0;
      for (let index = 0; index < batches; index += 1) {
        const counts = await services.ingest.receive(workspace.id, { key: 'x', events: batch() }, { receivedAt: Date.now(), address: '203.0.113.5', userAgent: BROWSER_UA });
        events += counts.accepted;
      }
      return events;
    };
    await run(50);
    inCounters = 0;
    const c0 = process.cpuUsage();
    const events = await run(BATCHES);
    const used = process.cpuUsage(c0);
    const perEvent = (used.user + used.system) / events;
    process.stdout.write(
      `${kind}: ${events} events, ${perEvent.toFixed(1)} µs CPU per event, counters ${(inCounters / BATCHES).toFixed(0)} µs CPU per batch of 50 (${((100 * inCounters) / (used.user + used.system)).toFixed(1)} %), load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
  } finally {
    await database.close();
    await empty.drop();
  }
}
