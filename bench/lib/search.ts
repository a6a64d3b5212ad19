/**
 * The `search` module of `npm run bench` (C9.1: the dashboard's search within
 * 300 ms on a workspace of 100,000 identities; BENCHMARKS.md "Search"). One
 * workspace gets N identities (faker names and emails, seeded), N/10
 * companies and N/2 leads through the import, a second workspace the same
 * again (the index holds both, the search must not care); then each query
 * shape is asked through the search service (the endpoint's work without
 * HTTP), the median and the worst of 15 runs reported. Bounded: N is
 * `--search-identities`; `SEARCH_PLANS=1` also prints PostgreSQL's plans.
 */
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker';
import { sql } from 'kysely';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import type { Log, StoreKind } from './data.js';
import { moduleStore } from './module-store.js';

const RUNS = 15;

/** each query shape: what it stands for, and the text */
const QUERIES: [string, string][] = [
  ['2 chars, common', 'an'],
  ['2 chars, rare', 'qz'],
  ['3 chars, common (every email)', 'com'],
  ['a first name', 'maria'],
  ['an email fragment', 'smith@'],
  ['a lead code', 'LD-0421'],
  ['nothing matches', 'xqzw'],
];

const jsonl = (rows: Record<string, unknown>[]) => Readable.from([rows.map((row) => JSON.stringify(row)).join('\n')]);

async function fill(services: ReturnType<typeof createServices>, workspace: WorkspaceId, identities: number, seed: number): Promise<void> {
  faker.seed(seed);
  const imports = services.forWorkspace(workspace).imports;
  const chunk = 20_000;
  for (let start = 0; start < identities; start += chunk) {
    const rows = Array.from({ length: Math.min(chunk, identities - start) }, () => {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      return { id: randomUUID(), name: `${first} ${last}`, email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase() };
    });
    await imports.run('identities', jsonl(rows));
  }
  const companies = Math.floor(identities / 10);
  await imports.run('companies', jsonl(Array.from({ length: companies }, () => ({ id: randomUUID(), name: faker.company.name(), domain: faker.internet.domainName() }))));
  const leads = Math.floor(identities / 2);
  await imports.run('leads', jsonl(Array.from({ length: leads }, (_, index) => ({ id: randomUUID(), code: `LD-${String(index).padStart(6, '0')}`, source: 'website' }))));
}

/** Answers the report's lines: one table row per query shape. */
export async function benchSearch(kind: StoreKind, identities: number, log: Log): Promise<string[]> {
  const tag = `[${kind}/search]`;
  const store = await moduleStore(kind);
  const { database } = store;
  const lines: string[] = [];
  try {
    const services = createServices(new Store(database), { tracking: { geoipDatabase: 'off' } });
    const measured = await services.workspaces.create('search');
    const other = await services.workspaces.create('other');
    const loading = performance.now();
    await fill(services, measured.id, identities, 1);
    await fill(services, other.id, identities, 2);
    log(`${tag} 2 × ${identities} identities, ${identities / 10} companies, ${identities / 2} leads loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`);
    if (kind === 'postgres') await sql`analyze`.execute(database.db);
    const search = services.forWorkspace(measured.id).search;
    lines.push(`### search, ${kind}, 2 × ${identities} identities`, '', '| store | query | text | results | median ms | worst ms |', '|---|---|---|---:|---:|---:|');
    for (const [label, text] of QUERIES) {
      const times: number[] = [];
      let results = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const t0 = performance.now();
        results = (await search.search(text)).length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const row = `| ${kind} | ${label} | \`${text}\` | ${results} | ${times[Math.floor(RUNS / 2)]!.toFixed(1)} | ${times[RUNS - 1]!.toFixed(1)} |`;
      lines.push(row);
      log(`${tag} ${row}`);
      if (kind === 'postgres' && process.env.SEARCH_PLANS === '1') {
        const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze select id from identities where workspace_id = ${measured.id} and (name ilike ${`%${text}%`} or email ilike ${`%${text}%`}) order by created_at desc, id desc limit 5`.execute(database.db);
        log(plan.rows.map((entry) => `    ${entry['QUERY PLAN']}`).join('\n'));
      }
    }
  } finally {
    await store.destroy();
  }
  return [...lines, ''];
}
