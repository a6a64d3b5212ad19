/**
 * Exact totals (C3.9: "total counts every item matching the filters") while
 * they come from per-day counters plus the partial days at a range's edges:
 * random ranges, sources and codes over leads spread across days, with
 * instants on midnights, compared with a count done here by brute force.
 * Leads created through the API afterwards are counted at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const DAY = 86_400_000;
const START = Date.UTC(2024, 1, 27);
const SOURCES = ['website', 'referral', 'Website', ''];

function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Row {
  created_at: string;
  source: string | null;
  code: string;
}

describe.each(storeKinds())('exact lead totals on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  const rows: Row[] = [];
  const next = generator(7);
  const instant = () => {
    const day = START + Math.floor(next() * 8) * DAY;
    const roll = next();
    const offset = roll < 0.15 ? 0 : roll < 0.2 ? DAY - 1 : Math.floor(next() * DAY);
    return new Date(day + offset).toISOString();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Totals');
    for (let index = 0; index < 400; index += 1) {
      const source = next() < 0.1 ? null : SOURCES[Math.floor(next() * SOURCES.length)]!;
      rows.push({ created_at: instant(), source, code: `c${index % 37}` });
    }
    await importRows(t, ws.id, 'leads', rows as unknown as Record<string, unknown>[]);
    const other = await t.createWorkspace('Totals, elsewhere');
    await importRows(t, other.id, 'leads', rows.slice(0, 50) as unknown as Record<string, unknown>[]);
  });
  afterAll(async () => t?.close());

  const total = async (query: Record<string, string>) => {
    const response = await t.as(ws, { url: `/api/v1/leads?limit=1&${new URLSearchParams(query)}` });
    expect(response.statusCode, JSON.stringify(query)).toBe(200);
    return response.json().pagination.total as number;
  };
  const expected = (query: Record<string, string>) =>
    rows.filter(
      (row) =>
        (query.source === undefined || row.source === query.source) &&
        (query.code === undefined || row.code === query.code) &&
        (query.created_after === undefined || row.created_at > query.created_after) &&
        (query.created_before === undefined || row.created_at < query.created_before),
    ).length;

  it('C3.9, C3.11: totals of random ranges, sources and codes equal a brute-force count', async () => {
    const bounds = () => {
      const roll = next();
      if (roll < 0.25) return new Date(START + Math.floor(next() * 9) * DAY).toISOString();
      if (roll < 0.45) return rows[Math.floor(next() * rows.length)]!.created_at;
      return new Date(START - DAY + Math.floor(next() * 10 * DAY)).toISOString();
    };
    for (let round = 0; round < 150; round += 1) {
      const query: Record<string, string> = {};
      if (next() < 0.7) query.created_after = bounds();
      if (next() < 0.7) query.created_before = bounds();
      if (next() < 0.4) query.source = SOURCES[Math.floor(next() * SOURCES.length)]!;
      if (next() < 0.1) query.code = `c${Math.floor(next() * 40)}`;
      expect(await total(query), JSON.stringify(query)).toBe(expected(query));
    }
  });

  it('C3.9: the whole workspace, a source alone, an empty and an inverted range', async () => {
    expect(await total({})).toBe(rows.length);
    for (const source of SOURCES) expect(await total({ source })).toBe(expected({ source }));
    const day = new Date(START + 3 * DAY).toISOString();
    expect(await total({ created_after: day, created_before: day })).toBe(0);
    expect(await total({ created_after: new Date(START + 5 * DAY).toISOString(), created_before: day })).toBe(0);
  });

  it('C3.9: a lead created through the API is counted in the very next total', async () => {
    const before = await total({ source: 'website' });
    const everything = await total({});
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'website' } });
    expect(created.statusCode).toBe(201);
    rows.push({ created_at: created.json().data.created_at, source: 'website', code: 'new' });
    expect(await total({ source: 'website' })).toBe(before + 1);
    expect(await total({})).toBe(everything + 1);
    const at = created.json().data.created_at as string;
    expect(await total({ created_after: new Date(Date.parse(at) - 1).toISOString() })).toBe(1);
  });
});
