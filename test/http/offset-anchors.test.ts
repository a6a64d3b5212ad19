/**
 * Deep pages read from a remembered position (issue 24, offset-anchors.ts):
 * on SQLite a deep page by offset starts from the row a previous deep page
 * found at or before that offset, while the store has not changed. Pages at
 * repeated, following and in-between offsets must hold exactly the rows of a
 * walk from the start, and every kind of write (a create, a delete, a write
 * by another connection to the same store) must show in the very next deep
 * page. Run on both stores: PostgreSQL always walks, and must answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface Row {
  id: string;
  created_at: string;
  source: string;
}

const newestFirst = (a: Row, b: Row) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

describe.each(storeKinds())('deep pages from remembered positions on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let ws: TestWorkspace;
  let leads: Row[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const database =
      kind === 'sqlite' ? openDatabase({ kind: 'sqlite', filename: t.db.url }) : openDatabase({ kind: 'postgres', url: t.db.url, poolSize: 2 });
    other = await createTestApp(kind, { db: { database, url: t.db.url, destroy: () => database.close() } });
    ws = await t.createWorkspace('Anchors');
    // all on one day (the day counters cannot shorten the walk), every instant shared by three leads
    const rows = Array.from({ length: 1400 }, (_, index) => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(index / 3) * 37_000).toISOString(),
      source: index % 4 === 0 ? 'rare' : 'common',
    }));
    await importRows(t, ws.id, 'leads', rows);
    leads = rows.sort(newestFirst);
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.db.destroy();
    await t?.close();
  });

  const expectPage = async (offset: number, source?: string, limit = 50) => {
    const matching = source === undefined ? leads : leads.filter((lead) => lead.source === source);
    const response = await t.as(ws, { url: `/api/v1/leads?limit=${limit}&offset=${offset}${source === undefined ? '' : `&source=${source}`}` });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { data: { id: string }[]; pagination: { total: number } };
    expect(
      body.data.map((lead) => lead.id),
      `offset ${offset}${source === undefined ? '' : ` source ${source}`}`,
    ).toEqual(matching.slice(offset, offset + limit).map((lead) => lead.id));
    expect(body.pagination.total).toBe(matching.length);
  };

  it('issue 24, C3.10: repeated, following, in-between and earlier deep offsets hold the rows of a walk from the start', async () => {
    for (const offset of [1100, 1100, 1150, 1150, 1120, 1199, 1200, 1000, 1049, 1001, 1350, 1399, 1400]) await expectPage(offset);
    for (const offset of [1000, 1000, 1010, 1030]) await expectPage(offset, 'common');
    await expectPage(1100, undefined, 7);
    await expectPage(1107, undefined, 100);
  });

  it('issue 24, C3.10: a create, a delete and a write by another connection show in the very next deep page', async () => {
    await expectPage(1200);
    await expectPage(1200);
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'common' } });
    expect(created.statusCode).toBe(201);
    const lead = created.json().data as Row;
    leads = [lead, ...leads];
    await expectPage(1200);
    await expectPage(1000, 'common');

    const victim = leads[10]!;
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${victim.id}` })).statusCode).toBe(204);
    leads = leads.filter((row) => row.id !== victim.id);
    await expectPage(1200);
    await expectPage(1000, 'common');

    const elsewhere = await other.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'common' } });
    expect(elsewhere.statusCode).toBe(201);
    leads = [elsewhere.json().data as Row, ...leads];
    await expectPage(1200);
    await expectPage(1000, 'common');
  });
});
