/**
 * Pages far from the start (offset of 1,000 and more are read through the
 * index first): the same order and rows as the list walked from the start
 * (C3.10), with and without filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('deep pages on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  const leads: { id: string; created_at: string; source: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Deep');
    const rows = Array.from({ length: 1300 }, (_, index) => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      // every instant is shared by three leads: the id breaks the ties
      created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(index / 3) * 61_000).toISOString(),
      source: index % 4 === 0 ? 'rare' : 'common',
    }));
    await importRows(t, ws.id, 'leads', [...rows].reverse());
    leads.push(...rows);
    leads.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
  });
  afterAll(async () => t?.close());

  const page = async (query: string) => {
    const response = await t.as(ws, { url: `/api/v1/leads?${query}` });
    expect(response.statusCode).toBe(200);
    return response.json() as { data: { id: string }[]; pagination: { total: number } };
  };

  it('C3.10: offset 1000 and beyond returns the same rows as walking from the start', async () => {
    for (const offset of [999, 1000, 1001, 1250, 1299, 1300]) {
      const body = await page(`limit=100&offset=${offset}`);
      expect(body.data.map((lead) => lead.id), `offset ${offset}`).toEqual(
        leads.slice(offset, offset + 100).map((lead) => lead.id),
      );
      expect(body.pagination.total).toBe(1300);
    }
  });

  it('C3.10, C3.11: deep pages of a filtered list keep the filter and the order', async () => {
    const common = leads.filter((lead) => lead.source === 'common');
    const body = await page('source=common&limit=100&offset=950');
    expect(body.data.map((lead) => lead.id)).toEqual(common.slice(950, 1050).map((lead) => lead.id));
    expect(body.pagination.total).toBe(common.length);
    const before = leads[100]!.created_at;
    const older = leads.filter((lead) => lead.created_at < before);
    expect(older.length).toBeGreaterThan(1050);
    const ranged = await page(`created_before=${before}&limit=50&offset=1000`);
    expect(ranged.data.map((lead) => lead.id)).toEqual(older.slice(1000, 1050).map((lead) => lead.id));
  });
});

describe.each(storeKinds())('deep pages over many days on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let leads: { id: string; created_at: string; source: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Deep days');
    // 2,400 leads over about 60 days, unevenly: some days empty, some busy, the edges of days included
    const rows: typeof leads = [];
    let index = 0;
    for (let day = 0; day < 60; day += 1) {
      const onDay = day % 7 === 3 ? 0 : ((day * 37) % 71) + (day % 5 === 0 ? 60 : 5);
      for (let n = 0; n < onDay && rows.length < 2400; n += 1) {
        const at = Date.UTC(2025, 2, 1 + day) + (n === 0 ? 0 : n === onDay - 1 ? 86_399_999 : n * 997_000);
        rows.push({
          id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
          created_at: new Date(at).toISOString(),
          source: index % 3 === 0 ? 'rare' : 'common',
        });
        index += 1;
      }
    }
    await importRows(t, ws.id, 'leads', rows);
    // deleted leads leave the counters and the pages alike
    const deleted = new Set(rows.filter((_, position) => position % 41 === 7).map((lead) => lead.id));
    for (const id of deleted) expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${id}` })).statusCode).toBe(204);
    leads = rows
      .filter((lead) => !deleted.has(lead.id))
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
  });
  afterAll(async () => t?.close());

  const ids = async (query: string) => {
    const response = await t.as(ws, { url: `/api/v1/leads?${query}` });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { data: { id: string }[]; pagination: { total: number } };
    return { ids: body.data.map((lead) => lead.id), total: body.pagination.total };
  };

  it('issue 14, C3.10: a deep page starts on the day the counters name and holds exactly the rows of a walk from the start', async () => {
    expect(leads.length).toBeGreaterThan(2000);
    const offsets = [1000, 1001, 1137, 1500, 1777, 2001, leads.length - 1, leads.length, leads.length + 5];
    for (const offset of offsets) {
      const page = await ids(`limit=100&offset=${offset}`);
      expect(page.ids, `offset ${offset}`).toEqual(leads.slice(offset, offset + 100).map((lead) => lead.id));
      expect(page.total).toBe(leads.length);
    }
    const rare = leads.filter((lead) => lead.source === 'rare');
    expect(rare.length).toBeGreaterThan(700);
    for (const offset of [1000, rare.length - 3]) {
      const page = await ids(`source=common&limit=100&offset=${offset}`);
      const common = leads.filter((lead) => lead.source === 'common');
      expect(page.ids, `common at ${offset}`).toEqual(common.slice(offset, offset + 100).map((lead) => lead.id));
    }
  });

  it('issue 14, C3.10: pages at every offset from 1,000 to the end, one lead at a time at the edges of days, agree with the walk', async () => {
    for (let offset = 1000; offset < leads.length; offset += 97) {
      const page = await ids(`limit=3&offset=${offset}`);
      expect(page.ids, `offset ${offset}`).toEqual(leads.slice(offset, offset + 3).map((lead) => lead.id));
    }
  });
});
