/**
 * What lead intelligence costs per event (issue 12, BENCHMARKS.md "Lead
 * intelligence"): a small, bounded, in-process measurement on SQLite (the
 * slower store for ingestion). A workspace with 100 rule segments receives
 * batches of 25 events from 2,000 visitors through the ingestion service
 * (the events endpoint's path without HTTP), 8 batches at a time; then the
 * worker refreshes every visitor marked due (scores, personalities,
 * segments). Reported: µs per event of ingestion, and of the worker's round
 * with 100 and with 0 rule segments.
 *
 *   npx tsx bench/intelligence.ts            (this tree)
 *   ROOT=/path/to/other/tree npx tsx …      (ingestion of another tree, for a before/after)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const root = process.env.ROOT ?? path.resolve(import.meta.dirname, '..');
const { openDatabase } = await import(path.join(root, 'src/db/database.ts'));
const { Store } = await import(path.join(root, 'src/repositories/index.ts'));
const { createServices } = await import(path.join(root, 'src/services/index.ts'));

const VISITORS = Number(process.env.VISITORS ?? 2_000);
const EVENTS_PER_BATCH = 25;
const CONCURRENT = 8;
const SEGMENTS = Number(process.env.SEGMENTS ?? 100);
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const PATHS = ['/', '/pricing', '/docs/start', '/blog/post', '/security', '/compare/a-vs-b', '/careers', '/features'];

function batchOf(visitor: number, at: number): Record<string, unknown>[] {
  const id = `00000000-0000-4000-8000-${String(visitor).padStart(12, '0')}`;
  const events: Record<string, unknown>[] = [];
  for (let index = 0; index < EVENTS_PER_BATCH - 2; index += 1) {
    events.push({ id: randomUUID(), type: 'page', visitor_id: id, url: `https://bench.example${PATHS[(visitor + index) % PATHS.length]}`, ts: new Date(at + index * 1000).toISOString() });
  }
  events.push({ id: randomUUID(), type: 'identify', visitor_id: id, traits: { email: `p${visitor}@company${visitor % 300}.com`, plan: visitor % 2 ? 'pro' : 'free' }, ts: new Date(at + 30_000).toISOString() });
  events.push({ id: randomUUID(), type: 'conversion', visitor_id: id, name: 'Signed up', ts: new Date(at + 31_000).toISOString() });
  return events;
}

function rule(index: number): Record<string, unknown> {
  switch (index % 4) {
    case 0:
      return { all: [{ events: { kind: 'pricing', at_least: 1 + (index % 5), within_days: 7 } }] };
    case 1:
      return { all: [{ field: 'trait.plan', op: 'eq', value: 'pro' }, { field: 'score', op: 'gte', value: index % 60 }] };
    case 2:
      return { any: [{ field: 'email', op: 'ends_with', value: `@company${index}.com` }, { field: 'company.employees', op: 'in', value: ['51-200'] }] };
    default:
      return { all: [{ events: { kind: 'page_view', path: '/docs*', at_least: 1, within_days: 30 } }] };
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-bench-intelligence-'));
const database = openDatabase({ kind: 'sqlite', filename: path.join(dir, 'bench.db') });
await database.migrate();
const store = new Store(database);
const services = createServices(store, {});
const workspace = await services.workspaces.create('Bench intelligence');
const tenant = services.forWorkspace(workspace.id);
if (tenant.lists.create !== undefined) {
  for (let index = 0; index < SEGMENTS; index += 1) await tenant.lists.create({ name: `Segment ${index}`, rule: rule(index) });
}

const start = Date.now() - 3_600_000;
let next = 0;
let accepted = 0;
const ingestStarted = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: CONCURRENT }, async () => {
    for (let visitor = next++; visitor < VISITORS; visitor = next++) {
      const counts = await services.ingest.ingest(workspace.id, batchOf(visitor, start), { receivedAt: Date.now(), address: '24.48.0.1', userAgent: USER_AGENT });
      accepted += counts.accepted;
    }
  }),
);
const ingestMicros = Number(process.hrtime.bigint() - ingestStarted) / 1000;
const result: Record<string, unknown> = {
  root,
  events: accepted,
  segments: SEGMENTS,
  ingest_events_per_s: Math.round(accepted / (ingestMicros / 1e6)),
  ingest_us_per_event: Number((ingestMicros / accepted).toFixed(1)),
};
if (services.intelligence !== undefined) {
  const workerStarted = process.hrtime.bigint();
  const refreshed = await services.intelligence.runWorkspace(workspace.id);
  const workerMicros = Number(process.hrtime.bigint() - workerStarted) / 1000;
  Object.assign(result, {
    visitors_refreshed: refreshed,
    worker_us_per_event: Number((workerMicros / accepted).toFixed(1)),
    worker_ms_per_visitor: Number((workerMicros / 1000 / refreshed).toFixed(2)),
  });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
