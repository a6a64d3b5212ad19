/**
 * Leads answered as SQLite renders them (issue 24, lead-text.ts): GET by id
 * and the list must write, byte for byte, what the hand-written serializer
 * writes from the lead's fields (lead.serializer.ts), for strings that need
 * escaping (quotes, backslashes, every short and long control escape,
 * non-ASCII, astral, U+2028) and for stored JSON and nulls alike. Run on both
 * stores: PostgreSQL reads the fields and serializes them, and must agree
 * (as JSON: its jsonb writes its own spacing inside the JSON fields).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadJson } from '../../src/http/serializers/lead.serializer.js';
import type { Lead } from '../../src/schemas/resources.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

const NASTY = 'quote " backslash \\ slash / \b\f\n\r\t \u0001\u001f\u007f é 😀 \u2028 </script>';

describe.each(storeKinds())('leads as rendered text on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Lead text');
    const bodies = [
      { code: NASTY, source: 'tab\there', properties: { text: NASTY }, location: { city: 'Zürich' }, summary: { score: 1.5 } },
      { code: null, source: null },
      { source: 'website', properties: { n: -0.25 } },
    ];
    for (const payload of bodies) {
      const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload });
      expect(created.statusCode, created.body).toBe(201);
      ids.unshift(created.json().data.id as string);
    }
  });
  afterAll(async () => t?.close());

  /** the serializer's own text of a lead as the response holds it (its JSON fields written by JSON.stringify) */
  const serialized = (lead: Lead) => leadJson(lead);
  /** byte for byte on SQLite, which keeps JSON fields as written; PostgreSQL's jsonb writes its own spacing */
  const expectWritten = (body: string, expected: string) =>
    kind === 'sqlite' ? expect(body).toBe(expected) : expect(JSON.parse(body)).toEqual(JSON.parse(expected));

  it('issue 24: GET by id writes exactly what the serializer writes for its fields', async () => {
    for (const id of ids) {
      const response = await t.as(ws, { url: `/api/v1/leads/${id}` });
      expect(response.statusCode).toBe(200);
      const { data } = response.json() as { data: Lead };
      expectWritten(response.body, `{"data":${serialized(data)}}`);
    }
    const first = (await t.as(ws, { url: `/api/v1/leads/${ids[2]}` })).json().data as Lead;
    expect(first.code).toBe(NASTY);
    expect(first.source).toBe('tab\there');
    expect(first.properties).toEqual({ text: NASTY });
    expect(first.summary).toEqual({ score: 1.5 });
  });

  it('issue 24: a page of the list writes exactly what the serializer writes, in order, with its total', async () => {
    for (const query of ['', '?limit=2', '?source=website']) {
      const response = await t.as(ws, { url: `/api/v1/leads${query}` });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: Lead[]; pagination: { limit: number; offset: number; total: number } };
      const { limit, offset, total } = body.pagination;
      expectWritten(response.body, `{"data":[${body.data.map(serialized).join(',')}],"pagination":{"limit":${limit},"offset":${offset},"total":${total}}}`);
      expect(body.data.map((lead) => lead.id)).toEqual(query === '?source=website' ? [ids[0]] : ids.slice(0, query === '?limit=2' ? 2 : 3));
    }
  });

  it('issue 24: an unknown lead is still 404', async () => {
    const response = await t.as(ws, { url: '/api/v1/leads/00000000-0000-4000-8000-000000000000' });
    expect(response.statusCode).toBe(404);
  });
});
