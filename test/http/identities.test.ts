/**
 * Visitor identities through the API: creation defaults and validation (C4.3),
 * reading one (C4.5, C3.6), both PATCH semantics (C4.4, C4.2), list filters,
 * order and pagination (C3.9 to C3.11), and an identity's activity and
 * personalities (C4.6).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TIMESTAMP, UUID, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const IDENTITY_FIELDS = [
  'id',
  'workspace_id',
  'visitor_id',
  'email',
  'name',
  'traits',
  'first_seen',
  'last_seen',
  'ip',
  'city',
  'country',
  'is_favorite',
  'created_at',
].sort();

const NOT_FOUND = { error: 'not_found', message: 'identity not found or does not belong to your workspace' };
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A UUID ending in the given number, so tests can choose how ids sort. */
const idEnding = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const freshPrefix = () => randomUUID().slice(0, 8);

describe.each(storeKinds())('identities on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Identities A');
    other = await t.createWorkspace('Identities B');
  });
  afterAll(async () => t?.close());

  const post = (body: unknown, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: '/api/v1/identities', payload: body as object });
  const create = async (body: Record<string, unknown> = {}, workspace = ws) => {
    const response = await post(body, workspace);
    expect(response.statusCode).toBe(201);
    return response.json().data;
  };
  const get = (id: string, workspace = ws) => t.as(workspace, { method: 'GET', url: `/api/v1/identities/${id}` });
  const patch = (id: string, body: unknown, contentType = 'application/json', workspace = ws) =>
    t.as(workspace, {
      method: 'PATCH',
      url: `/api/v1/identities/${id}`,
      headers: { 'content-type': contentType },
      payload: JSON.stringify(body),
    });
  const list = (query: Record<string, string>, workspace = ws) =>
    t.as(workspace, { method: 'GET', url: '/api/v1/identities', query });
  const total = async (workspace = ws) => (await list({}, workspace)).json().pagination.total as number;

  describe('POST /api/v1/identities (C4.3)', () => {
    it('C4.3: creates an identity with the defaults, a Location header and exactly the spec fields', async () => {
      const before = new Date().toISOString();
      const response = await post({});
      const after = new Date().toISOString();
      expect(response.statusCode).toBe(201);
      expect(Object.keys(response.json())).toEqual(['data']);
      const identity = response.json().data;
      expect(Object.keys(identity).sort()).toEqual(IDENTITY_FIELDS);
      expect(identity.id).toMatch(UUID);
      expect(identity.workspace_id).toBe(ws.id);
      expect(identity.visitor_id).toMatch(UUID);
      expect(identity.visitor_id).not.toBe(identity.id);
      expect(identity.email).toBeNull();
      expect(identity.name).toBeNull();
      expect(identity.traits).toEqual({});
      expect(identity.ip).toBeNull();
      expect(identity.city).toBeNull();
      expect(identity.country).toBeNull();
      expect(identity.is_favorite).toBe(false);
      expect(identity.created_at).toMatch(TIMESTAMP);
      expect(identity.created_at >= before && identity.created_at <= after).toBe(true);
      expect(identity.first_seen).toBe(identity.created_at);
      expect(identity.last_seen).toBe(identity.created_at);
      expect(response.headers.location).toBe(`/api/v1/identities/${identity.id}`);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-workspace-id']).toBe(ws.id);
    });

    it('C4.3: generates a different visitor_id for each identity created without one', async () => {
      const first = await create({});
      const second = await create({});
      expect(first.visitor_id).not.toBe(second.visitor_id);
    });

    it('C4.3: stores email, name, nested traits and a given visitor_id (lower-cased), and GET returns the same', async () => {
      const body = {
        email: 'Ada.Lovelace@Example.com',
        name: 'Ada Lovelace',
        traits: { plan: 'pro', seats: 3, tags: ['a', 'b'], nested: { deep: { deeper: true } }, none: null },
        visitor_id: 'ABCDEF01-2345-4678-89AB-CDEF01234567',
      };
      const response = await post(body);
      expect(response.statusCode).toBe(201);
      const identity = response.json().data;
      expect(identity).toEqual({
        id: identity.id,
        workspace_id: ws.id,
        visitor_id: 'abcdef01-2345-4678-89ab-cdef01234567',
        email: 'Ada.Lovelace@Example.com',
        name: 'Ada Lovelace',
        traits: body.traits,
        first_seen: identity.created_at,
        last_seen: identity.created_at,
        ip: null,
        city: null,
        country: null,
        is_favorite: false,
        created_at: identity.created_at,
      });
      const fetched = await get(identity.id);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual({ data: identity });
    });

    it('C3.8: an invalid email is 400 naming email, and nothing is written', async () => {
      const before = await total();
      for (const email of ['not-an-email', 'a@', '@example.com', 'a b@example.com']) {
        const response = await post({ email, name: 'Bad' });
        expect(response.statusCode, email).toBe(400);
        const body = response.json();
        expect(body.error).toBe('invalid_request');
        expect(body.details).toEqual({ fields: { email: 'must be a valid email address' } });
      }
      expect(await total()).toBe(before);
    });

    it('C3.8: email takes at most 320 characters', async () => {
      const domain = '@example.com';
      const longest = `${'a'.repeat(320 - domain.length)}${domain}`;
      expect(longest.length).toBe(320);
      expect((await create({ email: longest })).email).toBe(longest);

      const before = await total();
      const response = await post({ email: `a${longest}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_request');
      expect(response.json().details).toEqual({ fields: { email: 'must be at most 320 characters' } });
      expect(await total()).toBe(before);
    });

    it('C3.8: name takes at most 255 characters', async () => {
      const longest = 'n'.repeat(255);
      expect((await create({ name: longest })).name).toBe(longest);

      const before = await total();
      const response = await post({ name: `${longest}n` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_request');
      expect(response.json().details).toEqual({ fields: { name: 'must be at most 255 characters' } });
      expect(await total()).toBe(before);
    });

    it('C3.8: read-only and unknown fields are 400 naming each, and nothing is written', async () => {
      const before = await total();
      const response = await post({
        name: 'Sneaky',
        id: UNKNOWN_ID,
        workspace_id: other.id,
        is_favorite: true,
        first_seen: '2020-01-01T00:00:00.000Z',
        last_seen: '2020-01-01T00:00:00.000Z',
        created_at: '2020-01-01T00:00:00.000Z',
        ip: '10.0.0.1',
        city: 'Paris',
        country: 'FR',
        favourite: true,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error).toBe('invalid_request');
      const readOnly = 'cannot be set by this request';
      expect(body.details).toEqual({
        fields: {
          id: readOnly,
          workspace_id: readOnly,
          is_favorite: readOnly,
          first_seen: readOnly,
          last_seen: readOnly,
          created_at: readOnly,
          ip: readOnly,
          city: readOnly,
          country: readOnly,
          favourite: 'is not a known field',
        },
      });
      expect(await total()).toBe(before);
    });

    it('C3.8: a malformed visitor_id or non-object traits is 400 naming the field', async () => {
      const before = await total();
      const badVisitor = await post({ visitor_id: 'not-a-uuid' });
      expect(badVisitor.statusCode).toBe(400);
      expect(badVisitor.json().details).toEqual({ fields: { visitor_id: 'must be a UUID' } });
      for (const traits of [[1, 2], 'text', 3]) {
        const badTraits = await post({ traits });
        expect(badTraits.statusCode, JSON.stringify(traits)).toBe(400);
        expect(badTraits.json().error).toBe('invalid_request');
        expect(Object.keys(badTraits.json().details.fields)).toEqual(['traits']);
      }
      expect(await total()).toBe(before);
    });
  });

  describe('GET /api/v1/identities/{id} (C4.5, C3.6)', () => {
    it('C4.5: returns the whole identity', async () => {
      const identity = await create({ email: 'get@example.com', name: 'Get Me', traits: { k: 'v' } });
      const response = await get(identity.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: identity });
      expect(response.headers['x-workspace-id']).toBe(ws.id);
    });

    it('C3.6: answers 404 with the identity message for an unknown, malformed or foreign id', async () => {
      const foreign = (await create({ name: 'Theirs' }, other)).id;
      for (const id of [UNKNOWN_ID, 'not-a-uuid', foreign, `${foreign}x`]) {
        const response = await get(id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect((await get(foreign, other)).statusCode).toBe(200);
    });
  });

  describe('PATCH /api/v1/identities/{id} (C4.4)', () => {
    it('C4.4: sets name, traits and is_favorite and answers 200 with the whole identity', async () => {
      const identity = await create({ email: 'patch@example.com', name: 'Before', traits: { a: 1 } });
      const response = await patch(identity.id, { name: 'After', traits: { b: 2 }, is_favorite: true });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        data: { ...identity, name: 'After', traits: { b: 2 }, is_favorite: true },
      });
      expect((await get(identity.id)).json()).toEqual(response.json());

      const back = await patch(identity.id, { is_favorite: false });
      expect(back.statusCode).toBe(200);
      expect(back.json().data).toEqual({ ...identity, name: 'After', traits: { b: 2 }, is_favorite: false });
    });

    it('C4.4/C4.2: with application/json, traits are replaced as a whole', async () => {
      const identity = await create({ traits: { a: 1, keep: { x: 1 }, list: [1, 2] } });
      const response = await patch(identity.id, { traits: { keep: { y: 2 } } });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.traits).toEqual({ keep: { y: 2 } });
      expect((await get(identity.id)).json().data.traits).toEqual({ keep: { y: 2 } });
    });

    it('C4.4/C4.2: with application/merge-patch+json, traits merge by RFC 7396 (nested merge, null removes)', async () => {
      const identity = await create({
        name: 'Merger',
        traits: { a: 1, drop: true, nested: { x: 1, y: 2, deep: { p: 1, q: 2 } }, list: [1, 2, 3] },
      });
      const response = await patch(
        identity.id,
        { traits: { drop: null, nested: { y: null, z: 3, deep: { q: null } }, list: [9], added: { n: null, m: 1 } } },
        'application/merge-patch+json',
      );
      expect(response.statusCode).toBe(200);
      const expected = { a: 1, nested: { x: 1, z: 3, deep: { p: 1 } }, list: [9], added: { m: 1 } };
      expect(response.json().data).toEqual({ ...identity, traits: expected });
      expect((await get(identity.id)).json().data.traits).toEqual(expected);
    });

    it('C4.4/C4.2: concurrent merge patches of different trait keys all survive', async () => {
      const identity = await create({ traits: { base: 0 } });
      const rounds = 20;
      const responses = await Promise.all(
        Array.from({ length: rounds }, (_, index) =>
          patch(identity.id, { traits: { [`key${index}`]: index } }, 'application/merge-patch+json'),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(rounds).fill(200));
      const expected: Record<string, number> = { base: 0 };
      for (let index = 0; index < rounds; index += 1) expected[`key${index}`] = index;
      expect((await get(identity.id)).json().data.traits).toEqual(expected);
    });

    it('C4.4: name can be set to null under both content types', async () => {
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        const identity = await create({ name: 'Named', traits: { t: 1 } });
        const response = await patch(identity.id, { name: null }, contentType);
        expect(response.statusCode, contentType).toBe(200);
        expect(response.json().data).toEqual({ ...identity, name: null });
        expect((await get(identity.id)).json().data.name).toBeNull();
      }
    });

    it('C4.4: fields that cannot be updated are 400 naming each, and nothing changes', async () => {
      const identity = await create({ email: 'fixed@example.com', name: 'Fixed', traits: { a: 1 } });
      const response = await patch(identity.id, {
        name: 'Changed',
        traits: { a: 2 },
        is_favorite: true,
        email: 'changed@example.com',
        visitor_id: UNKNOWN_ID,
        id: UNKNOWN_ID,
        workspace_id: other.id,
        first_seen: '2020-01-01T00:00:00.000Z',
        last_seen: '2020-01-01T00:00:00.000Z',
        created_at: '2020-01-01T00:00:00.000Z',
        ip: '10.0.0.1',
        city: 'Paris',
        country: 'FR',
        unknown_field: 1,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error).toBe('invalid_request');
      const readOnly = 'cannot be set by this request';
      expect(body.details).toEqual({
        fields: {
          email: readOnly,
          visitor_id: readOnly,
          id: readOnly,
          workspace_id: readOnly,
          first_seen: readOnly,
          last_seen: readOnly,
          created_at: readOnly,
          ip: readOnly,
          city: readOnly,
          country: readOnly,
          unknown_field: 'is not a known field',
        },
      });
      expect((await get(identity.id)).json().data).toEqual(identity);
    });

    it('C3.8: wrong types are 400 and change nothing', async () => {
      const identity = await create({ name: 'Typed', traits: { a: 1 } });
      const cases: [Record<string, unknown>, string, string][] = [
        [{ is_favorite: 'true' }, 'application/json', 'is_favorite'],
        [{ is_favorite: null }, 'application/json', 'is_favorite'],
        [{ name: 5 }, 'application/json', 'name'],
        [{ name: 'n'.repeat(256) }, 'application/json', 'name'],
        [{ traits: null }, 'application/json', 'traits'],
        [{ traits: null }, 'application/merge-patch+json', 'traits'],
        [{ traits: [1] }, 'application/merge-patch+json', 'traits'],
      ];
      for (const [body, contentType, field] of cases) {
        const response = await patch(identity.id, body, contentType);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error).toBe('invalid_request');
        expect(Object.keys(response.json().details.fields), JSON.stringify(body)).toEqual([field]);
      }
      expect((await get(identity.id)).json().data).toEqual(identity);
    });

    it('C4.4: an empty PATCH changes nothing and returns the identity', async () => {
      const identity = await create({ name: 'Still', traits: { a: 1 } });
      const response = await t.as(ws, { method: 'PATCH', url: `/api/v1/identities/${identity.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: identity });
    });

    it('C3.6: answers 404 for an unknown, malformed or foreign identity, and leaves the foreign one unchanged', async () => {
      const theirs = await create({ name: 'Theirs', traits: { t: 1 } }, other);
      for (const id of [theirs.id, UNKNOWN_ID, 'not-a-uuid']) {
        for (const contentType of ['application/json', 'application/merge-patch+json']) {
          const response = await patch(id, { name: 'Hacked', traits: { hacked: true }, is_favorite: true }, contentType);
          expect(response.statusCode, `${id} ${contentType}`).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND);
        }
      }
      expect((await get(theirs.id, other)).json().data).toEqual(theirs);
    });
  });

  describe('GET /api/v1/identities filters, order and pagination (C3.9 to C3.11)', () => {
    let lw: TestWorkspace;
    const prefix = freshPrefix();
    const v1 = idEnding(freshPrefix(), 1);
    const v2 = idEnding(freshPrefix(), 2);
    const v3 = idEnding(freshPrefix(), 3);
    // Named by their place in the expected order; ties on created_at are broken by id descending.
    const rows = {
      a: { id: idEnding(prefix, 1), email: 'Foo@Example.com', visitor_id: v1, is_favorite: true, created_at: '2024-01-01T00:00:00.000Z' },
      b: { id: idEnding(prefix, 2), email: 'bar@example.com', visitor_id: v1, is_favorite: false, created_at: '2024-01-02T12:00:00.000Z' },
      c: { id: idEnding(prefix, 3), email: 'foo@example.com.au', visitor_id: v2, is_favorite: true, created_at: '2024-01-02T12:00:00.000Z' },
      d: { id: idEnding(prefix, 5), email: null, visitor_id: v2, is_favorite: false, created_at: '2024-01-03T00:00:00.000Z' },
      e: { id: idEnding(prefix, 4), email: 'baz@example.com', visitor_id: v3, is_favorite: true, created_at: '2024-01-03T00:00:00.000Z' },
    };
    const ids = (response: { json(): { data: { id: string }[] } }) => response.json().data.map((item) => item.id);

    beforeAll(async () => {
      lw = await t.createWorkspace('Identities list');
      // inserted out of order, so the order of the answer comes from the query alone
      await importRows(t, lw.id, 'identities', [rows.c, rows.a, rows.e, rows.b, rows.d]);
      await importRows(t, other.id, 'identities', [{ email: 'foo@example.com', visitor_id: v1, is_favorite: true }]);
    });

    const query = (params: Record<string, string>) => list(params, lw);

    it('C3.10: newest first, ties broken by id descending, with the whole identities and an exact total', async () => {
      const response = await query({});
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(['data', 'pagination']);
      expect(ids(response)).toEqual([rows.d.id, rows.e.id, rows.c.id, rows.b.id, rows.a.id]);
      expect(response.json().pagination).toEqual({ limit: 50, offset: 0, total: 5 });
      expect(response.json().data[4]).toEqual({
        ...rows.a,
        workspace_id: lw.id,
        name: null,
        traits: {},
        first_seen: rows.a.created_at,
        last_seen: rows.a.created_at,
        ip: null,
        city: null,
        country: null,
      });
    });

    it('C3.9: pages with limit and offset, total counting every match', async () => {
      const page = await query({ limit: '2', offset: '1' });
      expect(page.statusCode).toBe(200);
      expect(ids(page)).toEqual([rows.e.id, rows.c.id]);
      expect(page.json().pagination).toEqual({ limit: 2, offset: 1, total: 5 });
      const beyond = await query({ limit: '2', offset: '5' });
      expect(beyond.json()).toEqual({ data: [], pagination: { limit: 2, offset: 5, total: 5 } });
      const filtered = await query({ is_favorite: 'true', limit: '1', offset: '1' });
      expect(ids(filtered)).toEqual([rows.c.id]);
      expect(filtered.json().pagination).toEqual({ limit: 1, offset: 1, total: 3 });
    });

    it('C3.11: email is exact and case-insensitive', async () => {
      const found = await query({ email: 'foo@EXAMPLE.com' });
      expect(found.statusCode).toBe(200);
      expect(ids(found)).toEqual([rows.a.id]);
      expect(found.json().data[0].email).toBe('Foo@Example.com');
      expect(found.json().pagination.total).toBe(1);
      for (const email of ['foo@example.co', 'foo', 'oo@example.com', 'foo@example.com.', '%@example.com']) {
        const none = await query({ email });
        expect(none.statusCode, email).toBe(200);
        expect(none.json(), email).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
      }
      expect(ids(await query({ email: 'FOO@example.com.AU' }))).toEqual([rows.c.id]);
    });

    it('C3.11: visitor_id filters by visitor (any case), and a malformed one is 400 naming visitor_id', async () => {
      const found = await query({ visitor_id: v1.toUpperCase() });
      expect(found.statusCode).toBe(200);
      expect(ids(found)).toEqual([rows.b.id, rows.a.id]);
      expect(found.json().pagination.total).toBe(2);
      expect(ids(await query({ visitor_id: v2 }))).toEqual([rows.d.id, rows.c.id]);
      expect((await query({ visitor_id: UNKNOWN_ID })).json().pagination.total).toBe(0);

      for (const visitorId of ['not-a-uuid', `${v1}0`, '']) {
        const bad = await query({ visitor_id: visitorId });
        expect(bad.statusCode, visitorId).toBe(400);
        expect(bad.json().error).toBe('invalid_request');
        expect(bad.json().details).toEqual({ parameters: { visitor_id: 'must be a UUID' } });
      }
    });

    it('C3.11: is_favorite takes true or false, anything else is 400 naming is_favorite', async () => {
      const favorites = await query({ is_favorite: 'true' });
      expect(ids(favorites)).toEqual([rows.e.id, rows.c.id, rows.a.id]);
      expect(favorites.json().pagination.total).toBe(3);
      const others = await query({ is_favorite: 'false' });
      expect(ids(others)).toEqual([rows.d.id, rows.b.id]);
      expect(others.json().pagination.total).toBe(2);

      for (const value of ['yes', '1', '0', 'TRUE', 'False', '', 'null']) {
        const bad = await query({ is_favorite: value });
        expect(bad.statusCode, value).toBe(400);
        expect(bad.json().error).toBe('invalid_request');
        expect(Object.keys(bad.json().details.parameters), value).toEqual(['is_favorite']);
      }
    });

    it('C3.11: created_after and created_before are strict: an identity created exactly at the bound is excluded', async () => {
      const after = await query({ created_after: rows.b.created_at });
      expect(ids(after)).toEqual([rows.d.id, rows.e.id]);
      expect(after.json().pagination.total).toBe(2);
      const before = await query({ created_before: rows.b.created_at });
      expect(ids(before)).toEqual([rows.a.id]);
      expect(before.json().pagination.total).toBe(1);
      const between = await query({ created_after: rows.a.created_at, created_before: rows.d.created_at });
      expect(ids(between)).toEqual([rows.c.id, rows.b.id]);
      const oneMsEarlier = await query({ created_after: '2024-01-02T11:59:59.999Z' });
      expect(ids(oneMsEarlier)).toEqual([rows.d.id, rows.e.id, rows.c.id, rows.b.id]);
    });

    it('C3.11: a date alone means 00:00Z, and offsets are honoured', async () => {
      const afterDate = await query({ created_after: '2024-01-01' });
      expect(ids(afterDate)).toEqual([rows.d.id, rows.e.id, rows.c.id, rows.b.id]);
      const beforeDate = await query({ created_before: '2024-01-03' });
      expect(ids(beforeDate)).toEqual([rows.c.id, rows.b.id, rows.a.id]);
      const withOffset = await query({ created_after: '2024-01-02T13:00:00+01:00' });
      expect(ids(withOffset)).toEqual([rows.d.id, rows.e.id]);
      const withoutOffset = await query({ created_before: '2024-01-02T12:00' });
      expect(ids(withoutOffset)).toEqual([rows.a.id]);
    });

    it('C3.11: a malformed created_after or created_before is 400 naming it', async () => {
      for (const name of ['created_after', 'created_before']) {
        for (const value of ['yesterday', '2024-13-01', '2024-02-30', '']) {
          const bad = await query({ [name]: value });
          expect(bad.statusCode, `${name}=${value}`).toBe(400);
          expect(bad.json().error).toBe('invalid_request');
          expect(bad.json().details, `${name}=${value}`).toEqual({
            parameters: { [name]: 'must be an ISO 8601 date or date-time' },
          });
        }
      }
    });

    it('C3.11: filters combine', async () => {
      const combined = await query({ is_favorite: 'true', created_after: '2024-01-01', created_before: '2024-01-03' });
      expect(ids(combined)).toEqual([rows.c.id]);
      expect(combined.json().pagination.total).toBe(1);
      expect(ids(await query({ visitor_id: v1, is_favorite: 'false' }))).toEqual([rows.b.id]);
      expect(ids(await query({ email: 'FOO@example.com', is_favorite: 'false' }))).toEqual([]);
      expect(ids(await query({ email: 'foo@example.com', visitor_id: v1, created_before: '2024-01-02' }))).toEqual([
        rows.a.id,
      ]);
      expect(ids(await query({ email: 'foo@example.com', visitor_id: v2 }))).toEqual([]);
    });

    it('C3.11: filters never reach another workspace', async () => {
      const theirs = await list({ email: 'foo@example.com' }, other);
      expect(theirs.json().pagination.total).toBe(1);
      expect(theirs.json().data[0].workspace_id).toBe(other.id);
      expect(ids(await query({ visitor_id: v1 }))).toEqual([rows.b.id, rows.a.id]);
    });
  });

  describe('GET /api/v1/identities/{id}/activity (C4.6)', () => {
    let owner: { id: string };
    let entries: Record<string, unknown>[];
    const prefix = freshPrefix();

    beforeAll(async () => {
      owner = await create({ name: 'Active' });
      const neighbour = await create({ name: 'Neighbour' });
      entries = [
        {
          id: idEnding(prefix, 1),
          identity_id: owner.id,
          type: 'page_view',
          who: 'Active',
          what: 'viewed /pricing',
          source: 'web',
          created_at: '2024-03-01T10:00:00.000Z',
        },
        {
          id: idEnding(prefix, 2),
          identity_id: owner.id,
          type: 'form_submit',
          who: 'Active',
          what: 'sent the contact form',
          source: 'web',
          created_at: '2024-03-02T10:00:00.000Z',
        },
        { id: idEnding(prefix, 4), identity_id: owner.id, type: 'email_open', created_at: '2024-03-02T10:00:00.000Z' },
        {
          id: idEnding(prefix, 3),
          identity_id: owner.id,
          type: 'page_view',
          who: 'Active',
          what: 'viewed /',
          source: 'ads',
          created_at: '2024-03-03T09:30:00.500Z',
        },
      ];
      await importRows(t, ws.id, 'activity', [
        ...entries,
        { identity_id: neighbour.id, type: 'page_view', what: 'not mine', created_at: '2024-03-05T00:00:00.000Z' },
      ]);
    });

    const activity = (id: string, query: Record<string, string> = {}, workspace = ws) =>
      t.as(workspace, { method: 'GET', url: `/api/v1/identities/${id}/activity`, query });
    const shown = (entry: Record<string, unknown>) => ({
      id: entry.id,
      type: entry.type,
      who: entry.who ?? null,
      what: entry.what ?? null,
      source: entry.source ?? null,
      created_at: entry.created_at,
    });

    it('C4.6: lists only the entries of that identity, newest first (ties by id descending), with exactly the spec fields', async () => {
      const response = await activity(owner.id);
      expect(response.statusCode).toBe(200);
      const [first, second, third, fourth] = entries.map(shown);
      expect(response.json()).toEqual({
        data: [fourth, third, second, first],
        pagination: { limit: 50, offset: 0, total: 4 },
      });
      for (const entry of response.json().data) {
        expect(Object.keys(entry).sort()).toEqual(['created_at', 'id', 'source', 'type', 'what', 'who']);
      }
    });

    it('C3.9: pages with limit and offset, total counting every entry', async () => {
      const [first, second, third] = entries.map(shown);
      const response = await activity(owner.id, { limit: '2', offset: '1' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [third, second], pagination: { limit: 2, offset: 1, total: 4 } });
      const last = await activity(owner.id, { limit: '2', offset: '3' });
      expect(last.json()).toEqual({ data: [first], pagination: { limit: 2, offset: 3, total: 4 } });
      const capped = await activity(owner.id, { limit: '1000' });
      expect(capped.json().pagination).toEqual({ limit: 100, offset: 0, total: 4 });
    });

    it('C3.9: an invalid limit or offset is 400 naming it', async () => {
      for (const [name, value] of [
        ['limit', '0'],
        ['limit', 'ten'],
        ['offset', '-1'],
        ['offset', '1.5'],
      ] as const) {
        const response = await activity(owner.id, { [name]: value });
        expect(response.statusCode, `${name}=${value}`).toBe(400);
        expect(response.json().error).toBe('invalid_request');
        expect(Object.keys(response.json().details.parameters)).toEqual([name]);
      }
    });

    it('C4.6: an identity without activity has an empty list', async () => {
      const quiet = await create({ name: 'Quiet' });
      expect((await activity(quiet.id)).json()).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    });

    it('C3.6: answers 404 for an unknown, malformed or foreign identity', async () => {
      const foreign = await create({ name: 'Foreign' }, other);
      await importRows(t, other.id, 'activity', [{ identity_id: foreign.id, type: 'page_view' }]);
      for (const id of [foreign.id, UNKNOWN_ID, 'not-a-uuid']) {
        const response = await activity(id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect((await activity(foreign.id, {}, other)).json().pagination.total).toBe(1);
    });
  });

  describe('GET /api/v1/identities/{id}/personalities (C4.6)', () => {
    let owner: { id: string; visitor_id: string };
    let mine: Record<string, unknown>[];
    const prefix = freshPrefix();

    beforeAll(async () => {
      owner = await create({ name: 'Persona', visitor_id: randomUUID() });
      mine = [
        {
          id: idEnding(prefix, 1),
          visitor_id: owner.visitor_id,
          score: 0.75,
          personality: { type: 'analytical', traits: ['curious', 'precise'] },
          features: { pages: 12, topics: { pricing: 0.5 } },
          learning_percentage: 0.42,
          created_at: '2024-04-01T08:00:00.000Z',
        },
        {
          id: idEnding(prefix, 2),
          visitor_id: owner.visitor_id,
          score: 12.5,
          personality: { type: 'driver', traits: [] },
          learning_percentage: 1,
          created_at: '2024-04-03T08:00:00.000Z',
        },
        {
          id: idEnding(prefix, 3),
          visitor_id: owner.visitor_id.toUpperCase(),
          score: -3.25,
          personality: { type: 'amiable', traits: ['warm'] },
          features: {},
          learning_percentage: 0.125,
          created_at: '2024-04-02T08:00:00.000Z',
        },
      ];
      await importRows(t, ws.id, 'personalities', [
        ...mine,
        {
          visitor_id: randomUUID(),
          score: 1,
          personality: { type: 'someone else', traits: ['x'] },
          learning_percentage: 0.5,
          created_at: '2024-04-04T08:00:00.000Z',
        },
      ]);
      await importRows(t, other.id, 'personalities', [
        {
          visitor_id: owner.visitor_id,
          score: 2,
          personality: { type: 'other workspace', traits: [] },
          learning_percentage: 0.5,
          created_at: '2024-04-05T08:00:00.000Z',
        },
      ]);
    });

    const personalities = (id: string, workspace = ws) =>
      t.as(workspace, { method: 'GET', url: `/api/v1/identities/${id}/personalities` });
    const shown = (entry: Record<string, unknown>) => ({
      id: entry.id,
      visitor_id: owner.visitor_id,
      score: entry.score,
      personality: entry.personality,
      features: entry.features ?? {},
      learning_percentage: entry.learning_percentage,
      created_at: entry.created_at,
    });

    it('C4.6: lists the personalities of the identity\'s visitor, newest first, with exactly the spec fields and no pagination', async () => {
      const response = await personalities(owner.id);
      expect(response.statusCode).toBe(200);
      const [first, second, third] = mine.map(shown);
      expect(response.json()).toEqual({ data: [second, third, first] });
      expect(Object.keys(response.json())).toEqual(['data']);
      for (const entry of response.json().data) {
        expect(Object.keys(entry).sort()).toEqual(
          ['created_at', 'features', 'id', 'learning_percentage', 'personality', 'score', 'visitor_id'].sort(),
        );
      }
    });

    it('C4.6: an identity whose visitor has no personalities has an empty list', async () => {
      const lonely = await create({ name: 'Lonely' });
      const response = await personalities(lonely.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [] });
    });

    it('C3.6: answers 404 for an unknown, malformed or foreign identity', async () => {
      const foreign = await create({ name: 'Foreign', visitor_id: owner.visitor_id }, other);
      for (const id of [foreign.id, UNKNOWN_ID, 'not-a-uuid']) {
        const response = await personalities(id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      const theirs = await personalities(foreign.id, other);
      expect(theirs.json().data.map((entry: { personality: { type: string } }) => entry.personality.type)).toEqual([
        'other workspace',
      ]);
    });
  });
});
