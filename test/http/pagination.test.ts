/**
 * List paging, order and filters, on GET /api/v1/leads: the limit and offset
 * rules and their errors (CONTRACT C3.9), the newest-first order with its id
 * tie-break that makes pages never skip or repeat (C3.10), and the lead
 * filters with their exact and strict semantics (C3.11).
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

type Row = {
  id: string;
  created_at: string;
  source?: string | null;
  code?: string | null;
};

const LEAD_COUNT = 120;

/** The order of C3.10: created_at descending, then id descending. */
function newestFirst(rows: Row[]): string[] {
  return [...rows]
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))
    .map((row) => row.id);
}

/**
 * 120 leads over 60 instants: the first 80 four to an instant, the rest one
 * each. Ids ascend with the index, so within a shared instant the expected
 * order is the reverse of the index; rows are written in a scrambled order so
 * that neither insertion order nor its reverse is the list order.
 */
function pagedLeads(): Row[] {
  const ids = Array.from({ length: LEAD_COUNT }, () => randomUUID()).sort();
  const base = Date.UTC(2024, 0, 1);
  const rows = ids.map((id, index) => {
    const instant = index < 80 ? Math.floor(index / 4) : index - 60;
    return { id, created_at: new Date(base + instant * 61_001).toISOString() };
  });
  return rows.map((_, index) => rows[(index * 37) % LEAD_COUNT] as Row);
}

const ids = (response: LightMyRequestResponse): string[] =>
  response.json().data.map((lead: { id: string }) => lead.id);

