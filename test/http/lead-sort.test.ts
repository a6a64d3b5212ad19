/**
 * C9.3: GET /api/v1/leads?sort= orders by created_at or by summary.score,
 * in both directions, with Link cursors that never skip or repeat a lead:
 * ties broken by id in the sort's direction, leads without a numeric score
 * after every scored one in both directions. The score is the generated
 * column of migration 0015a, so a PATCH of summary re-sorts the lead, and
 * the score order reads the (workspace_id, score, id) index.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface Row {
  id: string;
  created_at: string;
  summary: Record<string, unknown> | null;
}

/** 24 leads: ties of equal scores, a zero, negatives, fractions, and 7 without a numeric score (absent, null summary, text, boolean). */
function scoredLeads(): Row[] {
  const scores: unknown[] = [10, 10, 10, 10, 2.5, 2.5, 0, -1, -1, 99.75, 3, 3, 3, 42, 7, 1e-3, 5];
  const unscored: (Record<string, unknown> | null)[] = [null, {}, { score: 'high' }, { score: true }, { score: null }, { status: 'new' }, null];
  const base = Date.UTC(2025, 2, 1);
  const summaries = [...scores.map((score) => ({ score })), ...unscored];
  return summaries.map((summary, index) => ({
    id: randomUUID(),
    // four to an instant: created_at ties too
    created_at: new Date(base + Math.floor(index / 4) * 60_000).toISOString(),
    summary,
  }));
}

const scoreOf = (row: Row): number | null => (typeof row.summary?.score === 'number' ? row.summary.score : null);

function expectedOrder(rows: Row[], sort: string): string[] {
  const desc = sort.startsWith('-');
  const sign = desc ? -1 : 1;
  const byId = (a: Row, b: Row) => sign * a.id.localeCompare(b.id);
  if (sort.endsWith('created_at')) return [...rows].sort((a, b) => sign * a.created_at.localeCompare(b.created_at) || byId(a, b)).map((r) => r.id);
  const scored = rows.filter((row) => scoreOf(row) !== null).sort((a, b) => sign * ((scoreOf(a) ?? 0) - (scoreOf(b) ?? 0)) || byId(a, b));
  const unscored = rows.filter((row) => scoreOf(row) === null).sort(byId);
  return [...scored, ...unscored].map((r) => r.id);
}

