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
 * `--search-leads 1000000`), each search on indexed fields runs 100 times
 * (median and p99), the others 5 times, each export once.
 *
 * The export's body is read by a child process, so that the RSS sampled
 * here (every 50 ms) is the server's alone: the reading client's buffers
 * and garbage are not counted against the export. The V8 heap's peak growth
 * is sampled with it: RSS only grows where the heap outgrows what earlier
 * work left reserved, so the heap says what the export itself piled up.
 */
import { spawn } from 'node:child_process';
import { CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Schema } from '../../src/db/schema.js';
import { Store } from '../../src/repositories/index.js';
import type { NewLead } from '../../src/repositories/tenant/leads.repository.js';
import { searchWhere, sortExpression } from '../../src/repositories/tenant/search-filter.js';
import { asLeadFilters } from '../../src/repositories/tenant/search-lead-totals.js';
import { parseSearch } from '../../src/services/tenant/record-search/search-query.js';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import type { Log, StoreKind } from './data.js';
import { moduleStore } from './module-store.js';

const SOURCES = ['ads', 'blog', 'web', 'partner', 'event', 'referral', 'email', 'social', 'direct', 'pricing-page'];
const PLANS = ['free', 'team', 'pro', 'enterprise'];
/** runs of a search that reads every row (JSON paths, contains, OR with one) */
const RUNS = 5;
/** runs of a search on indexed fields, after WARM_UP runs: enough for a p99 */
const INDEXED_RUNS = 100;
const WARM_UP = 3;
/** how many of `searches` are on indexed fields (the first ones) */
const INDEXED_SEARCHES = 4;

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

/** The median of 5 runs of a count statement: what the total cost before it came from the counters. */
async function rowCountMs(query: SelectQueryBuilder<Schema, 'leads', object>): Promise<string> {
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const at = performance.now();
    await query.execute();
    times.push(performance.now() - at);
  }
  return times.sort((a, b) => a - b)[2]!.toFixed(0);
}

/** The count and the first page a search runs (record-search.repository.ts), explained. */
async function plans(t: TestApp, workspaceId: WorkspaceId, body: Record<string, unknown>): Promise<string> {
  const { db, codec, kind } = t.db.database;
  const query = parseSearch('leads', body);
  const all = db.selectFrom('leads').where('workspace_id', '=', workspaceId);
  const matching = query.groups.length === 0 ? all : all.where((eb) => searchWhere(eb as never, codec, query.groups));
  const count = matching.select((eb) => eb.fn.countAll().as('total'));
  const page = matching.select('id').orderBy(sortExpression(query.sort), query.sort.order).orderBy('id', query.sort.order).limit(query.limit + 1);
  // the list's filters are totalled from lead_counts' day counters (search-lead-totals.ts)
  const counters = asLeadFilters(query.groups) !== undefined;
  const counted = counters ? `lead_counts days (the list's total; counting the rows instead: ${await rowCountMs(count as never)} ms)` : await plan(db, kind, count as never);
  return `count: ${counted} / page: ${await plan(db, kind, page as never)}`;
}

/** the export's reader: counts the body's bytes and line breaks, answers them as JSON on stdout */
const READER = `
const [url, authorization] = process.argv.slice(1);
fetch(url, { headers: { authorization } }).then(async (response) => {
  if (response.status !== 200 || response.body === null) throw new Error('export answered ' + response.status);
  let bytes = 0;
  let lines = 0;
  for await (const value of response.body) {
    bytes += value.length;
    for (let index = value.indexOf(10); index !== -1; index = value.indexOf(10, index + 1)) lines += 1;
  }
  process.stdout.write(JSON.stringify({ bytes, lines }));
});
`;

function readExport(url: string, authorization: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', READER, url, authorization], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { bytes: number; lines: number }) : reject(new Error(`export reader exited with ${code}`))));
  });
}

async function exportRun(base: string, headers: Record<string, string>, format: string): Promise<string> {
  global.gc?.();
  const before = process.memoryUsage();
  let peak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 50);
  const at = performance.now();
  const { bytes, lines } = await readExport(`${base}/api/v1/leads/export?format=${format}`, headers.authorization!);
  const seconds = (performance.now() - at) / 1000;
  clearInterval(sampler);
  const rows = format === 'csv' ? lines - 1 : lines;
  const mb = (value: number) => (value / 1e6).toFixed(0);
  const rss = `${mb(before.rss)} → ${mb(peak)} MB (+${mb(peak - before.rss)} MB)`;
  return `| ${format} | ${rows} | ${seconds.toFixed(1)} s | ${Math.round(rows / seconds)} | ${mb(bytes)} MB | ${rss} | +${mb(heapPeak - before.heapUsed)} MB |`;
}

/** The nearest-rank percentile of sorted times. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

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
    lines.push(`### search-export, ${kind}, ${leads} leads`, '', '| search | total | runs | median | p99 | CPU median (server and client, one process) | plan (count / page) |', '|---|---:|---:|---:|---:|---:|---|');
    for (const [index, [label, body]] of searches(leads).entries()) {
      const indexed = index < INDEXED_SEARCHES;
      const runs = indexed ? INDEXED_RUNS : RUNS;
      const times: number[] = [];
      const cpu: number[] = [];
      let total = 0;
      for (let run = 0; run < runs + (indexed ? WARM_UP : 0); run += 1) {
        const at = performance.now();
        const cpuAt = process.cpuUsage();
        const response = await fetch(`${base}/api/v1/leads/search`, { method: 'POST', headers, body: JSON.stringify(body) });
        if (response.status !== 200) throw new Error(`search "${label}" answered ${response.status}`);
        total = ((await response.json()) as { pagination: { total: number } }).pagination.total;
        const used = process.cpuUsage(cpuAt);
        if (!indexed || run >= WARM_UP) {
          times.push(performance.now() - at);
          cpu.push((used.user + used.system) / 1000);
        }
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const p99 = indexed ? `${percentile(times, 99).toFixed(0)} ms` : '—';
      const row = `| ${label} | ${total} | ${runs} | ${percentile(times, 50).toFixed(0)} ms | ${p99} | ${percentile(cpu, 50).toFixed(1)} ms | ${await plans(t, ws.id, body)} |`;
      lines.push(row);
      log(`${tag} ${row}`);
    }
    lines.push('', '| export | rows | time | rows/s | body | RSS (whole process) | heap used, peak growth |', '|---|---:|---:|---:|---:|---|---:|');
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
