/**
 * Leads through the API: creation defaults, reading, references that must stay
 * in the workspace, and both PATCH semantics (CONTRACT C4.1, C4.2, C3.6, C3.7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TIMESTAMP, UUID, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const LEAD_FIELDS = [
  'id',
  'visitor_id',
  'workspace_id',
  'code',
  'source',
  'created_at',
  'updated_at',
  'properties',
  'location',
  'identity_id',
  'session_id',
  'summary',
  'company_id',
].sort();

describe.each(storeKinds())('leads on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Leads A');
    other = await t.createWorkspace('Leads B');
  });
  afterAll(async () => t?.close());

  const post = (body: unknown, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: '/api/v1/leads', payload: body as object });
  const patch = (id: string, body: unknown, contentType = 'application/json', workspace = ws) =>
    t.as(workspace, {
      method: 'PATCH',
      url: `/api/v1/leads/${id}`,
      headers: { 'content-type': contentType },
      payload: JSON.stringify(body),
    });
  const get = (id: string, workspace = ws) => t.as(workspace, { method: 'GET', url: `/api/v1/leads/${id}` });

  describe('POST /api/v1/leads (C4.1)', () => {
    it('creates a lead with the defaults of C4.1, a Location header and exactly the spec fields', async () => {
      const response = await post({});
      expect(response.statusCode).toBe(201);
      const lead = response.json().data;
      expect(Object.keys(lead).sort()).toEqual(LEAD_FIELDS);
      expect(lead.id).toMatch(UUID);
      expect(lead.visitor_id).toMatch(UUID);
      expect(lead.workspace_id).toBe(ws.id);
      expect(lead.code).toBeNull();
      expect(lead.source).toBeNull();
      expect(lead.properties).toEqual({});
      expect(lead.location).toEqual({});
      expect(lead.identity_id).toBeNull();
      expect(lead.session_id).toBeNull();
      expect(lead.summary).toBeNull();
      expect(lead.company_id).toBeNull();
      expect(lead.created_at).toMatch(TIMESTAMP);
      expect(lead.updated_at).toBe(lead.created_at);
      expect(response.headers.location).toBe(`/api/v1/leads/${lead.id}`);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.json())).toEqual(['data']);
    });

    it('stores every field it is given, nested JSON included, and returns it on GET', async () => {
      const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Ida' } })).json()
        .data;
      const [company] = await seedCompanies(t, ws.id, [{ name: 'Acme' }]);
      const body = {
        visitor_id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
        code: 'LD-1',
        source: 'referral',
        properties: { status: 'new', score: 7.5, tags: ['a', 'b'], nested: { deep: { deeper: true } } },
        location: { city: 'Lyon', country: 'FR' },
        identity_id: identity.id,
        session_id: '11111111-2222-4333-8444-555555555555',
        company_id: company,
        summary: { note: 'warm' },
      };
      const created = await post(body);
      expect(created.statusCode).toBe(201);
      const lead = created.json().data;
      expect(lead).toMatchObject({ ...body, visitor_id: body.visitor_id.toLowerCase() });
      const fetched = await get(lead.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual({ data: lead });
      expect(fetched.headers['x-workspace-id']).toBe(ws.id);
    });

    it('C3.7: an identity_id or company_id of another workspace is 403 with details.field and writes nothing', async () => {
      const foreignIdentity = (
        await t.as(other, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Other' } })
      ).json().data.id;
      const [foreignCompany] = await seedCompanies(t, other.id, [{ name: 'Other Co' }]);
      const before = (await t.as(ws, { url: '/api/v1/leads' })).json().pagination.total;

      const byIdentity = await post({ code: 'X', identity_id: foreignIdentity });
      expect(byIdentity.statusCode).toBe(403);
      expect(byIdentity.json()).toEqual({
        error: 'forbidden',
        message: 'access denied to requested resource',
        details: { field: 'identity_id' },
      });
      const byCompany = await post({ company_id: foreignCompany });
      expect(byCompany.statusCode).toBe(403);
      expect(byCompany.json().details).toEqual({ field: 'company_id' });
      const unknown = await post({ company_id: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.statusCode).toBe(403);

      expect((await t.as(ws, { url: '/api/v1/leads' })).json().pagination.total).toBe(before);
    });

    it('C3.7: visitor_id and session_id are free UUIDs', async () => {
      const response = await post({
        visitor_id: '00000000-0000-4000-8000-00000000000a',
        session_id: '00000000-0000-4000-8000-00000000000b',
      });
      expect(response.statusCode).toBe(201);
    });
  });

  describe('GET /api/v1/leads/{id} (C3.6)', () => {
    it('answers 404 with the lead message for an unknown, malformed or foreign id', async () => {
      const foreign = (await post({ code: 'theirs' }, other)).json().data.id;
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', foreign, `${foreign}x`, '%00']) {
        const response = await get(id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual({
          error: 'not_found',
          message: 'lead not found or does not belong to your workspace',
        });
      }
    });

    it('accepts an upper-case id', async () => {
      const lead = (await post({ code: 'case' })).json().data;
      const response = await get(lead.id.toUpperCase());
      expect(response.statusCode).toBe(200);
      expect(response.json().data.id).toBe(lead.id);
    });
  });

  describe('PATCH /api/v1/leads/{id} (C4.2)', () => {
    it('with application/json replaces each object field present whole and refreshes updated_at', async () => {
      const lead = (await post({ properties: { a: 1, keep: { x: 1 } }, location: { city: 'Oslo' } })).json().data;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await patch(lead.id, { properties: { b: 2 } });
      expect(response.statusCode).toBe(200);
      const updated = response.json().data;
      expect(updated.properties).toEqual({ b: 2 });
      expect(updated.location).toEqual({ city: 'Oslo' });
      expect(updated.created_at).toBe(lead.created_at);
      expect(updated.updated_at > lead.updated_at).toBe(true);
      expect((await get(lead.id)).json().data).toEqual(updated);
    });

    it('with application/merge-patch+json merges nested objects and removes members set to null (RFC 7396)', async () => {
      const lead = (
        await post({ properties: { a: 1, drop: true, nested: { x: 1, y: 2 } }, summary: { s: 1, gone: 'yes' } })
      ).json().data;
      const response = await patch(
        lead.id,
        { properties: { drop: null, nested: { y: null, z: 3 }, added: [1, 2] }, summary: { gone: null, t: 2 } },
        'application/merge-patch+json',
      );
      expect(response.statusCode).toBe(200);
      const updated = response.json().data;
      expect(updated.properties).toEqual({ a: 1, nested: { x: 1, z: 3 }, added: [1, 2] });
      expect(updated.summary).toEqual({ s: 1, t: 2 });
    });

    it('merges into a null summary as into an empty object', async () => {
      const lead = (await post({})).json().data;
      const response = await patch(lead.id, { summary: { a: { b: null, c: 1 } } }, 'application/merge-patch+json');
      expect(response.json().data.summary).toEqual({ a: { c: 1 } });
    });

    it('clears the summary and the company with null under both content types', async () => {
      const [company] = await seedCompanies(t, ws.id, [{ name: 'Clearable' }]);
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        const lead = (await post({ summary: { a: 1 }, company_id: company })).json().data;
        const response = await patch(lead.id, { summary: null, company_id: null }, contentType);
        expect(response.statusCode, contentType).toBe(200);
        expect(response.json().data.summary).toBeNull();
        expect(response.json().data.company_id).toBeNull();
      }
    });

    it('sets company_id to a company of the workspace, and answers 403 for another workspace\'s', async () => {
      const [mine] = await seedCompanies(t, ws.id, [{ name: 'Mine' }]);
      const [theirs] = await seedCompanies(t, other.id, [{ name: 'Theirs' }]);
      const lead = (await post({})).json().data;
      expect((await patch(lead.id, { company_id: mine })).json().data.company_id).toBe(mine);
      const forbidden = await patch(lead.id, { company_id: theirs });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().details).toEqual({ field: 'company_id' });
      expect((await get(lead.id)).json().data.company_id).toBe(mine);
    });

    it('rejects fields that cannot be updated with 400 naming each, and changes nothing', async () => {
      const lead = (await post({ code: 'orig', properties: { a: 1 } })).json().data;
      const response = await patch(lead.id, {
        id: '00000000-0000-4000-8000-000000000000',
        code: 'changed',
        source: 'x',
        visitor_id: '00000000-0000-4000-8000-000000000000',
        properties: { a: 2 },
        unknown_field: 1,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error).toBe('invalid_request');
      expect(Object.keys(body.details.fields).sort()).toEqual(['code', 'id', 'source', 'unknown_field', 'visitor_id']);
      expect(body.details.fields.unknown_field).toBe('is not a known field');
      expect(body.details.fields.code).toBe('cannot be set by this request');
      expect((await get(lead.id)).json().data).toEqual(lead);
    });

    it('rejects null for properties and location, which are always objects', async () => {
      const lead = (await post({})).json().data;
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        const response = await patch(lead.id, { properties: null }, contentType);
        expect(response.statusCode, contentType).toBe(400);
        expect(response.json().details.fields.properties).toBe('must be a JSON object');
      }
    });

    it('answers 404 for a lead of another workspace, whatever the body', async () => {
      const theirs = (await post({}, other)).json().data;
      const response = await patch(theirs.id, { properties: { hacked: true } });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('lead not found or does not belong to your workspace');
      expect((await get(theirs.id, other)).json().data.properties).toEqual({});
    });

    it('keeps both of two concurrent merge patches of different keys', async () => {
      const lead = (await post({ properties: { base: 0 } })).json().data;
      const rounds = 20;
      await Promise.all(
        Array.from({ length: rounds }, (_, index) =>
          patch(lead.id, { properties: { [`key${index}`]: index } }, 'application/merge-patch+json'),
        ),
      );
      const properties = (await get(lead.id)).json().data.properties;
      expect(Object.keys(properties).length).toBe(rounds + 1);
      for (let index = 0; index < rounds; index += 1) expect(properties[`key${index}`]).toBe(index);
    });

    it('treats an empty PATCH as no change but a refreshed updated_at', async () => {
      const lead = (await post({ properties: { a: 1 } })).json().data;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${lead.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.properties).toEqual({ a: 1 });
      expect(response.json().data.updated_at > lead.updated_at).toBe(true);
    });
  });
});
