/**
 * The read-only directory endpoints: companies (list with the `name` and
 * `domain` filters, read one), visitor lists, and workspace users (members of
 * the caller's workspace only, with their role there). CONTRACT C3.6, C3.9,
 * C3.10, C3.11, C4.7.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const COMPANY_FIELDS = ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'].sort();
const LIST_FIELDS = ['id', 'name', 'description', 'color', 'created_at'].sort();
const USER_FIELDS = [
  'id',
  'email',
  'name',
  'avatar',
  'username',
  'language',
  'created_at',
  'workspace_role',
  'joined_at',
].sort();

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A canonical instant `minutes` after 2024-03-01T10:00:00Z. */
const at = (minutes: number) => new Date(Date.UTC(2024, 2, 1, 10, minutes)).toISOString();

/** The list order of C3.10: `key` descending, then id descending. */
function newestFirst<T extends { id: string }>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => {
    const byTime = key(b).localeCompare(key(a));
    return byTime !== 0 ? byTime : b.id.localeCompare(a.id);
  });
}

/** A fresh v4 id in lower case, as the API returns ids. */
const id = () => randomUUID();

describe.each(storeKinds())('companies, visitor lists and workspace users on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const list = (workspace: TestWorkspace, path: string, query: Record<string, string> = {}) =>
    t.as(workspace, { method: 'GET', url: `/api/v1/${path}`, query });

  describe('GET /api/v1/companies', () => {
    let ws: TestWorkspace;
    let other: TestWorkspace;
    const companies = {
      fifty: { id: id(), name: '50% Off Ltd', domain: 'fifty.example', created_at: at(1) },
      fiveThousand: { id: id(), name: '5000 Off', domain: 'five.example', created_at: at(2) },
      underscore: { id: id(), name: 'a_b corp', domain: 'ab.example', created_at: at(3) },
      lookalike: { id: id(), name: 'aXb corp', domain: 'axb.example', created_at: at(4) },
      backslash: { id: id(), name: 'Back\\Slash', domain: 'slash.example', created_at: at(0) },
      acme: {
        id: id(),
        name: 'Acme Widgets',
        domain: 'Acme.COM',
        description: 'Makes widgets',
        employees: '51-200',
        main_industry: 'Manufacturing',
        created_at: at(5),
      },
    };
    const full = (company: Record<string, string>) => ({
      description: null,
      employees: null,
      main_industry: null,
      ...company,
    });

    beforeAll(async () => {
      ws = await t.createWorkspace('Companies A');
      other = await t.createWorkspace('Companies B');
      await importRows(t, ws.id, 'companies', Object.values(companies));
      await importRows(t, other.id, 'companies', [
        { name: '50% Off Elsewhere', domain: 'acme.com', created_at: at(9) },
      ]);
    });

    const names = async (query: Record<string, string>) => {
      const response = await list(ws, 'companies', query);
      expect(response.statusCode, JSON.stringify(query)).toBe(200);
      const body = response.json();
      expect(body.pagination.total, JSON.stringify(query)).toBe(body.data.length);
      return body.data.map((company: { name: string }) => company.name);
    };

    it('C3.10: lists only the workspace\'s companies, newest first, each with exactly the spec fields', async () => {
      const response = await list(ws, 'companies');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      for (const company of body.data) expect(Object.keys(company).sort()).toEqual(COMPANY_FIELDS);
      expect(body).toEqual({
        data: newestFirst(Object.values(companies), (company) => company.created_at).map(full),
        pagination: { limit: 50, offset: 0, total: 6 },
      });
    });

    it('C3.11: name is a case-insensitive substring', async () => {
      expect(await names({ name: 'OFF' })).toEqual(['5000 Off', '50% Off Ltd']);
      expect(await names({ name: 'acme widgets' })).toEqual(['Acme Widgets']);
      expect(await names({ name: 'nothing like it' })).toEqual([]);
    });

    it('C3.11: % in name is a literal character, not a wildcard', async () => {
      expect(await names({ name: '50%' })).toEqual(['50% Off Ltd']);
      expect(await names({ name: '%' })).toEqual(['50% Off Ltd']);
    });

    it('C3.11: _ in name is a literal character, not a wildcard', async () => {
      expect(await names({ name: 'a_b' })).toEqual(['a_b corp']);
      expect(await names({ name: '_' })).toEqual(['a_b corp']);
    });

    it('C3.11: a backslash in name is a literal character too', async () => {
      expect(await names({ name: '\\' })).toEqual(['Back\\Slash']);
      expect(await names({ name: 'K\\s' })).toEqual(['Back\\Slash']);
      expect(await names({ name: '\\%' })).toEqual([]);
      expect(await names({ name: '\\_' })).toEqual([]);
    });

    it('C3.11: domain is exact and case-insensitive', async () => {
      expect(await names({ domain: 'acme.com' })).toEqual(['Acme Widgets']);
      expect(await names({ domain: 'ACME.com' })).toEqual(['Acme Widgets']);
      expect(await names({ domain: 'acme' })).toEqual([]);
      expect(await names({ domain: 'acme.co' })).toEqual([]);
      expect(await names({ domain: '%' })).toEqual([]);
    });

    it('C3.11: name and domain combine', async () => {
      expect(await names({ name: 'off', domain: 'FIVE.example' })).toEqual(['5000 Off']);
      expect(await names({ name: 'corp', domain: 'fifty.example' })).toEqual([]);
    });

    it('C3.9: pages through the filtered companies with an exact total', async () => {
      // "o" is in every name but "Acme Widgets" and "Back\Slash"; newest first that is aXb, a_b, 5000, 50%.
      const response = await list(ws, 'companies', { name: 'O', limit: '2', offset: '1' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        data: [full(companies.underscore), full(companies.fiveThousand)],
        pagination: { limit: 2, offset: 1, total: 4 },
      });
    });

    it('C3.6: GET /companies/{id} returns the company', async () => {
      const response = await t.as(ws, { method: 'GET', url: `/api/v1/companies/${companies.acme.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: full(companies.acme) });
      expect(response.headers['x-workspace-id']).toBe(ws.id);
    });

    it('C3.6: GET /companies/{id} accepts the id in upper case', async () => {
      const response = await t.as(ws, { method: 'GET', url: `/api/v1/companies/${companies.acme.id.toUpperCase()}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.id).toBe(companies.acme.id);
    });

    it('C3.6: an unknown, malformed or foreign company id is the same 404 not_found', async () => {
      const [foreign] = await importRows(t, other.id, 'companies', [{ name: 'Theirs' }]);
      const unknown = await t.as(ws, { method: 'GET', url: `/api/v1/companies/${UNKNOWN_ID}` });
      expect(unknown.statusCode).toBe(404);
      const body = unknown.json();
      expect(body).toEqual({ error: 'not_found', message: expect.any(String) });
      for (const bad of ['not-a-uuid', `${companies.acme.id}x`, foreign]) {
        const response = await t.as(ws, { method: 'GET', url: `/api/v1/companies/${bad}` });
        expect(response.statusCode, bad).toBe(404);
        expect(response.json(), bad).toEqual(body);
      }
      expect((await t.as(other, { method: 'GET', url: `/api/v1/companies/${foreign}` })).statusCode).toBe(200);
    });
  });

  describe('GET /api/v1/lists', () => {
    let ws: TestWorkspace;
    let other: TestWorkspace;
    let lists: { id: string; name: string; description: string | null; color: string | null; created_at: string }[];

    beforeAll(async () => {
      ws = await t.createWorkspace('Lists A');
      other = await t.createWorkspace('Lists B');
      lists = [
        { id: id(), name: 'Hot', description: 'Hot visitors', color: '#FF0000', created_at: at(1) },
        { id: id(), name: 'Warm', description: null, color: '#ffaa00', created_at: at(2) },
        { id: id(), name: 'Tied 1', description: 'same instant', color: '#aabbcc', created_at: at(3) },
        { id: id(), name: 'Tied 2', description: 'same instant', color: '#00ff00', created_at: at(3) },
        { id: id(), name: 'Tied 3', description: 'same instant', color: '#0000FF', created_at: at(3) },
        { id: id(), name: 'Cold', description: 'Cold', color: '#123456', created_at: at(0) },
      ];
      await importRows(t, ws.id, 'lists', lists);
      await importRows(t, other.id, 'lists', [{ name: 'Not yours', created_at: at(10) }]);
    });

    it('C3.10: lists only the workspace\'s lists, newest first then id descending, with exactly the spec fields', async () => {
      const response = await list(ws, 'lists');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      for (const item of body.data) expect(Object.keys(item).sort()).toEqual(LIST_FIELDS);
      expect(body).toEqual({
        data: newestFirst(lists, (item) => item.created_at),
        pagination: { limit: 50, offset: 0, total: 6 },
      });
    });

    it('C3.9: limit and offset page through the lists with an exact total', async () => {
      const expected = newestFirst(lists, (item) => item.created_at);
      const pages = [];
      for (let offset = 0; offset < 6; offset += 4) {
        const response = await list(ws, 'lists', { limit: '4', offset: String(offset) });
        expect(response.statusCode).toBe(200);
        expect(response.json().pagination).toEqual({ limit: 4, offset, total: 6 });
        pages.push(...response.json().data);
      }
      expect(pages).toEqual(expected);
      const beyond = await list(ws, 'lists', { offset: '6' });
      expect(beyond.json()).toEqual({ data: [], pagination: { limit: 50, offset: 6, total: 6 } });
    });

    it('C3.9: a bad limit on /lists is 400 naming it', async () => {
      const response = await list(ws, 'lists', { limit: '0' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_request');
      expect(Object.keys(response.json().details.parameters)).toEqual(['limit']);
    });
  });

  describe('GET /api/v1/users (C4.7)', () => {
    let a: TestWorkspace;
    let b: TestWorkspace;
    let outsider: TestWorkspace;
    const profile = (name: string, extra: Record<string, string> = {}) => ({
      id: id(),
      email: `${name.toLowerCase()}@directory.example`,
      name,
      avatar: `https://avatars.example/${name.toLowerCase()}.png`,
      username: name.toLowerCase(),
      language: 'en',
      created_at: at(0),
      ...extra,
    });
    const shared = profile('Sam', { language: 'fr' });
    const membersOfA = [
      { ...profile('Ada'), workspace_role: 'admin', joined_at: at(10) },
      { ...profile('Ben'), workspace_role: 'member', joined_at: at(20) },
      { ...profile('Cy'), workspace_role: 'member', joined_at: at(30) },
      { ...profile('Dee'), workspace_role: 'viewer', joined_at: at(30) },
      { ...profile('Eve'), workspace_role: 'member', joined_at: at(30) },
      { ...shared, workspace_role: 'admin', joined_at: at(15) },
    ];
    const membersOfB = [
      { ...profile('Fay'), workspace_role: 'admin', joined_at: at(5) },
      { ...shared, workspace_role: 'viewer', joined_at: at(40) },
    ];
    const onlyInB = membersOfB[0] as (typeof membersOfB)[number];
    const sharedInA = membersOfA[5] as (typeof membersOfA)[number];
    const sharedInB = membersOfB[1] as (typeof membersOfB)[number];

    beforeAll(async () => {
      a = await t.createWorkspace('Users A');
      b = await t.createWorkspace('Users B');
      outsider = await t.createWorkspace('Users C');
      await importRows(t, a.id, 'users', membersOfA);
      await importRows(t, b.id, 'users', membersOfB);
    });

    it('C4.7, C3.10: lists only the members of the workspace, by joined_at then id descending, with exactly the spec fields', async () => {
      const response = await list(a, 'users');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      for (const user of body.data) expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
      expect(body).toEqual({
        data: newestFirst(membersOfA, (user) => user.joined_at),
        pagination: { limit: 50, offset: 0, total: 6 },
      });
    });

    it('C4.7: a person who is a member of two workspaces has each workspace\'s own role and joined_at', async () => {
      const inB = await list(b, 'users');
      expect(inB.json()).toEqual({
        data: [sharedInB, onlyInB],
        pagination: { limit: 50, offset: 0, total: 2 },
      });
      const fromA = await t.as(a, { method: 'GET', url: `/api/v1/users/${shared.id}` });
      const fromB = await t.as(b, { method: 'GET', url: `/api/v1/users/${shared.id}` });
      expect(fromA.json()).toEqual({ data: sharedInA });
      expect(fromB.json()).toEqual({ data: sharedInB });
    });

    it('C4.7: a workspace without members lists none', async () => {
      const response = await list(outsider, 'users');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    });

    it('C3.11, C4.7: role is an exact filter and total counts the matching members', async () => {
      const members = await list(a, 'users', { role: 'member' });
      expect(members.json()).toEqual({
        data: newestFirst(
          membersOfA.filter((user) => user.workspace_role === 'member'),
          (user) => user.joined_at,
        ),
        pagination: { limit: 50, offset: 0, total: 3 },
      });
      const admins = await list(a, 'users', { role: 'admin', limit: '1' });
      expect(admins.json()).toEqual({
        data: [sharedInA],
        pagination: { limit: 1, offset: 0, total: 2 },
      });
      for (const role of ['Admin', 'admi', 'ADMIN', '']) {
        const response = await list(a, 'users', { role });
        expect(response.statusCode, role).toBe(200);
        expect(response.json(), role).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
      }
      const viewersOfB = await list(b, 'users', { role: 'viewer' });
      expect(viewersOfB.json().data).toEqual([sharedInB]);
    });

    it('C3.9: pages through the members in order with an exact total', async () => {
      const expected = newestFirst(membersOfA, (user) => user.joined_at);
      const seen = [];
      for (let offset = 0; offset < expected.length; offset += 4) {
        const response = await list(a, 'users', { limit: '4', offset: String(offset) });
        expect(response.json().pagination).toEqual({ limit: 4, offset, total: 6 });
        seen.push(...response.json().data);
      }
      expect(seen).toEqual(expected);
    });

    it('C3.6: GET /users/{id} returns the member with its workspace_role and joined_at', async () => {
      const ada = membersOfA[0] as (typeof membersOfA)[number];
      const response = await t.as(a, { method: 'GET', url: `/api/v1/users/${ada.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: ada });
      expect(Object.keys(response.json().data).sort()).toEqual(USER_FIELDS);
    });

    it('C3.6: a user who exists but is not a member of the workspace is 404 with the user message', async () => {
      for (const [workspace, userId] of [
        [a, onlyInB.id],
        [outsider, shared.id],
        [outsider, sharedInA.id],
      ] as const) {
        const response = await t.as(workspace, { method: 'GET', url: `/api/v1/users/${userId}` });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          error: 'not_found',
          message: 'user not found or not a member of your workspace',
        });
        expect(response.headers['x-workspace-id']).toBe(workspace.id);
      }
    });

    it('C3.6: an unknown or malformed user id is the same 404', async () => {
      for (const bad of [UNKNOWN_ID, 'not-a-uuid', `${shared.id}0`, '123']) {
        const response = await t.as(a, { method: 'GET', url: `/api/v1/users/${bad}` });
        expect(response.statusCode, bad).toBe(404);
        expect(response.json(), bad).toEqual({
          error: 'not_found',
          message: 'user not found or not a member of your workspace',
        });
      }
    });
  });
});
