/**
 * What the segment builder's server side costs (C9.6; BENCHMARKS.md
 * "Segment builder"): a workspace gets N identities through the import
 * (traits plan and seats, a country, every tenth with a company), and one
 * list gets M members; then the draft count of a few rule shapes, the
 * suggestions and the member count of a page of lists are asked through
 * the services (the endpoints' work without HTTP), the median and the
 * worst of RUNS runs reported. Needs TEST_POSTGRES_URL for PostgreSQL.
 *
 *   npx tsx bench/segment-count.ts [identities=20000] [members=100000] [stores=sqlite,postgres]
 */
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';
import { createEmptyDatabase } from '../test/helpers/stores.js';

const IDENTITIES = Number(process.argv[2] ?? 20_000);
const MEMBERS = Number(process.argv[3] ?? 100_000);
const STORES = (process.argv[4] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const RUNS = 7;
const COUNTRIES = ['NO', 'SE', 'DK', 'DE', 'US', 'GB', 'FR'];
const PLANS = ['free', 'pro', 'team', 'enterprise'];

const jsonl = (rows: Record<string, unknown>[]) => Readable.from([rows.map((row) => JSON.stringify(row)).join('\n')]);

const RULES: [string, unknown][] = [
  ['trait and country', { all: [{ field: 'trait.plan', op: 'eq', value: 'pro' }, { field: 'country', op: 'in', value: ['NO', 'SE'] }] }],
  ['company field, nested any', { all: [{ field: 'email', op: 'contains', value: '@' }, { any: [{ field: 'company.main_industry', op: 'eq', value: 'Software' }, { field: 'trait.seats', op: 'gte', value: 50 }] }] }],
  ['score (computed per person)', { all: [{ field: 'score', op: 'gte', value: 10 }] }],
  ['events with a page pattern (bounded at 2,000 people)', { any: [{ events: { kind: 'page_view', path: '/pricing*', at_least: 1, within_days: 30 } }] }],
];

/** Wall time, and this process's CPU time (user + system: on SQLite all of the work, on PostgreSQL the client's share), per run. */
async function time<T>(work: () => Promise<T>): Promise<{ median: number; worst: number; cpu: number; last: T }> {
  const times: number[] = [];
  const cpus: number[] = [];
  let last: T | undefined;
  for (let run = 0; run < RUNS; run += 1) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    last = await work();
    const used = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpus.push((used.user + used.system) / 1000);
  }
  const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
  return { median: middle(times), worst: Math.max(...times), cpu: middle(cpus), last: last as T };
}

for (const kind of STORES) {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  try {
    await database.migrate();
    const store = new Store(database);
    const services = createServices(store, { tracking: { geoipDatabase: 'off' } });
    const workspace = await services.workspaces.create('segments');
    const imports = services.forWorkspace(workspace.id).imports;
    const loading = performance.now();
    const companies = Array.from({ length: Math.ceil(IDENTITIES / 10) }, (_, index) => ({ id: randomUUID(), name: `Company ${index}`, domain: `c${index}.test`, main_industry: index % 3 === 0 ? 'Software' : 'Retail' }));
    await imports.run('companies', jsonl(companies));
    // the list's other members first: the counted identities are the workspace's newest, as the count walks them
    const extra = Array.from({ length: Math.max(0, MEMBERS - IDENTITIES) }, (_, index) => ({ id: randomUUID(), email: `m${index}@members.test`, created_at: new Date(Date.now() - 86_400_000).toISOString() }));
    for (let start = 0; start < extra.length; start += 20_000) await imports.run('identities', jsonl(extra.slice(start, start + 20_000)));
    const identities = Array.from({ length: IDENTITIES }, (_, index) => ({
      id: randomUUID(),
      email: `p${index}@example.com`,
      country: COUNTRIES[index % COUNTRIES.length],
      traits: { plan: PLANS[index % PLANS.length], seats: index % 200 },
    }));
    for (let start = 0; start < identities.length; start += 20_000) await imports.run('identities', jsonl(identities.slice(start, start + 20_000)));
    const repos = store.forWorkspace(workspace.id).repos;
    for (let index = 0; index < identities.length; index += 10) await repos.identities.setCompany(identities[index]!.id, companies[index / 10]!.id);
    await imports.run('lists', jsonl([{ id: randomUUID(), name: 'Everyone' }]));
    const list = (await repos.lists.list({ limit: 1, offset: 0 })).items[0]!;
    const everyone = [...identities, ...extra].slice(0, MEMBERS);
    for (let start = 0; start < everyone.length; start += 5_000) {
      await repos.listMembers.add(list.id, everyone.slice(start, start + 5_000).map((identity) => ({ identity_id: identity.id, identity_created_at: new Date().toISOString() })), new Date().toISOString());
    }
    process.stdout.write(`${kind}: ${IDENTITIES + extra.length} identities, ${companies.length} companies, a list of ${everyone.length} members loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s\n`);
    if (kind === 'postgres') await sql`analyze`.execute(database.db);
    const drafts = services.forWorkspace(workspace.id).segmentDrafts;
    const lists = services.forWorkspace(workspace.id).lists;
    process.stdout.write(`| store | what | answer | median ms | worst ms | CPU ms (median) |\n|---|---|---|---:|---:|---:|\n`);
    for (const [label, rule] of RULES) {
      const { median, worst, cpu, last } = await time(() => drafts.count(rule));
      process.stdout.write(`| ${kind} | count: ${label} | ${last.count} of ${last.examined}${last.complete ? '' : ' (bound)'} | ${median.toFixed(0)} | ${worst.toFixed(0)} | ${cpu.toFixed(0)} |\n`);
    }
    for (const of of ['traits', 'trait.plan', 'country', 'company.main_industry']) {
      const { median, worst, cpu, last } = await time(() => drafts.suggestions(of));
      process.stdout.write(`| ${kind} | suggestions of ${of} | ${last.length} values | ${median.toFixed(1)} | ${worst.toFixed(1)} | ${cpu.toFixed(1)} |\n`);
    }
    const { median, worst, cpu, last } = await time(() => lists.listWithCounts({ limit: 50, offset: 0 }));
    process.stdout.write(`| ${kind} | Lists page: member counts | ${last.items[0]?.members} members | ${median.toFixed(1)} | ${worst.toFixed(1)} | ${cpu.toFixed(1)} |\n`);
  } finally {
    await database.close();
    await empty.drop();
  }
}
