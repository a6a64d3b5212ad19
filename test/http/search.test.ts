/**
 * Search through the API (CONTRACT C11.3) on both stores: conditions on
 * columns and JSON paths with every operator, groups (any of all) at their
 * limits (5/6 groups, 10/11 conditions), 400s naming the offending condition,
 * strict JSON paths, sorts walked to the end through Link cursors bound to
 * the search, exact totals, and identities and companies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface Lead {
  id: string;
  code: string | null;
  source: string | null;
  created_at: string;
  properties: Record<string, unknown>;
  summary: Record<string, unknown> | null;
}

const LEADS = [
  { code: 'A-1', source: 'Pricing-Page', properties: { plan: 'team', seats: 5, trial: true, nested: { tier: 'gold' } }, summary: { score: 80 } },
  { code: 'A-2', source: 'pricing-page', properties: { plan: 'enterprise', seats: 50, trial: false }, summary: { score: 65 } },
  { code: 'B-1', source: 'blog', properties: { plan: 'free', seats: '7' }, summary: { score: '90' } },
  { code: 'B-2', source: null, properties: { plan: null }, summary: null },
  { code: null, source: 'ads', properties: {}, summary: { score: 70.5 } },
  { code: 'C_%1', source: 'ads', properties: { note: '100% sure_thing' }, summary: { score: 10 } },
];

describe.each(storeKinds())('search on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let leads: Lead[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Search A');
    other = await t.createWorkspace('Search B');
    const made = await t.as(ws, { method: 'POST', url: '/api/v1/leads/batch', payload: { operations: LEADS.map((body) => ({ op: 'create', body })) } });
    leads = made.json().data.map((result: { data: Lead }) => result.data);
    // the other workspace's leads match every search too, and must never show
    await t.as(other, { method: 'POST', url: '/api/v1/leads/batch', payload: { operations: LEADS.map((body) => ({ op: 'create', body })) } });
  });
  afterAll(async () => t?.close());

  const search = (body: unknown, resource = 'leads', url = `/api/v1/${resource}/search`) => t.as(ws, { method: 'POST', url, payload: body as object });
  const where = (...all: unknown[]) => ({ filter: { any: [{ all }] } });
  const codes = async (body: unknown) => {
    const answer = await search(body);
    expect(answer.statusCode, answer.body).toBe(200);
    const json = answer.json();
    expect(json.pagination.total).toBe(json.data.length);
    return (json.data as Lead[]).map((lead) => lead.code).sort((a, b) => String(a).localeCompare(String(b)));
  };

  it('C11.3: no filter is every lead of the workspace, newest first, with the exact total', async () => {
    const answer = await search({});
    expect(answer.statusCode).toBe(200);
    const json = answer.json();
    expect(json.pagination).toEqual({ limit: 50, offset: 0, total: LEADS.length });
    expect(json.data.map((lead: Lead) => lead.id)).toEqual([...leads].reverse().map((lead) => lead.id));
    expect(json.data[0]).toEqual(leads[leads.length - 1]);
  });

  it('C11.3: column operators: eq, neq (rows without the value too), in, contains (case-insensitive, literal % and _), exists', async () => {
    expect(await codes(where({ field: 'source', op: 'eq', value: 'pricing-page' }))).toEqual(['A-2']);
    expect(await codes(where({ field: 'source', op: 'neq', value: 'ads' }))).toEqual(['A-1', 'A-2', 'B-1', 'B-2']);
    expect(await codes(where({ field: 'code', op: 'in', value: ['A-1', 'B-2', 'nope'] }))).toEqual(['A-1', 'B-2']);
    expect(await codes(where({ field: 'source', op: 'contains', value: 'PRICING' }))).toEqual(['A-1', 'A-2']);
    expect(await codes(where({ field: 'code', op: 'contains', value: '_%' }))).toEqual(['C_%1']);
    expect(await codes(where({ field: 'code', op: 'exists', value: false }))).toEqual([null]);
    expect(await codes(where({ field: 'id', op: 'eq', value: leads[0]!.id.toUpperCase() }))).toEqual(['A-1']);
  });

  it('C11.3: instants compare with gt, gte, lt, lte', async () => {
    const third = leads[2]!.created_at;
    const after = await codes(where({ field: 'created_at', op: 'gte', value: third }, { field: 'id', op: 'neq', value: leads[2]!.id }));
    const before = await codes(where({ field: 'created_at', op: 'lt', value: third }));
    // created in order within one transaction: ids break ties, times may be equal
    expect(after.length + before.length + 1).toBeGreaterThanOrEqual(LEADS.length);
    expect(await codes(where({ field: 'created_at', op: 'gt', value: '2000-01-01' }, { field: 'created_at', op: 'lte', value: '2999-01-01T00:00:00Z' }))).toHaveLength(LEADS.length);
    expect(await codes(where({ field: 'created_at', op: 'lt', value: '2000-01-01' }))).toEqual([]);
  });

  it('C11.3: JSON paths compare values of the type given: summary.score numbers, properties strings, booleans, nested keys', async () => {
    expect(await codes(where({ field: 'summary.score', op: 'gte', value: 70 }))).toEqual(['A-1', null]);
    expect(await codes(where({ field: 'summary.score', op: 'lt', value: 70 }))).toEqual(['A-2', 'C_%1']);
    expect(await codes(where({ field: 'summary.score', op: 'eq', value: '90' }))).toEqual(['B-1']);
    expect(await codes(where({ field: 'properties.plan', op: 'in', value: ['team', 'enterprise'] }))).toEqual(['A-1', 'A-2']);
    expect(await codes(where({ field: 'properties.plan', op: 'neq', value: 'team' }))).toEqual(['A-2', 'B-1', 'B-2', 'C_%1', null]);
    expect(await codes(where({ field: 'properties.trial', op: 'eq', value: true }))).toEqual(['A-1']);
    expect(await codes(where({ field: 'properties.trial', op: 'eq', value: false }))).toEqual(['A-2']);
    expect(await codes(where({ field: 'properties.seats', op: 'gt', value: 6 }))).toEqual(['A-2']);
    expect(await codes(where({ field: 'properties.nested.tier', op: 'eq', value: 'gold' }))).toEqual(['A-1']);
    expect(await codes(where({ field: 'properties.note', op: 'contains', value: '% SURE_' }))).toEqual(['C_%1']);
    // JSON null is no value
    expect(await codes(where({ field: 'properties.plan', op: 'exists', value: true }))).toEqual(['A-1', 'A-2', 'B-1']);
    expect(await codes(where({ field: 'summary.score', op: 'exists', value: false }))).toEqual(['B-2']);
  });

  it('C11.3: groups: any of the groups, each all of its conditions', async () => {
    const body = {
      filter: {
        any: [
          { all: [{ field: 'source', op: 'contains', value: 'pricing' }, { field: 'summary.score', op: 'gte', value: 70 }] },
          { all: [{ field: 'properties.plan', op: 'eq', value: 'free' }] },
        ],
      },
    };
    expect(await codes(body)).toEqual(['A-1', 'B-1']);
  });

  it('C11.3: at most 5 groups of 10 conditions: 5 and 10 answer, 6 and 11 are 400 naming the filter part', async () => {
    const condition = { field: 'code', op: 'exists', value: true };
    const groups = (count: number, size: number) => ({ filter: { any: Array.from({ length: count }, () => ({ all: Array.from({ length: size }, () => condition) })) } });
    expect((await search(groups(5, 10))).statusCode).toBe(200);
    const six = await search(groups(6, 1));
    expect(six.statusCode).toBe(400);
    expect(six.json().details.fields).toEqual({ 'filter.any': 'must hold 1 to 5 groups' });
    const eleven = await search({ filter: { any: [{ all: [condition] }, { all: Array.from({ length: 11 }, () => condition) }] } });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().details.fields).toEqual({ 'filter.any[1].all': 'must hold 1 to 10 conditions' });
  });

  it('C11.3: a bad condition is 400 naming it: operator, field, value, an operator that does not fit the field', async () => {
    const ok = { field: 'code', op: 'eq', value: 'x' };
    const cases: [unknown, string][] = [
      [{ field: 'code', op: 'like', value: 'x' }, 'filter.any[1].all[2].op'],
      [{ field: 'workspace_id', op: 'eq', value: 'x' }, 'filter.any[1].all[2].field'],
      [{ field: 'traits.plan', op: 'eq', value: 'x' }, 'filter.any[1].all[2].field'],
      [{ field: 'code', op: 'eq', value: { $ne: 1 } }, 'filter.any[1].all[2].value'],
      [{ field: 'code', op: 'eq', value: 3 }, 'filter.any[1].all[2].value'],
      [{ field: 'created_at', op: 'gt', value: 'yesterday' }, 'filter.any[1].all[2].value'],
      [{ field: 'company_id', op: 'eq', value: 'not-a-uuid' }, 'filter.any[1].all[2].value'],
      [{ field: 'company_id', op: 'contains', value: 'a' }, 'filter.any[1].all[2].op'],
      [{ field: 'code', op: 'in', value: [] }, 'filter.any[1].all[2].value'],
      [{ field: 'code', op: 'in', value: ['a', 2] }, 'filter.any[1].all[2].value[1]'],
      [{ field: 'code', op: 'exists', value: 'yes' }, 'filter.any[1].all[2].value'],
      [{ field: 'summary.score', op: 'gt', value: true }, 'filter.any[1].all[2].value'],
      [{ field: 'code', op: 'eq', value: 'x', extra: 1 }, 'filter.any[1].all[2].extra'],
    ];
    for (const [bad, name] of cases) {
      const answer = await search({ filter: { any: [{ all: [ok] }, { all: [ok, ok, bad] }] } });
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json().error).toBe('invalid_request');
      expect(Object.keys(answer.json().details.fields), JSON.stringify(bad)).toEqual([name]);
    }
    for (const [body, name] of [
      [{ sort: [{ field: 'properties.plan' }] }, 'sort[0].field'],
      [{ sort: [{ field: 'code', order: 'up' }] }, 'sort[0].order'],
      [{ sort: [{ field: 'code' }, { field: 'source' }] }, 'sort'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ where: {} }, 'where'],
    ] as const) {
      const answer = await search(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.json().details.fields)).toEqual([name]);
    }
  });

  it('C11.3: JSON path keys are letters, digits, _ and -: anything else is refused before SQL', async () => {
    for (const field of [`properties.a')--`, 'properties.a"b', 'properties.', 'properties..a', 'properties.a b', `properties.${'k'.repeat(65)}`, `properties${'.k'.repeat(9)}`, 'summary.$.x', 'properties.a[0]']) {
      const answer = await search(where({ field, op: 'eq', value: 'x' }));
      expect(answer.statusCode, field).toBe(400);
      expect(Object.keys(answer.json().details.fields)).toEqual(['filter.any[0].all[0].field']);
    }
    expect(await codes(where({ field: 'properties.some-key_9', op: 'exists', value: true }))).toEqual([]);
  });

  it('C11.3: a sort is walked to its end through Link cursors, bound to the search they came from', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const body = { sort: [{ field: 'code', order }], limit: 2 };
      const seen: Lead[] = [];
      let url = '/api/v1/leads/search';
      for (;;) {
        const answer = await search(body, 'leads', url);
        expect(answer.statusCode).toBe(200);
        expect(answer.json().pagination.total).toBe(LEADS.length);
        seen.push(...answer.json().data);
        const link = answer.headers.link as string | undefined;
        if (link === undefined) break;
        const match = /^<https?:\/\/[^/]+(\/api\/v1\/leads\/search\?cursor=[^>]+)>; rel="next"$/.exec(link);
        expect(match, link).not.toBeNull();
        url = match![1]!;
      }
      // null sorts as the empty text
      const expected = [...leads].sort((a, b) => (a.code ?? '').localeCompare(b.code ?? '', 'en', { sensitivity: 'variant' }) || a.id.localeCompare(b.id));
      const expectedCodes = expected.map((lead) => lead.code);
      expect(new Set(seen.map((lead) => lead.id)).size).toBe(LEADS.length);
      if (order === 'desc') expectedCodes.reverse();
      expect(seen.map((lead) => lead.code)).toEqual(expectedCodes);
    }
    const first = await search({ sort: [{ field: 'code' }], limit: 1 });
    const cursor = decodeURIComponent(/cursor=([^>]+)>/.exec(first.headers.link as string)![1]!);
    expect((await search({ sort: [{ field: 'code' }], limit: 1, cursor })).statusCode).toBe(200);
    for (const body of [{ sort: [{ field: 'code', order: 'desc' }], cursor }, { sort: [{ field: 'source' }], cursor }, { ...where({ field: 'code', op: 'exists', value: true }), sort: [{ field: 'code' }], cursor }]) {
      const answer = await search(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.json().details.fields)).toEqual(['cursor']);
    }
    const elsewhere = await t.as(other, { method: 'POST', url: '/api/v1/leads/search', payload: { sort: [{ field: 'code' }], limit: 1, cursor } });
    expect(elsewhere.statusCode).toBe(400);
  });

  it('C11.3: identities by traits, booleans and text; companies by their fields', async () => {
    for (const payload of [
      { email: 'ada@s.example', name: 'Ada', traits: { plan: 'team', logins: 12 } },
      { email: 'bob@s.example', name: 'Bob', traits: { plan: 'free', logins: 2 } },
    ]) {
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload })).statusCode).toBe(201);
    }
    await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Nobody' } });
    const names = async (body: unknown, resource: string) => {
      const answer = await search(body, resource);
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().data as { name: string }[]).map((item) => item.name);
    };
    expect(await names({ ...where({ field: 'traits.logins', op: 'gte', value: 10 }) }, 'identities')).toEqual(['Ada']);
    expect(await names({ ...where({ field: 'email', op: 'contains', value: '@S.EXAMPLE' }), sort: [{ field: 'name', order: 'desc' }] }, 'identities')).toEqual(['Bob', 'Ada']);
    expect(await names(where({ field: 'is_favorite', op: 'eq', value: false }, { field: 'email', op: 'exists', value: false }), 'identities')).toEqual(['Nobody']);
    const isFavorite = await search(where({ field: 'is_favorite', op: 'contains', value: 'x' }), 'identities');
    expect(isFavorite.json().details.fields).toEqual({ 'filter.any[0].all[0].op': 'must be one of eq, neq, exists for is_favorite' });
    await seedCompanies(t, ws.id, [{ name: 'Acme Software', domain: 'acme.example' }, { name: 'Zeta Foods', domain: null }]);
    expect(await names({ sort: [{ field: 'name' }] }, 'companies')).toEqual(['Acme Software', 'Zeta Foods']);
    expect(await names(where({ field: 'domain', op: 'exists', value: false }), 'companies')).toEqual(['Zeta Foods']);
    expect((await search(where({ field: 'properties.x', op: 'exists', value: true }), 'companies')).statusCode).toBe(400);
  });
});
