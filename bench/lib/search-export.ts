/**
 * The `search-export` module of `npm run bench` (C11.3, C11.5; BENCHMARKS.md
 * "Search and export on a million leads"): one workspace of N leads (10
 * sources, 4 plans in `properties.plan`, `summary.score` 0–100, created over
 * a year) written through the leads repository's bulk insert, the server in
 * this process answering over real HTTP on loopback. Reported: each search's
 * median of 5 (first page of 50 with the exact total) with the plans the
 * store chose for its count and its page (the statements the repository
 * builds, explained), then each export format's rows per second and RSS
 * growth. Bounded: N is `--search-leads` (the million is
 * `--search-leads 1000000`), each search runs 5 times, each export once.
 */
import { CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Schema } from '../../src/db/schema.js';
import { Store } from '../../src/repositories/index.js';
import type { NewLead } from '../../src/repositories/tenant/leads.repository.js';
import { searchWhere, sortExpression } from '../../src/repositories/tenant/search-filter.js';
import { parseSearch } from '../../src/services/tenant/record-search/search-query.js';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import type { Log, StoreKind } from './data.js';
import { moduleStore } from './module-store.js';

const SOURCES = ['ads', 'blog', 'web', 'partner', 'event', 'referral', 'email', 'social', 'direct', 'pricing-page'];
const PLANS = ['free', 'team', 'pro', 'enterprise'];
const RUNS = 5;

const where = (...all: unknown[]) => ({ filter: { any: [{ all }] } });
const searches = (leads: number): [string, Record<string, unknown>][] => [
  ['no filter, newest first', {}],
  ['source eq (indexed column)', where({ field: 'source', op: 'eq', value: 'ads' })],
  ['code eq, one row (indexed column)', where({ field: 'code', op: 'eq', value: `L-${Math.floor(leads / 2)}` })],
  ['created_at range, 1 day', where({ field: 'created_at', op: 'gte', value: '2025-06-01' }, { field: 'created_at', op: 'lt', value: '2025-06-02' })],
  ['summary.score gte 99 (JSON path)', where({ field: 'summary.score', op: 'gte', value: 99 })],
  ['properties.plan eq (JSON path)', where({ field: 'properties.plan', op: 'eq', value: 'enterprise' })],
  ['source contains (substring)', where({ field: 'source', op: 'contains', value: 'PRICING' })],
  [
    '2 groups: source eq, or score gte 99 and plan',
    {
      filter: {
        any: [
          { all: [{ field: 'source', op: 'eq', value: 'ads' }] },
          { all: [{ field: 'summary.score', op: 'gte', value: 99 }, { field: 'properties.plan', op: 'eq', value: 'pro' }] },
        ],
      },
    },
  ],
];

async function load(t: TestApp, workspaceId: WorkspaceId, leads: number): Promise<void> {
  const repos = new Store(t.db.database).forWorkspace(workspaceId);
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  for (let done = 0; done < leads; done += 10_000) {
    const batch: NewLead[] = [];
    for (let i = done; i < Math.min(leads, done + 10_000); i += 1) {
      const at = new Date(start + Math.floor((i * 365 * 86_400_000) / leads)).toISOString();
      batch.push({
        id: crypto.randomUUID(),
        visitor_id: crypto.randomUUID(),
        code: `L-${i}`,
        source: SOURCES[i % SOURCES.length]!,
        created_at: at,
        updated_at: at,
        properties: { plan: PLANS[i % 4]!, seats: i % 50 },
        location: {},
        identity_id: null,
        session_id: null,
        summary: { score: i % 101 },
        company_id: null,
      });
    }
    await repos.bulkTransaction((r) => r.leads.insertMany(batch));
  }
}

/** The plan the store chooses for a statement, one line per step. */
async function plan(db: Kysely<Schema>, kind: StoreKind, query: SelectQueryBuilder<Schema, 'leads', object>): Promise<string> {
  const compiled = query.compile();
  const prefix = kind === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]));
  if (kind === 'sqlite') return result.rows.map((row) => String(row.detail)).join('; ');
  // PostgreSQL: the plan's nodes, without their costs and conditions
  const nodes = result.rows.map((row) => String(row['QUERY PLAN']).trim().replace(/^->\s*/, '').replace(/\s*\(cost=[^)]*\)/, ''));
  return nodes.filter((node) => !/^(Filter|Recheck Cond|Index Cond|Sort Key|Group Key|Workers|JIT|Functions|Options)\b/.test(node)).join(' → ');
}