describe.each(storeKinds())('C9.3: lead list sorted by score and created_at on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let rows: Row[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Sorted');
    const noise = await t.createWorkspace('Noise');
    rows = scoredLeads();
    await importRows(t, ws.id, 'leads', rows as unknown as Record<string, unknown>[]);
    await importRows(t, noise.id, 'leads', [{ summary: { score: 1000 } }, { summary: { score: -1000 } }]);
  });
  afterAll(async () => t?.close());

  const get = (url: string) => t.as(ws, { method: 'GET', url });

  /** Every page by following Link from the first, `limit` at a time. */
  async function walk(query: string): Promise<{ ids: string[]; pages: number; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    let url: string | undefined = `/api/v1/leads?${query}`;
    let pages = 0;
    while (url !== undefined) {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      pages += 1;
      totals.push(response.json().pagination.total);
      ids.push(...response.json().data.map((lead: { id: string }) => lead.id));
      const link = response.headers.link as string | undefined;
      url = link === undefined ? undefined : new URL(/<([^>]+)>/.exec(link)?.[1] ?? '').pathname + new URL(/<([^>]+)>/.exec(link)?.[1] ?? '').search;
      expect(pages).toBeLessThan(50);
    }
    return { ids, pages, totals };
  }

  for (const sort of ['-score', 'score', 'created_at', '-created_at']) {
    for (const limit of [1, 3, 7, 17, 100]) {
      it(`C9.3: sort=${sort}, cursors of ${limit}: every lead once, in order (equal scores by id, unscored last)`, async () => {
        const walked = await walk(`sort=${sort}&limit=${limit}`);
        expect(walked.ids).toEqual(expectedOrder(rows, sort));
        expect(walked.pages).toBe(Math.max(1, Math.ceil(rows.length / limit)));
        expect(new Set(walked.totals)).toEqual(new Set([rows.length]));
      });
    }
  }

  it('C9.3: offsets give the same order, a page straddling scored and unscored leads, and one past the scored leads', async () => {
    const expected = expectedOrder(rows, '-score');
    for (const offset of [0, 15, 16, 17, 18, 23, 24, 30]) {
      const response = await get(`/api/v1/leads?sort=-score&limit=4&offset=${offset}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.map((lead: { id: string }) => lead.id)).toEqual(expected.slice(offset, offset + 4));
      expect(response.json().pagination).toEqual({ limit: 4, offset, total: rows.length });
    }
  });

  it('C9.3: filters combine with the score order', async () => {
    const lastInstant = rows[rows.length - 1]?.created_at ?? '';
    const response = await get(`/api/v1/leads?sort=score&limit=100&created_after=${encodeURIComponent(rows[11]?.created_at ?? '')}`);
    expect(response.statusCode).toBe(200);
    const wanted = rows.filter((row) => row.created_at > (rows[11]?.created_at ?? '') && row.created_at <= lastInstant);
    expect(response.json().data.map((lead: { id: string }) => lead.id)).toEqual(expectedOrder(wanted, 'score'));
  });

  it('C9.3: an invalid sort is 400 with details.parameters.sort', async () => {
    for (const sort of ['-updated_at', 'SCORE', '', 'score,id']) {
      const response = await get(`/api/v1/leads?sort=${encodeURIComponent(sort)}`);
      expect(response.statusCode, sort).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_request', message: expect.any(String), details: { parameters: { sort: expect.any(String) } } });
    }
  });

  it('C8.3: a cursor is bound to its order (a -score cursor is refused under score or the default order)', async () => {
    const first = await get('/api/v1/leads?sort=-score&limit=2');
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.link as string)?.[1] ?? '').searchParams.get('cursor') ?? '';
    expect(cursor).not.toBe('');
    for (const query of [`sort=score&cursor=${cursor}`, `cursor=${cursor}`]) {
      const response = await get(`/api/v1/leads?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().details.parameters).toHaveProperty('cursor');
    }
    expect((await get(`/api/v1/leads?sort=-score&cursor=${cursor}`)).statusCode).toBe(200);
  });

  it('C9.3: writing summary.score (PATCH, merge patch, removal) moves the lead', async () => {
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { summary: { score: 100 } } });
    const id = created.json().data.id as string;
    const top = async () => (await get('/api/v1/leads?sort=-score&limit=1')).json().data[0].id as string;
    expect(await top()).toBe(id);
    await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { summary: { score: -50 } } });
    expect(await top()).not.toBe(id);
    const lowest = await get('/api/v1/leads?sort=score&limit=1');
    expect(lowest.json().data[0].id).toBe(id);
    await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { summary: { score: null } } });
    const all = await walk('sort=score&limit=10');
    expect(all.ids[all.ids.length - 1]).toBe(rows.filter((row) => scoreOf(row) === null).map((row) => row.id).concat(id).sort().at(-1));
    expect(all.ids.indexOf(id)).toBeGreaterThan(rows.filter((row) => scoreOf(row) !== null).length - 1);
    await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${id}` });
  });

  it('C9.3: the score order reads the (workspace_id, score, id) index', async () => {
    const db = t.db.database.db;
    const query = sql`select id from leads where workspace_id = ${ws.id} and score is not null order by score desc, id desc limit 10`;
    const plan =
      kind === 'sqlite'
        ? (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((row) => row.detail).join('\n')
        : await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            await sql`set local enable_sort = off`.execute(trx);
            return (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
          });
    expect(plan).toContain('leads_score_idx');
    expect(plan).not.toMatch(/TEMP B-TREE|Sort Key/i);
  });
});
