/**
 * Writes that arrive together (on SQLite they share one commit: GroupCommit):
 * each request still succeeds or fails on its own, a failed one leaves
 * nothing behind, and every acknowledged write is there, counted, afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

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