describe.each(storeKinds())('lead pagination, order and filters on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let rows: Row[];
  let expected: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Paged');
    const noise = await t.createWorkspace('Noise');
    rows = pagedLeads();
    expected = newestFirst(rows);
    await importRows(t, ws.id, 'leads', rows);
    await importRows(t, noise.id, 'leads', [{ created_at: '2024-01-01T00:30:00.000Z' }]);
  });
  afterAll(async () => t?.close());

  /** GET /api/v1/leads with a raw query string, exactly as written. */
  const leads = (query = '', workspace = ws) => t.as(workspace, { method: 'GET', url: `/api/v1/leads?${query}` });

  const expectBadParameters = (response: LightMyRequestResponse, parameters: string[]) => {
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: { parameters: expect.any(Object) },
    });
    expect(Object.keys(body.details.parameters).sort()).toEqual([...parameters].sort());
    for (const reason of Object.values(body.details.parameters)) expect(typeof reason).toBe('string');
  };

  describe('C3.9: limit and offset', () => {
    it('C3.9: without parameters the page is limit 50 at offset 0, with the exact total', async () => {
      const response = await leads();
      expect(response.statusCode).toBe(200);
      expect(response.json().pagination).toEqual({ limit: 50, offset: 0, total: LEAD_COUNT });
      expect(ids(response)).toEqual(expected.slice(0, 50));
    });

    it('C3.9: limit=100 gives 100 leads', async () => {
      const response = await leads('limit=100');
      expect(response.statusCode).toBe(200);
      expect(response.json().pagination).toEqual({ limit: 100, offset: 0, total: LEAD_COUNT });
      expect(ids(response)).toEqual(expected.slice(0, 100));
    });

    it('C3.9: a limit above 100 is lowered to 100 and pagination.limit says 100', async () => {
      for (const limit of ['101', '100000']) {
        const response = await leads(`limit=${limit}&offset=10`);
        expect(response.statusCode, limit).toBe(200);
        expect(response.json().pagination, limit).toEqual({ limit: 100, offset: 10, total: LEAD_COUNT });
        expect(ids(response), limit).toEqual(expected.slice(10, 110));
      }
    });

    it('C3.9: a limit that is not an integer of at least 1 is 400 naming limit', async () => {
      for (const limit of ['0', '-1', '1.5', 'abc', '', '0x10', ' 5', '5abc']) {
        const response = await leads(`limit=${encodeURIComponent(limit)}`);
        expectBadParameters(response, ['limit']);
      }
    });

    it('C3.9: an offset that is not an integer of at least 0 is 400 naming offset', async () => {
      for (const offset of ['-1', 'abc', '1.5', '', '0x10']) {
        const response = await leads(`offset=${encodeURIComponent(offset)}`);
        expectBadParameters(response, ['offset']);
      }
    });

    it('C3.9, C3.5: several bad parameters at once are all named', async () => {
      expectBadParameters(await leads('limit=abc&offset=-1'), ['limit', 'offset']);
      expectBadParameters(await leads('limit=0&offset=x&created_after=yesterday&created_before=2024-13-01'), [
        'limit',
        'offset',
        'created_after',
        'created_before',
      ]);
    });

    it('C3.9: a repeated parameter is 400 naming it', async () => {
      expectBadParameters(await leads('limit=1&limit=2'), ['limit']);
      expectBadParameters(await leads('limit=5&limit=5'), ['limit']);
      expectBadParameters(await leads('source=a&source=b'), ['source']);
      expectBadParameters(await leads('offset=0&code=x&offset=1'), ['offset']);
    });

    it('C3.9: unknown parameters are ignored', async () => {
      const plain = await leads('limit=5');
      const response = await leads('limit=5&foo=bar&order=created_at&order_by=asc&page=3');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(plain.json());
      expect(ids(response)).toEqual(expected.slice(0, 5));
    });

    it('C3.9: an offset at or beyond the end gives no leads and the exact total', async () => {
      for (const offset of [LEAD_COUNT, LEAD_COUNT + 1, 100_000]) {
        const response = await leads(`offset=${offset}&limit=10`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ data: [], pagination: { limit: 10, offset, total: LEAD_COUNT } });
      }
      const last = await leads(`offset=${LEAD_COUNT - 3}&limit=10`);
      expect(ids(last)).toEqual(expected.slice(LEAD_COUNT - 3));
      expect(last.json().pagination).toEqual({ limit: 10, offset: LEAD_COUNT - 3, total: LEAD_COUNT });
    });
  });

  describe('C3.10: order', () => {
    it('C3.10: leads come newest first, ties on created_at broken by id descending', async () => {
      const first = await leads('limit=100');
      const rest = await leads('limit=100&offset=100');
      const all = [...first.json().data, ...rest.json().data];
      expect(all.map((lead: { id: string }) => lead.id)).toEqual(expected);
      const createdAt = new Map(rows.map((row) => [row.id, row.created_at]));
      for (const lead of all) expect(lead.created_at).toBe(createdAt.get(lead.id));
      for (let index = 1; index < all.length; index += 1) {
        const [before, after] = [all[index - 1], all[index]];
        const ordered =
          before.created_at > after.created_at || (before.created_at === after.created_at && before.id > after.id);
        expect(ordered, `${before.id} before ${after.id}`).toBe(true);
      }
    });

    it('C3.10: walking every page with limit=7 returns each lead once, no repeat, no gap, same order', async () => {
      const walked: string[] = [];
      for (let offset = 0; offset < LEAD_COUNT; offset += 7) {
        const response = await leads(`limit=7&offset=${offset}`);
        expect(response.statusCode).toBe(200);
        expect(response.json().pagination).toEqual({ limit: 7, offset, total: LEAD_COUNT });
        expect(response.json().data.length).toBe(Math.min(7, LEAD_COUNT - offset));
        walked.push(...ids(response));
      }
      expect(walked.length).toBe(LEAD_COUNT);
      expect(new Set(walked).size).toBe(LEAD_COUNT);
      expect(walked).toEqual(expected);
    });
  });

  describe('C3.11: lead filters', () => {
    let fw: TestWorkspace;
    const filtered: (Row & { name: string })[] = [
      { name: 'earlyWebsite', id: randomUUID(), source: 'Website', code: 'B', created_at: '2024-04-15T08:00:00.000Z' },
      { name: 'justBefore', id: randomUUID(), source: 'Website', code: 'A-1', created_at: '2024-04-30T23:59:59.999Z' },
      { name: 'atBound', id: randomUUID(), source: 'website', code: 'A-2', created_at: '2024-05-01T00:00:00.000Z' },
      { name: 'justAfter', id: randomUUID(), source: 'Website', code: 'A-1', created_at: '2024-05-01T00:00:00.001Z' },
      { name: 'referral', id: randomUUID(), source: 'referral', code: 'a-1', created_at: '2024-05-02T12:00:00.000Z' },
      { name: 'bare', id: randomUUID(), source: null, code: null, created_at: '2024-05-03T00:00:00.000Z' },
      { name: 'spaced', id: randomUUID(), source: 'Website ', code: 'A-1 ', created_at: '2024-05-10T00:00:00.000Z' },
      { name: 'sameAtBound', id: randomUUID(), source: 'Website', code: 'C', created_at: '2024-05-01T00:00:00.000Z' },
    ];
    const byName = new Map(filtered.map((row) => [row.name, row]));

    beforeAll(async () => {
      fw = await t.createWorkspace('Filtered');
      await importRows(
        t,
        fw.id,
        'leads',
        filtered.map(({ name: _name, ...row }) => row),
      );
    });

    /** Asserts the filtered list is exactly the named leads, in list order, with the exact total. */
    const expectMatches = async (params: Record<string, string>, names: string[]) => {
      const query = new URLSearchParams(params).toString();
      const response = await leads(query, fw);
      expect(response.statusCode, query).toBe(200);
      const wanted = newestFirst(names.map((name) => byName.get(name) as Row));
      expect(ids(response), query).toEqual(wanted);
      expect(response.json().pagination, query).toEqual({ limit: 50, offset: 0, total: names.length });
    };

    it('C3.11: source is exact and case-sensitive', async () => {
      await expectMatches({ source: 'Website' }, ['earlyWebsite', 'justBefore', 'justAfter', 'sameAtBound']);
      await expectMatches({ source: 'website' }, ['atBound']);
      await expectMatches({ source: 'Website ' }, ['spaced']);
      await expectMatches({ source: 'Web' }, []);
      await expectMatches({ source: 'WEBSITE' }, []);
      await expectMatches({ source: '%' }, []);
    });

    it('C3.11: code is exact', async () => {
      await expectMatches({ code: 'A-1' }, ['justBefore', 'justAfter']);
      await expectMatches({ code: 'a-1' }, ['referral']);
      await expectMatches({ code: 'A' }, []);
      await expectMatches({ code: 'A-_' }, []);
    });

    it('C3.11: created_after and created_before are strict: a lead exactly at the bound is in neither', async () => {
      const bound = '2024-05-01T00:00:00.000Z';
      await expectMatches({ created_after: bound }, ['justAfter', 'referral', 'bare', 'spaced']);
      await expectMatches({ created_before: bound }, ['earlyWebsite', 'justBefore']);
      await expectMatches({ created_after: bound, created_before: bound }, []);
    });

    it('C3.11: a date alone is 00:00Z of that day', async () => {
      await expectMatches({ created_after: '2024-05-01' }, ['justAfter', 'referral', 'bare', 'spaced']);
      await expectMatches({ created_before: '2024-05-01' }, ['earlyWebsite', 'justBefore']);
      await expectMatches({ created_after: '2024-05-03' }, ['spaced']);
    });

    it('C3.11: bounds with an offset, or without seconds, name the same instant', async () => {
      const after = ['justAfter', 'referral', 'bare', 'spaced'];
      const before = ['earlyWebsite', 'justBefore'];
      for (const bound of [
        '2024-05-01T02:00:00+02:00',
        '2024-04-30T20:00:00-04:00',
        '2024-05-01T05:30+05:30',
        '2024-05-01T00:00Z',
      ]) {
        await expectMatches({ created_after: bound }, after);
        await expectMatches({ created_before: bound }, before);
      }
    });

    it('C3.11: a bound below the millisecond compares exactly', async () => {
      const bound = '2024-05-01T00:00:00.0005Z';
      await expectMatches({ created_before: bound }, ['earlyWebsite', 'justBefore', 'atBound', 'sameAtBound']);
      await expectMatches({ created_after: bound }, ['justAfter', 'referral', 'bare', 'spaced']);
      const late = '2024-04-30T23:59:59.9995Z';
      await expectMatches({ created_after: late }, [
        'atBound',
        'sameAtBound',
        'justAfter',
        'referral',
        'bare',
        'spaced',
      ]);
      await expectMatches({ created_before: late }, ['earlyWebsite', 'justBefore']);
    });

    it('C3.11: an invalid date is 400 naming the parameter', async () => {
      for (const value of ['2024-02-30', '2024-13-01', 'yesterday', '2024-05-01T25:00Z', '', '2024-5-1']) {
        for (const parameter of ['created_after', 'created_before']) {
          const response = await leads(`${parameter}=${encodeURIComponent(value)}`, fw);
          expectBadParameters(response, [parameter]);
        }
      }
    });

    it('C3.11: source, code and a range combine, with exact totals and paging', async () => {
      const range = { created_after: '2024-04-30', created_before: '2024-05-02T12:00:00Z' };
      await expectMatches(range, ['justBefore', 'atBound', 'sameAtBound', 'justAfter']);
      await expectMatches({ ...range, source: 'Website' }, ['justBefore', 'sameAtBound', 'justAfter']);
      await expectMatches({ ...range, source: 'Website', code: 'A-1' }, ['justBefore', 'justAfter']);
      await expectMatches({ ...range, source: 'referral' }, []);

      const wanted = newestFirst(['justBefore', 'sameAtBound', 'justAfter'].map((name) => byName.get(name) as Row));
      const query = new URLSearchParams({ ...range, source: 'Website', limit: '2', offset: '1' }).toString();
      const page = await leads(query, fw);
      expect(ids(page)).toEqual(wanted.slice(1, 3));
      expect(page.json().pagination).toEqual({ limit: 2, offset: 1, total: 3 });
    });
  });
});
