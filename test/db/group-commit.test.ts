/**
 * Writes that arrive together (on SQLite they share one commit: GroupCommit):
 * each request still succeeds or fails on its own, a failed one leaves
 * nothing behind, and every acknowledged write is there, counted, afterwards;
 * a write is acknowledged only once its group has committed, and a group
 * whose commit fails acknowledges none of its writes. When the log's sync
 * runs off the event loop (wal-flush.ts), a write is acknowledged only once
 * a sync that began after its commit has returned.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageFailure } from '../../src/db/errors.js';
import { GROUP_BUDGET_MS, GroupCommit, MAX_GROUP } from '../../src/db/group-commit.js';
import { walFlusher, type SyncFile } from '../../src/db/wal-flush.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';

describe.each(storeKinds())('concurrent writes on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let foreignCompany: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Together');
    const other = await t.createWorkspace('Elsewhere');
    foreignCompany = (await seedCompanies(t, other.id, [{ name: 'Not yours' }]))[0]!;
  });
  afterAll(async () => t?.close());

  it('C3.7, C4.1: forty concurrent creates, every fifth refused, are each answered on their own', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        t.as(ws, {
          method: 'POST',
          url: '/api/v1/leads',
          payload: index % 5 === 0 ? { code: `bad-${index}`, company_id: foreignCompany } : { code: `ok-${index}`, source: 'together' },
        }),
      ),
    );
    const created = responses.filter((response) => response.statusCode === 201).map((response) => response.json().data);
    expect(responses.filter((response) => response.statusCode === 403)).toHaveLength(8);
    expect(created).toHaveLength(32);
    const listed = (await t.as(ws, { url: '/api/v1/leads?limit=100' })).json();
    expect(listed.pagination.total).toBe(32);
    expect(listed.data.map((lead: { id: string }) => lead.id).sort()).toEqual(created.map((lead) => lead.id).sort());
    expect(listed.data.some((lead: { code: string }) => lead.code.startsWith('bad-'))).toBe(false);
    expect((await t.as(ws, { url: '/api/v1/leads?source=together&limit=1' })).json().pagination.total).toBe(32);
  });

  it('C4.2: concurrent creates and patches of one lead all land', async () => {
    const lead = (await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: {} })).json().data;
    const patches = Array.from({ length: 15 }, (_, index) =>
      t.as(ws, {
        method: 'PATCH',
        url: `/api/v1/leads/${lead.id}`,
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: JSON.stringify({ properties: { [`p${index}`]: index } }),
      }),
    );
    const creates = Array.from({ length: 15 }, () =>
      t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'mixed' } }),
    );
    const responses = await Promise.all([...patches, ...creates]);
    expect(responses.map((response) => response.statusCode)).toEqual([...Array(15).fill(200), ...Array(15).fill(201)]);
    const stored = (await t.as(ws, { url: `/api/v1/leads/${lead.id}` })).json().data.properties;
    expect(Object.keys(stored)).toHaveLength(15);
    expect((await t.as(ws, { url: '/api/v1/leads?source=mixed&limit=1' })).json().pagination.total).toBe(15);
  });
});

describe('group commit on sqlite (C2.4)', () => {
  let db: TestDatabase;
  let reader: BetterSqlite3.Database;
  let workspace: WorkspaceId;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    reader = new BetterSqlite3(db.url, { readonly: true });
    workspace = (await createServices(new Store(db.database)).workspaces.create('Group commit')).id;
  });
  afterAll(async () => {
    reader?.close();
    await db?.destroy();
  });

  const lead = (id: string, identityId: string | null = null) => ({
    workspace_id: workspace,
    id,
    visitor_id: randomUUID(),
    code: null,
    source: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    properties: '{}',
    location: '{}',
    identity_id: identityId,
    session_id: null,
    summary: null,
    company_id: null,
  });
  const visible = (id: string) => reader.prepare('select count(*) as n from leads where id = ?').get(id) as { n: number };

  it('resolves a write only once it is committed: another connection sees it at that moment', async () => {
    const group = new GroupCommit(db.database.db);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const seenAtResolution = await Promise.all(
      ids.map((id) =>
        group.run((trx) => trx.insertInto('leads').values(lead(id)).execute()).then(() => visible(id).n),
      ),
    );
    expect(seenAtResolution).toEqual(ids.map(() => 1));
  });

  it('runs a group\'s compiled statements on its own transaction: a job reads its own writes, and a job that fails after writing leaves nothing', async () => {
    const store = new Store(db.database).forWorkspace(workspace);
    const newLead = (index: number) => ({
      id: randomUUID(),
      visitor_id: randomUUID(),
      code: `direct-${index}`,
      source: 'direct',
      created_at: '2026-02-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
      properties: {},
      location: {},
      identity_id: null,
      session_id: null,
      summary: null,
      company_id: null,
    });
    const leads = Array.from({ length: 12 }, (_, index) => newLead(index));
    const outcomes = await Promise.allSettled(
      leads.map((lead, index) =>
        store.transaction(async (repos) => {
          await repos.leads.insert(lead);
          // the lead and its count are written through compiled statements (query-templates.ts); the job sees them
          expect((await repos.leads.findById(lead.id))?.code).toBe(lead.code);
          if (index % 3 === 0) throw new Error('refused after writing');
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(leads.map((_, index) => (index % 3 === 0 ? 'rejected' : 'fulfilled')));
    for (const [index, lead] of leads.entries()) expect(visible(lead.id).n).toBe(index % 3 === 0 ? 0 : 1);
    const counted = reader
      .prepare(`select sum(count) as n from lead_counts where workspace_id = ? and bucket = '=direct'`)
      .get(workspace) as { n: number };
    expect(counted.n).toBe(8);
  });

  it('rejects every write of a group whose COMMIT fails, and keeps none of them', async () => {
    const group = new GroupCommit(db.database.db);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const outcomes = await Promise.allSettled([
      group.run((trx) => trx.insertInto('leads').values(lead(ids[0]!)).execute()),
      // a deferred foreign key is checked at COMMIT: the job itself succeeds, the commit fails
      group.run(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx.insertInto('leads').values(lead(ids[1]!, randomUUID())).execute();
      }),
      group.run((trx) => trx.insertInto('leads').values(lead(ids[2]!)).execute()),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const id of ids) expect(visible(id).n).toBe(0);
    // and the store goes on committing afterwards
    const after = randomUUID();
    await group.run((trx) => trx.insertInto('leads').values(lead(after)).execute());
    expect(visible(after).n).toBe(1);
  });
});

describe('group commit with the log synced off the event loop (C2.4, issue 24)', () => {
  let db: TestDatabase;
  let reader: BetterSqlite3.Database;
  let workspace: WorkspaceId;
  const fdatasync = promisify(fs.fdatasync);

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    reader = new BetterSqlite3(db.url, { readonly: true });
    workspace = (await createServices(new Store(db.database)).workspaces.create('Deferred flush')).id;
  });
  afterAll(async () => {
    reader?.close();
    await db?.destroy();
  });

  const insert = (id: string) => (trx: Parameters<Parameters<GroupCommit['run']>[0]>[0]) =>
    trx
      .insertInto('leads')
      .values({
        workspace_id: workspace,
        id,
        visitor_id: randomUUID(),
        code: null,
        source: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        properties: '{}',
        location: '{}',
        identity_id: null,
        session_id: null,
        summary: null,
        company_id: null,
      })
      .execute();
  const committed = (ids: string[]) =>
    new Set(ids.filter((id) => (reader.prepare('select count(*) as n from leads where id = ?').get(id) as { n: number }).n === 1));
  const isLog = (fd: number) => !fs.fstatSync(fd).isDirectory();

  it('answers a write only once a sync of the log that began after its commit has returned', async () => {
    const ids = Array.from({ length: 30 }, () => randomUUID());
    /** each sync of the log: the writes committed when it began, and whether it has returned */
    const syncs: { covers: Set<string>; done: boolean }[] = [];
    const held: (() => void)[] = [];
    const sync: SyncFile = async (fd) => {
      if (!isLog(fd)) return fdatasync(fd);
      const record = { covers: committed(ids), done: false };
      syncs.push(record);
      await new Promise<void>((resolve) => held.push(resolve));
      await fdatasync(fd);
      record.done = true;
    };
    const flusher = walFlusher(db.url, sync);
    const group = new GroupCommit(db.database.db, flusher);
    const answered: string[] = [];
    const coveredWhenAnswered: boolean[] = [];
    const writes = ids.map((id) =>
      group.run(insert(id)).then(() => {
        answered.push(id);
        coveredWhenAnswered.push(syncs.some((record) => record.done && record.covers.has(id)));
      }),
    );
    // the first group has committed and its sync is held: no write is answered meanwhile
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.length).toBeGreaterThan(0);
    expect(committed(ids).size).toBeGreaterThan(0);
    expect(answered).toEqual([]);
    // the connection is back to synchronous=FULL for every other transaction
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(db.database.db)).rows[0]?.synchronous).toBe(2);
    while (answered.length < ids.length) {
      held.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(writes);
    expect(coveredWhenAnswered).toEqual(ids.map(() => true));
    expect(flusher.completed).toBe(syncs.length);
    await flusher.close();
  });

  /** a flusher whose syncs of the log wait until released, and a group commit that counts the groups asking for one */
  const heldGroups = () => {
    const held: (() => void)[] = [];
    const flusher = walFlusher(db.url, async (fd) => {
      if (isLog(fd)) await new Promise<void>((resolve) => held.push(resolve));
      await fdatasync(fd);
    });
    const counted = { groups: 0 };
    const group = new GroupCommit(db.database.db, {
      flush: () => {
        counted.groups += 1;
        return flusher.flush();
      },
      settled: () => flusher.settled(),
    });
    const releaseAll = async (writes: Promise<unknown>[]) => {
      let done = false;
      const all = Promise.all(writes).finally(() => (done = true));
      while (!done) {
        held.splice(0).forEach((release) => release());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await all;
    };
    const firstHeld = async () => {
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    return { flusher, group, counted, releaseAll, firstHeld };
  };

  it('writes that arrive while a sync runs wait for it, then commit as one group with one sync', async () => {
    const { flusher, group, counted, releaseAll, firstHeld } = heldGroups();
    const first = randomUUID();
    const writes = [group.run(insert(first))];
    await firstHeld();
    expect(committed([first]).size).toBe(1);
    const waiting = Array.from({ length: 10 }, () => randomUUID());
    writes.push(...waiting.map((id) => group.run(insert(id))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(committed(waiting).size).toBe(0);
    await releaseAll(writes);
    expect(committed(waiting).size).toBe(10);
    expect(counted.groups).toBe(2);
    await flusher.close();
  });

  it('MAX_GROUP writes waiting for a sync begin their group without waiting for it; one fewer wait', async () => {
    const { flusher, group, counted, releaseAll, firstHeld } = heldGroups();
    const writes = [group.run(insert(randomUUID()))];
    await firstHeld();
    const waiting = Array.from({ length: MAX_GROUP - 1 }, () => randomUUID());
    writes.push(...waiting.map((id) => group.run(insert(id))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(committed(waiting).size).toBe(0);
    expect(counted.groups).toBe(1);
    const last = randomUUID();
    writes.push(group.run(insert(last)));
    // while the first sync is still held (the group's time budget may leave some for the next group)
    while (committed([...waiting, last]).size === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counted.groups).toBe(2);
    expect(flusher.completed).toBe(0);
    await releaseAll(writes);
    expect(committed([...waiting, last]).size).toBe(MAX_GROUP);
    await flusher.close();
  });

  it('ends a group after its time budget: the rest commit in the next ones, each answered after its own sync', async () => {
    const flusher = walFlusher(db.url);
    // groups are counted where each asks for its sync (syncs themselves are shared by the groups that commit while one runs)
    let groups = 0;
    const counted = {
      flush: () => {
        groups += 1;
        return flusher.flush();
      },
      settled: () => flusher.settled(),
    };
    const group = new GroupCommit(db.database.db, counted);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const busy = (id: string) => async (trx: Parameters<Parameters<GroupCommit['run']>[0]>[0]) => {
      const until = performance.now() + GROUP_BUDGET_MS / 4;
      while (performance.now() < until);
      await insert(id)(trx);
    };
    await Promise.all(ids.map((id) => group.run(busy(id))));
    expect(committed(ids).size).toBe(40);
    // 40 jobs of a quarter of the budget each cannot share one commit
    expect(groups).toBeGreaterThanOrEqual(40 / 5);
    await flusher.close();
  });

  it('Store.durable() (what the changes feed waits for) resolves only once the sync of the commits before it has returned', async () => {
    const held: (() => void)[] = [];
    const flusher = walFlusher(db.url, async (fd) => {
      if (isLog(fd)) await new Promise<void>((resolve) => held.push(resolve));
      await fdatasync(fd);
    });
    const store = new Store({ ...db.database, deferredFlush: { flush: () => flusher.flush(), settled: () => flusher.settled() } });
    const id = randomUUID();
    const write = store.run(insert(id));
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // committed, visible to readers, not yet synced
    expect(committed([id]).size).toBe(1);
    let durable = false;
    const waited = store.durable().then(() => (durable = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(durable).toBe(false);
    held.splice(0).forEach((release) => release());
    await Promise.all([write, waited]);
    expect(durable).toBe(true);
    // nothing under way: at once
    await store.durable();
    await flusher.close();
  });

  it('a sync that fails fails every write of its group as a storage failure (507), and the next group commits and syncs', async () => {
    let fail = true;
    const flusher = walFlusher(db.url, async (fd) => {
      if (fail && isLog(fd)) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      await fdatasync(fd);
    });
    const group = new GroupCommit(db.database.db, flusher);
    const outcomes = await Promise.allSettled([group.run(insert(randomUUID())), group.run(insert(randomUUID()))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes) expect(isStorageFailure((outcome as PromiseRejectedResult).reason)).toBe(true);
    fail = false;
    await group.run(insert(randomUUID()));
    expect(flusher.completed).toBe(1);
    await flusher.close();
  });
});
