/**
 * Large imports (CONTRACT C2.3): on PostgreSQL they load through COPY, whose
 * text format must carry every value unchanged: tabs, newlines, backslashes
 * and unicode in strings and in JSON, nulls, booleans and numbers. The same
 * files on SQLite give the same data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const TRICKY = ['tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', 'quote "x"', 'é ü 😀', '', 'a\\tb'];

describe.each(storeKinds())('bulk imports on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Bulk');
  });
  afterAll(async () => t?.close());

  it('C2.3: hundreds of identities and leads with every kind of value come back exactly', async () => {
    const identities = Array.from({ length: 150 }, (_, index) => ({
      id: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      email: `bulk${index}@example.com`,
      name: TRICKY[index % TRICKY.length]!,
      traits: { note: TRICKY[(index + 1) % TRICKY.length]!, n: index / 3, ok: index % 2 === 0, none: null },
      is_favorite: index % 3 === 0,
      city: index % 4 === 0 ? null : 'Lyon',
      created_at: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
    }));
    await importRows(t, ws.id, 'identities', identities);
    const leads = Array.from({ length: 300 }, (_, index) => ({
      id: `20000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      code: TRICKY[index % TRICKY.length]!,
      source: index % 5 === 0 ? null : `src-${index % 3}`,
      properties: { text: TRICKY[(index + 2) % TRICKY.length]!, list: [1, 'x\ty', null], deep: { a: { b: index } } },
      location: {},
      summary: index % 2 === 0 ? null : { s: TRICKY[index % TRICKY.length]! },
      identity_id: identities[index % identities.length]!.id,
      created_at: new Date(Date.UTC(2025, 1, 1) + index * 3_600_000).toISOString(),
    }));
    await importRows(t, ws.id, 'leads', leads);

    for (const expected of [identities[0]!, identities[4]!, identities[7]!]) {
      const response = await t.as(ws, { url: `/api/v1/identities/${expected.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        email: expected.email,
        name: expected.name,
        traits: expected.traits,
        is_favorite: expected.is_favorite,
        city: expected.city,
        created_at: expected.created_at,
      });
    }
    for (const expected of [leads[0]!, leads[1]!, leads[6]!, leads[8]!, leads[299]!]) {
      const response = await t.as(ws, { url: `/api/v1/leads/${expected.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        code: expected.code,
        source: expected.source,
        properties: expected.properties,
        summary: expected.summary,
        identity_id: expected.identity_id,
        created_at: expected.created_at,
      });
    }
    const listed = (await t.as(ws, { url: '/api/v1/leads?source=src-1&limit=1' })).json();
    expect(listed.pagination.total).toBe(leads.filter((lead) => lead.source === 'src-1').length);
    expect((await t.as(ws, { url: '/api/v1/identities?is_favorite=true&limit=1' })).json().pagination.total).toBe(50);
  });
});
