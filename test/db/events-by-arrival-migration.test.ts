/**
 * Migration 0022a on both stores (issue 24; CONTRACT C5.3, C5.6, C5.8): the
 * SQLite event log an earlier release kept in time order is rebuilt in
 * arrival order with every event, its visitor index and its ids'
 * uniqueness; PostgreSQL's partitioned log is left as it is. Afterwards a
 * visitor's events still come back oldest first, an id received before is
 * still a duplicate, and retention still deletes by the events' time.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import type { TrackedEvent } from '../../src/schemas/tracked-events.js';
import { createServices } from '../../src/services/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { BROWSER_UA, pageView, type Event } from '../helpers/tracking.js';

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

/** The SQLite log as migration 0003 made it: in time order within a workspace. */
const OLD_SQLITE_LOG = [
  'drop table events',
  `create table events (workspace_id text not null, occurred_at text not null, id text not null, received_at text not null,
    visitor_id text not null, session_id text not null, type text not null, name text, url text, path text, title text,
    referrer text, code text, data text, ip text, city text, country text,
    constraint events_pkey primary key (workspace_id, occurred_at, id)) strict, without rowid`,
  'create index events_visitor_idx on events (workspace_id, visitor_id, occurred_at)',
  'create unique index events_id_idx on events (workspace_id, id)',
];

describe.each(storeKinds())('migration 0022a-events-by-arrival on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.destroy());

  it('C5.3, C5.6, C5.8: every event stays, found by visitor in time order, its id still taken, retention by time', async () => {
    const store = new Store(db.database);
    const services = createServices(store, { tracking: { eventRetentionDays: 30 } });
    const workspace = await services.workspaces.create('Logged before');
    if (kind === 'sqlite') {
      for (const statement of OLD_SQLITE_LOG) await sql.raw(statement).execute(db.database.db);
    }
    await sql`delete from leadlight_migrations where name = '0022a-events-by-arrival'`.execute(db.database.db);

    // received in an order other than their time's: a late batch, and events ahead of the server's clock
    const now = Date.now();
    const visitor = randomUUID();
    const other = randomUUID();
    const send = (receivedAt: number, events: Event[]) =>
      services.ingest.ingest(workspace.id, events as TrackedEvent[], { receivedAt, address: '198.51.100.7', userAgent: BROWSER_UA });
    const expired = pageView(visitor, '/expired', { ts: at(now - 30 * DAY - 1) });
    const kept = pageView(visitor, '/kept', { ts: at(now - 30 * DAY) });
    expect((await send(now - 30 * DAY + 6 * DAY, [kept, expired])).accepted).toBe(2);
    const recent = [pageView(visitor, '/b', { ts: at(now - 2 * DAY + 2) }), pageView(visitor, '/a', { ts: at(now - 2 * DAY + 1) })];
    expect((await send(now - DAY, recent)).accepted).toBe(2);
    expect((await send(now - 3 * DAY, [pageView(visitor, '/earlier', { ts: at(now - 3 * DAY) }), pageView(other, '/other', { ts: at(now - 3 * DAY) })])).accepted).toBe(2);

    const pending = await db.database.migrate();
    expect(pending).toEqual(['0022a-events-by-arrival']);
    if (kind === 'sqlite') {
      const [log] = (await sql<{ sql: string }>`select sql from sqlite_master where name = 'events'`.execute(db.database.db)).rows;
      expect(log?.sql.replace(/\s+/g, ' ')).toMatch(/primary key \(\s*"?workspace_id"?, "?received_at"?, "?id"?\s*\)/i);
      const indexes = (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'events'`.execute(db.database.db)).rows;
      expect(indexes.map((index) => index.name)).toEqual(expect.arrayContaining(['events_visitor_idx', 'events_id_idx']));
    }

    const repos = store.forWorkspace(workspace.id).repos;
    const paths = async (id: string) => (await repos.events.forVisitor(id, '2000-01-01T00:00:00.000Z', 100)).map((event) => event.path);
    expect(await paths(visitor)).toEqual(['/expired', '/kept', '/earlier', '/a', '/b']);
    expect(await paths(other)).toEqual(['/other']);
    // an id the log held before the migration is still a duplicate
    expect(await send(now, [recent[0]!])).toEqual({ accepted: 0, duplicates: 1, ignored: 0 });

    // the event a millisecond past 30 days goes, though it was received after younger ones
    await services.trackingMaintenance.run(now);
    expect(await paths(visitor)).toEqual(['/kept', '/earlier', '/a', '/b']);
    expect(await db.database.migrate()).toEqual([]);
  });

  it.runIf(kind === 'sqlite')('C2.4: a rebuild that fails at its last step leaves the log as it was, and runs again once it can', async () => {
    const store = new Store(db.database);
    const services = createServices(store);
    const workspace = await services.workspaces.create('Rebuilt at once');
    for (const statement of OLD_SQLITE_LOG) await sql.raw(statement).execute(db.database.db);
    await sql`delete from leadlight_migrations where name = '0022a-events-by-arrival'`.execute(db.database.db);
    const visitor = randomUUID();
    const now = Date.now();
    const first = pageView(visitor, '/first', { ts: at(now - 2000) });
    const second = pageView(visitor, '/second', { ts: at(now - 1000) });
    expect((await services.ingest.ingest(workspace.id, [first, second] as TrackedEvent[], { receivedAt: now, address: '198.51.100.7', userAgent: BROWSER_UA })).accepted).toBe(2);
    // an id twice (only possible without the old unique index): the rebuild's last step, the unique index, fails
    await sql.raw('drop index events_id_idx').execute(db.database.db);
    await sql`insert into events (workspace_id, occurred_at, id, received_at, visitor_id, session_id, type, url, path)
      select workspace_id, ${at(now - 500)}, id, ${at(now + 1)}, visitor_id, session_id, type, url, '/twice' from events where path = '/first'`.execute(db.database.db);

    await expect(db.database.migrate()).rejects.toThrow(/0022a-events-by-arrival/);
    const [log] = (await sql<{ sql: string }>`select sql from sqlite_master where name = 'events'`.execute(db.database.db)).rows;
    expect(log?.sql).toMatch(/primary key \(workspace_id, occurred_at, id\)/i);
    const tables = (await sql<{ name: string }>`select name from sqlite_master where name = 'events_by_arrival'`.execute(db.database.db)).rows;
    expect(tables).toEqual([]);
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from events`.execute(db.database.db)).rows[0]?.n);
    expect(await count()).toBe(3);

    await sql`delete from events where path = '/twice'`.execute(db.database.db);
    expect(await db.database.migrate()).toEqual(['0022a-events-by-arrival']);
    expect(await count()).toBe(2);
    const paths = (await store.forWorkspace(workspace.id).repos.events.forVisitor(visitor, '2000-01-01T00:00:00.000Z', 100)).map((event) => event.path);
    expect(paths).toEqual(['/first', '/second']);
  });
});
