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