/** The count and the first page a search runs (record-search.repository.ts), explained. */
async function plans(t: TestApp, workspaceId: WorkspaceId, body: Record<string, unknown>): Promise<string> {
  const { db, codec, kind } = t.db.database;
  const query = parseSearch('leads', body);
  const all = db.selectFrom('leads').where('workspace_id', '=', workspaceId);
  const matching = query.groups.length === 0 ? all : all.where((eb) => searchWhere(eb as never, codec, query.groups));
  const count = matching.select((eb) => eb.fn.countAll().as('total'));
  const page = matching.select('id').orderBy(sortExpression(query.sort), query.sort.order).orderBy('id', query.sort.order).limit(query.limit + 1);
  return `count: ${await plan(db, kind, count as never)} / page: ${await plan(db, kind, page as never)}`;
}

async function exportRun(base: string, headers: Record<string, string>, format: string): Promise<string> {
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const at = performance.now();
  const response = await fetch(`${base}/api/v1/leads/export?format=${format}`, { headers });
  if (response.status !== 200 || response.body === null) throw new Error(`export ${format} answered ${response.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - at) / 1000;
  clearInterval(sampler);
  const rows = format === 'csv' ? lines - 1 : lines;
  const mb = (value: number) => (value / 1e6).toFixed(0);
  return `| ${format} | ${rows} | ${seconds.toFixed(1)} s | ${Math.round(rows / seconds)} | ${mb(bytes)} MB | ${mb(rssBefore)} → ${mb(peak)} MB (+${mb(peak - rssBefore)} MB) |`;
}

/** Answers the report's lines: the searches' table, then the exports'. */
export async function benchSearchExport(kind: StoreKind, leads: number, log: Log): Promise<string[]> {
  const tag = `[${kind}/search-export]`;
  const db = await moduleStore(kind);
  const t = await createTestApp(kind, { db });
  const lines: string[] = [];
  try {
    const ws = await t.createWorkspace('Bench');
    const base = await t.listen();
    const began = performance.now();
    await load(t, ws.id, leads);
    // as autovacuum leaves a table that has settled: statistics, and the visibility map index-only scans need
    if (kind === 'postgres') await t.db.database.db.executeQuery(CompiledQuery.raw('vacuum analyze leads'));
    log(`${tag} loaded ${leads} leads in ${((performance.now() - began) / 1000).toFixed(0)} s`);
    const headers = { authorization: `Bearer ${ws.production.key}`, 'content-type': 'application/json' };
    lines.push(`### search-export, ${kind}, ${leads} leads`, '', '| search | total | median | plan (count / page) |', '|---|---:|---:|---|');
    for (const [label, body] of searches(leads)) {
      const times: number[] = [];
      let total = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const at = performance.now();
        const response = await fetch(`${base}/api/v1/leads/search`, { method: 'POST', headers, body: JSON.stringify(body) });
        if (response.status !== 200) throw new Error(`search "${label}" answered ${response.status}`);
        total = ((await response.json()) as { pagination: { total: number } }).pagination.total;
        times.push(performance.now() - at);
      }
      times.sort((a, b) => a - b);
      const row = `| ${label} | ${total} | ${times[Math.floor(RUNS / 2)]!.toFixed(0)} ms | ${await plans(t, ws.id, body)} |`;
      lines.push(row);
      log(`${tag} ${row}`);
    }
    lines.push('', '| export | rows | time | rows/s | body | RSS (whole process) |', '|---|---:|---:|---:|---:|---|');
    for (const format of ['ndjson', 'csv']) {
      const row = await exportRun(base, headers, format);
      lines.push(row);
      log(`${tag} ${row}`);
    }
  } finally {
    await t.close();
    await db.destroy();
  }
  return [...lines, ''];
}
