/**
 * A cap on stored objects (issue 9, item 8): each JSON object field of a
 * body or an import line (a lead's properties and summary, an identity's
 * traits, …) is at most 32 KiB as compact JSON, so a page of 100 leads is a
 * few MiB at most. Over the cap is a 400 naming the field (C3.5), and the
 * import refuses the line, on both stores.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_FIELD_BYTES } from '../../src/schemas/text-guards.js';
import { ImportValidationError } from '../../src/services/tenant/import/import.service.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

/** an object whose compact JSON is exactly `bytes` long */
const sized = (bytes: number, char = 'n') => ({ notes: char.repeat(bytes - '{"notes":""}'.length) });

describe.each(storeKinds())('stored object sizes on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Sizes');
  });
  afterAll(async () => t?.close());

  it('issue 9: properties of exactly 32 KiB are stored; one byte more is 400 naming the field, and nothing is written', async () => {
    expect(JSON.stringify(sized(MAX_JSON_FIELD_BYTES)).length).toBe(MAX_JSON_FIELD_BYTES);
    const fits = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'fits', properties: sized(MAX_JSON_FIELD_BYTES) } });
    expect(fits.statusCode).toBe(201);
    const over = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'over', summary: sized(MAX_JSON_FIELD_BYTES + 1) } });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: 'invalid_request',
      message: 'summary must be at most 32768 bytes as JSON (32 KiB)',
      details: { fields: { summary: 'must be at most 32768 bytes as JSON (32 KiB)' } },
    });
    // the API answers {data: LEAD}: the id is data.id
    const id = (fits.json() as { data: { id: string } }).data.id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const patch = (properties: object) =>
      t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${id}`, headers: { 'content-type': 'application/json' }, payload: { properties } });
    const patched = await patch(sized(MAX_JSON_FIELD_BYTES + 1, 'p'));
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ details: { fields: { properties: 'must be at most 32768 bytes as JSON (32 KiB)' } } });
    // the refused PATCH changed nothing; one at exactly the cap is stored
    const stored = await t.as(ws, { method: 'GET', url: `/api/v1/leads/${id}` });
    expect(stored.json().data.properties).toEqual(sized(MAX_JSON_FIELD_BYTES));
    const atCap = await patch(sized(MAX_JSON_FIELD_BYTES, 'q'));
    expect(atCap.statusCode).toBe(200);
    expect(atCap.json().data.properties).toEqual(sized(MAX_JSON_FIELD_BYTES, 'q'));
    const list = await t.as(ws, { method: 'GET', url: '/api/v1/leads?limit=100' });
    expect(list.json().data.map((lead: { code: string }) => lead.code)).toEqual(['fits']);
  });

  it('issue 9: an import line over the cap is refused, and the import writes nothing', async () => {
    const lines = [
      JSON.stringify({ id: crypto.randomUUID(), code: 'ok', properties: { a: 1 } }),
      JSON.stringify({ id: crypto.randomUUID(), code: 'big', properties: sized(MAX_JSON_FIELD_BYTES + 1) }),
    ].join('\n');
    const outcome = await t.services.forWorkspace(ws.id).imports.run('leads', Readable.from([lines])).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(ImportValidationError);
    expect((outcome as Error).message).toMatch(/line 2: .*properties.*32768 bytes/);
    const list = await t.as(ws, { method: 'GET', url: '/api/v1/leads?limit=100' });
    expect(list.json().data.map((lead: { code: string }) => lead.code)).toEqual(['fits']);
  });
});
