/**
 * Migrations 0012a and 0012b on both stores (CONTRACT C6.7, C6.9), over data
 * an earlier release wrote: companies lead intelligence made (every field
 * but the name empty) get their name marked as made from the domain or the
 * network, so enrichment may replace it, while an imported company keeps
 * every field as a person's; every company with a domain is queued for
 * enrichment at once; visitors name the company of their identity, else of
 * their network; companies get the last visit of their visitors; and the
 * visitors of companies seen in the last 31 days are due for their scores.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { createEmptyDatabase, storeKinds } from '../helpers/stores.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DAY_MS = 86_400_000;

describe.each(storeKinds())('migrations 0012a and 0012b on %s', (kind) => {
  let empty: { url: string; drop: () => Promise<void> };
  let database: Database;

  beforeAll(async () => {
    empty = await createEmptyDatabase(kind);
    database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await empty?.drop();
  });

  it('C6.7, C6.9: companies, visitors and the queues are filled from what an earlier release wrote', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations(kind) },
      migrationTableName: 'leadlight_migrations',
      migrationLockTableName: 'leadlight_migrations_lock',
    });
    expect((await migrator.migrateTo('0007-page-counts')).error).toBeUndefined();
    const services = createServices(new Store(database));
    const workspace = await services.workspaces.create('Before accounts');
    const ws = workspace.id;
    const created = '2025-01-01T00:00:00.000Z';
    const companies: [number, string, string | null, string | null][] = [
      [1, 'Acme Robotics', 'acme-robotics.com', ''],
      [2, 'Plus.line AG', '', ''],
      [3, 'Hooli', 'hooli.com', 'Written by sales'],
      [4, 'Quiet', null, null],
    ];
    for (const [n, name, domain, description] of companies) {
      await sql`insert into companies (workspace_id, id, name, name_normalized, domain, domain_normalized, description, employees, main_industry, created_at)
        values (${ws}, ${id(n)}, ${name}, ${name.toLowerCase()}, ${domain}, ${domain}, ${description}, ${description === null ? null : ''}, ${description === null ? null : ''}, ${created})`.execute(database.db);
    }
    await sql`insert into identities (workspace_id, id, visitor_id, email, email_normalized, traits, first_seen, last_seen, is_favorite, created_at, company_id)
      values (${ws}, ${id(10)}, ${id(20)}, 'ada@acme-robotics.com', 'ada@acme-robotics.com', '{}', ${created}, ${created}, ${kind === 'postgres' ? sql`false` : sql`0`}, ${created}, ${id(1)})`.execute(database.db);
    const recent = new Date(Date.now() - DAY_MS).toISOString();
    const old = new Date(Date.now() - 40 * DAY_MS).toISOString();
    const visitors: [number, string | null, string | null, string][] = [
      [20, id(10), null, recent],
      [21, null, JSON.stringify({ class: 'business', asn: 206564, organization: 'Plus.line AG', confidence: 0.8, company_id: id(2) }), old],
      [22, null, JSON.stringify({ class: 'isp', asn: 5769, organization: 'Videotron', confidence: 0 }), recent],
      [23, null, null, recent],
    ];
    for (const [n, identity, network, seen] of visitors) {
      await sql`insert into visitors (workspace_id, id, identity_id, first_seen, last_seen, session_id, session_started_at, session_last_at, events, page_views, sessions, created_at, network)
        values (${ws}, ${id(n)}, ${identity}, ${seen}, ${seen}, ${id(99)}, ${seen}, ${seen}, 1, 1, 1, ${seen}, ${network})`.execute(database.db);
    }

    const applied = await database.migrate();
    expect(applied).toEqual(expect.arrayContaining(['0012a-enrichment', '0012b-accounts']));
    const repos = new Store(database).forWorkspace(ws).repos;

    // C6.7: the sources of the fields
    expect((await repos.companies.findWithSources(id(1)))?.auto).toEqual({ name: 'domain' });
    expect((await repos.companies.findWithSources(id(2)))?.auto).toEqual({ name: 'network' });
    expect((await repos.companies.findWithSources(id(3)))?.auto).toEqual({});
    // every company with a domain is due now
    for (const n of [1, 3]) expect(await repos.enrichmentQueue.find(id(n)), `company ${n}`).toMatchObject({ failures: 0, claim: null, enriched_at: null });
    for (const n of [2, 4]) expect(await repos.enrichmentQueue.find(id(n)), `company ${n}`).toBeUndefined();
    const started = Date.now();
    expect(await repos.enrichmentQueue.claim(new Date(started).toISOString(), new Date(started + 60_000).toISOString(), 'token', 10)).toHaveLength(2);

    // C6.9: the company of each visitor, and each company's last visit
    const companyOf = async (n: number) => (await repos.visitors.find(id(n)))?.company_id;
    expect([await companyOf(20), await companyOf(21), await companyOf(22), await companyOf(23)]).toEqual([id(1), id(2), null, null]);
    const accounts = await repos.companies.listAccounts({}, '-last_seen', { limit: 10, offset: 0 });
    expect(accounts.items.map((item) => [item.name, item.last_seen, item.visitors, item.people])).toEqual([
      ['Acme Robotics', recent, 1, 1],
      ['Plus.line AG', old, 1, 0],
      ['Quiet', null, 0, 0],
      ['Hooli', null, 0, 0],
    ]);
    // the visitor of a company seen in the last 31 days is due; the one seen 40 days ago is not
    const due = await repos.intelligenceDue.claim(new Date(Date.now() + 1_000).toISOString(), new Date(Date.now() + 60_000).toISOString(), 'due', 10);
    expect(due).toEqual([id(20)]);
    expect(await database.migrate()).toEqual([]);
  });
});
