/**
 * Writes that arrive together (on SQLite they share one commit: GroupCommit):
 * each request still succeeds or fails on its own, a failed one leaves
 * nothing behind, and every acknowledged write is there, counted, afterwards;
 * a write is acknowledged only once its group has committed, and a group
 * whose commit fails acknowledges none of its writes.
 */
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.js';
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
