/**
 * `npx tsx bench/search-export.ts [leads]`: search (C11.3) and export (C11.5)
 * on a workspace of a million leads (SQLite file, written through the leads
 * repository's bulk insert), over real HTTP: the median time of each search
 * with its SQLite query plan (which use an index), and the export's rows per
 * second and RSS growth. Figures go in BENCHMARKS.md.
 */
import { sql } from 'kysely';
import { Store } from '../src/repositories/index.js';
import type { NewLead } from '../src/repositories/tenant/leads.repository.js';
import { createTestApp } from '../test/helpers/app.js';

const LEADS = Number(process.argv[2] ?? 1_000_000);
const log = (line: string) => process.stdout.write(`${line}\n`);
const SOURCES = ['ads', 'blog', 'web', 'partner', 'event', 'referral', 'email', 'social', 'direct', 'pricing-page'];
const PLANS = ['free', 'team', 'pro', 'enterprise'];

const t = await createTestApp('sqlite');
const ws = await t.createWorkspace('Bench');
const base = await t.listen();
const repos = new Store(t.db.database).forWorkspace(ws.id);
const start = Date.parse('2025-01-01T00:00:00.000Z');
const began = Date.now();
for (let done = 0; done < LEADS; done += 10_000) {
  const batch: NewLead[] = [];
  for (let i = done; i < Math.min(LEADS, done + 10_000); i += 1) {
    const at = new Date(start + Math.floor((i * 365 * 86_400_000) / LEADS)).toISOString();
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
log(`loaded ${LEADS} leads in ${((Date.now() - began) / 1000).toFixed(0)} s`);

const headers = { authorization: `Bearer ${ws.production.key}`, 'content-type': 'application/json' };
const where = (...all: unknown[]) => ({ filter: { any: [{ all }] } });
const SEARCHES: [string, unknown, string][] = [
  ['no filter, newest first', {}, ''],
  ['source eq (indexed column)', where({ field: 'source', op: 'eq', value: 'ads' }), `source = 'ads'`],
  ['code eq, one row (indexed column)', where({ field: 'code', op: 'eq', value: 'L-4242' }), `code = 'L-4242'`],
  ['created_at range, 1 day', where({ field: 'created_at', op: 'gte', value: '2025-06-01' }, { field: 'created_at', op: 'lt', value: '2025-06-02' }), `created_at >= '2025-06-01T00:00:00.000Z' and created_at < '2025-06-02T00:00:00.000Z'`],
  ['summary.score gte 99 (JSON path)', where({ field: 'summary.score', op: 'gte', value: 99 }), `coalesce(case when json_type(summary, '$."score"') in ('integer','real') then json_extract(summary, '$."score"') end >= 99, false)`],
  ['properties.plan eq (JSON path)', where({ field: 'properties.plan', op: 'eq', value: 'enterprise' }), `coalesce(case when json_type(properties, '$."plan"') = 'text' then json_extract(properties, '$."plan"') end = 'enterprise', false)`],
  ['source contains (substring)', where({ field: 'source', op: 'contains', value: 'PRICING' }), `lower(source) like '%pricing%' escape '\\'`],
  ['2 groups: source eq, or score gte 99 and plan', { filter: { any: [{ all: [{ field: 'source', op: 'eq', value: 'ads' }] }, { all: [{ field: 'summary.score', op: 'gte', value: 99 }, { field: 'properties.plan', op: 'eq', value: 'pro' }] }] } }, `source = 'ads' or (json_extract(summary, '$."score"') >= 99 and json_extract(properties, '$."plan"') = 'pro')`],
];

const db = t.db.database.db;
const rows: string[] = [];
for (const [label, body, condition] of SEARCHES) {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < 5; run += 1) {
    const at = performance.now();
    const response = await fetch(`${base}/api/v1/leads/search`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await response.json()) as { pagination: { total: number } };
    times.push(performance.now() - at);
    total = json.pagination.total;
  }
  times.sort((a, b) => a - b);
  const filter = condition === '' ? '' : ` and (${condition})`;
  const plan = (
    await sql<{ detail: string }>`explain query plan select count(*) from leads where workspace_id = ${ws.id}${sql.raw(filter)}`.execute(db)
  ).rows.map((row) => row.detail);
  const page = (
    await sql<{ detail: string }>`explain query plan select id from leads where workspace_id = ${ws.id}${sql.raw(filter)} order by created_at desc, id desc limit 51`.execute(db)
  ).rows.map((row) => row.detail);
  const row = `| ${label} | ${total} | ${times[2]!.toFixed(0)} ms | count: ${plan.join('; ')} / page: ${page.join('; ')} |`;
  rows.push(row);
  log(row);
}

for (const format of ['ndjson', 'csv']) {
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const at = performance.now();
  const response = await fetch(`${base}/api/v1/leads/export?format=${format}`, { headers });
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - at) / 1000;
  clearInterval(sampler);
  const exported = format === 'csv' ? lines - 1 : lines;
  log(
    `| export ${format} | ${exported} rows | ${seconds.toFixed(1)} s | ${Math.round(exported / seconds)} rows/s | ${(bytes / 1e6).toFixed(0)} MB | RSS ${(rssBefore / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - rssBefore) / 1e6).toFixed(0)} MB) |`,
  );
}
await t.close();
