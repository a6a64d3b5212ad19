/**
 * What the dashboard's search costs (C9.1: within 300 ms on a workspace of
 * 100,000 identities; BENCHMARKS.md "Search"). One workspace gets N
 * identities (faker names and emails, seeded), N/10 companies and N/2 leads
 * through the import, a second workspace the same again (the index holds
 * both, the search must not care); then each query shape is asked through
 * the search service (the endpoint's work without HTTP), the median and the
 * worst of 15 runs reported, with the plan PostgreSQL chose. Needs
 * TEST_POSTGRES_URL for PostgreSQL.
 *
 *   npx tsx bench/search.ts [identities=100000] [stores=sqlite,postgres]
 */
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';
import type { WorkspaceId } from '../src/tenancy/workspace-id.js';
import { createEmptyDatabase } from '../test/helpers/stores.js';

const IDENTITIES = Number(process.argv[2] ?? 100_000);
const STORES = (process.argv[3] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
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

async function fill(services: ReturnType<typeof createServices>, workspace: WorkspaceId, seed: number): Promise<void> {
  faker.seed(seed);
  const imports = services.forWorkspace(workspace).imports;
  const chunk = 20_000;
  for (let start = 0; start < IDENTITIES; start += chunk) {
    const rows = Array.from({ length: Math.min(chunk, IDENTITIES - start) }, () => {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      return { id: randomUUID(), name: `${first} ${last}`, email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase() };
    });
    await imports.run('identities', jsonl(rows));
  }
  await imports.run(
    'companies',
    jsonl(Array.from({ length: IDENTITIES / 10 }, () => ({ id: randomUUID(), name: faker.company.name(), domain: faker.internet.domainName() }))),
  );
  await imports.run(
    'leads',
    jsonl(Array.from({ length: IDENTITIES / 2 }, (_, index) => ({ id: randomUUID(), code: `LD-${String(index).padStart(6, '0')}`, source: 'website' }))),
  );
}

for (const kind of STORES) {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  try {
    await database.migrate();
    const services = createServices(new Store(database), { tracking: { geoipDatabase: 'off' } });
    const measured = await services.workspaces.create('search');
    const other = await services.workspaces.create('other');
    const loading = performance.now();
    await fill(services, measured.id, 1);
    await fill(services, other.id, 2);
    process.stdout.write(`${kind}: 2 × ${IDENTITIES} identities, ${IDENTITIES / 10} companies, ${IDENTITIES / 2} leads loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s\n`);
    if (kind === 'postgres') await sql`analyze`.execute(database.db);
    const search = services.forWorkspace(measured.id).search;
    process.stdout.write(`| store | query | text | results | median ms | worst ms |\n|---|---|---|---:|---:|---:|\n`);
    for (const [label, text] of QUERIES) {
      const times: number[] = [];
      let results = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const t0 = performance.now();
        results = (await search.search(text)).length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      process.stdout.write(`| ${kind} | ${label} | \`${text}\` | ${results} | ${times[Math.floor(RUNS / 2)]!.toFixed(1)} | ${times[RUNS - 1]!.toFixed(1)} |\n`);
      if (kind === 'postgres' && process.env.PLANS === '1') {
        const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze select id from identities where workspace_id = ${measured.id} and (name ilike ${`%${text}%`} or email ilike ${`%${text}%`}) order by created_at desc, id desc limit 5`.execute(database.db);
        process.stdout.write(`${plan.rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n')}\n`);
      }
    }
  } finally {
    await database.close();
    if (process.env.KEEP === '1') process.stdout.write(`kept ${empty.url}\n`);
    else await empty.drop();
  }
}
