/**
 * Migrations on both stores: a database created by an earlier release keeps
 * its data, and leads it already held are counted by the lead_counts
 * migration, so totals stay exact after an upgrade; page views already in the
 * event log are counted by the page_counts migration (the overview's top pages).
 */
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { createEmptyDatabase, storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('migrations on %s', (kind) => {
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

  it('upgrading a database with leads from the first schema counts them exactly', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations(kind) },
      migrationTableName: 'leadlight_migrations',
      migrationLockTableName: 'leadlight_migrations_lock',
    });
    const first = await migrator.migrateTo('0001-initial');
    expect(first.error).toBeUndefined();
    const services = createServices(new Store(database));
    const workspace = await services.workspaces.create('Old release');
    const stamps = ['2024-03-01T10:00:00.000Z', '2024-03-01T23:59:59.999Z', '2024-03-02T00:00:00.000Z', '2024-03-05T12:00:00.000Z'];
    for (const [index, created_at] of stamps.entries()) {
      await sql`insert into leads (workspace_id, id, visitor_id, code, source, created_at, updated_at, properties, location)
        values (${workspace.id}, ${`00000000-0000-4000-8000-00000000000${index}`}, ${'00000000-0000-4000-8000-0000000000aa'},
        ${`old-${index}`}, ${index % 2 === 0 ? 'website' : null}, ${created_at}, ${created_at}, '{}', '{}')`.execute(database.db);
    }

    expect((await database.migrate())[0]).toBe('0002-lead-counts');
    const leads = services.forWorkspace(workspace.id).leads;
    const list = (filters: Parameters<typeof leads.list>[0]) => leads.list(filters, { limit: 1, offset: 0 }).then((result) => result.total);
    expect(await list({})).toBe(4);
    expect(await list({ source: 'website' })).toBe(2);
    expect(await list({ createdAfter: '2024-02-28T00:00:00.000Z', createdBefore: '2024-03-05T00:00:00.000Z' })).toBe(3);
    expect(await list({ createdAfter: '2024-03-01T10:00:00.000Z' })).toBe(3);
    expect(await database.migrate()).toEqual([]);
  });

  it('upgrading a database with tracked events counts its page views per day and page (0007-page-counts), and per week (0021-week-counts)', async () => {
    const pending = await database.migrate();
    expect(pending).toEqual([]);
    const services = createServices(new Store(database));
    const workspace = await services.workspaces.create('Tracked before');
    // back to before 0007: what an earlier release left
    await sql`drop table page_counts`.execute(database.db);
    await sql`delete from leadlight_migrations where name in ('0007-page-counts', '0021-week-counts')`.execute(database.db);
    const store = new Store(database);
    await store.operator.eventPartitions.ensure('2025-06');
    const events: [string, string, string, string | null][] = [
      ['2025-06-01T10:00:00.000Z', 'page', 'https://Shop.example.com/pricing?plan=pro', '/pricing'],
      ['2025-06-01T11:00:00.000Z', 'page', 'https://shop.example.com/pricing', '/pricing'],
      ['2025-06-01T12:00:00.000Z', 'page', 'https://shop.example.com:8443/', '/'],
      ['2025-06-02T00:00:00.000Z', 'page', 'https://shop.example.com/pricing', '/pricing'],
      ['2025-06-02T01:00:00.000Z', 'track', 'https://shop.example.com/pricing', '/pricing'],
    ];
    for (const [index, [at, type, url, path]] of events.entries()) {
      await sql`insert into events (workspace_id, occurred_at, id, received_at, visitor_id, session_id, type, url, path)
        values (${workspace.id}, ${at}, ${`00000000-0000-4000-8000-00000000010${index}`}, ${at},
        ${'00000000-0000-4000-8000-0000000000aa'}, ${'00000000-0000-4000-8000-0000000000bb'}, ${type}, ${url}, ${path})`.execute(database.db);
    }
    // 0021 sums the counted days into their weeks (June 2025: Sunday the 1st, then whole weeks from Monday the 2nd)
    expect(await database.migrate()).toEqual(['0007-page-counts', '0021-week-counts']);
    const pageCounts = store.forWorkspace(workspace.id).repos.pageCounts;
    expect(await pageCounts.top('2025-06-01', '2025-06-30', 10)).toEqual([
      { host: 'shop.example.com', path: '/pricing', views: 3 },
      { host: 'shop.example.com:8443', path: '/', views: 1 },
    ]);
    expect(await pageCounts.top('2025-06-02', '2025-06-02', 10)).toEqual([{ host: 'shop.example.com', path: '/pricing', views: 1 }]);
    // Monday to Sunday: the week row alone
    expect(await pageCounts.top('2025-06-02', '2025-06-08', 10)).toEqual([{ host: 'shop.example.com', path: '/pricing', views: 1 }]);
  });
});
