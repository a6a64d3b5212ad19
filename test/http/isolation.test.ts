/**
 * Workspace isolation on every endpoint: workspaces A and B both hold leads,
 * identities (with activity and personalities, one visitor id in both),
 * companies, lists and users (one person a member of both). B's key never sees
 * or changes A's data: lists hold only B's items and totals, A's ids are 404
 * with the resource's message, and references to A's resources in a body are
 * 403. Spec general rule 2 (every request is scoped to the key's workspace),
 * spec Authentication 8, CONTRACT C3.6, C3.7, C4.7.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const NOT_FOUND = {
  lead: { error: 'not_found', message: 'lead not found or does not belong to your workspace' },
  identity: { error: 'not_found', message: 'identity not found or does not belong to your workspace' },
  company: { error: 'not_found', message: 'company not found or does not belong to your workspace' },
  user: { error: 'not_found', message: 'user not found or not a member of your workspace' },
};

interface Seeded {
  leads: string[];
  identities: string[];
  /** the identity whose visitor id both workspaces use */
  sharedVisitorIdentity: string;
  activity: string[];
  personalities: string[];
  companies: string[];
  lists: string[];
  /** users who are members of this workspace only */
  ownUsers: string[];
}

const ids = (response: LightMyRequestResponse): string[] =>
  (response.json().data as { id: string }[]).map((item) => item.id).sort();
const sorted = (values: string[]) => [...values].sort();

describe.each(storeKinds())('workspace isolation on %s', (kind) => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let dataA: Seeded;
  let dataB: Seeded;
  const sharedVisitor = randomUUID();
  const sharedUser = randomUUID();

  async function seed(ws: TestWorkspace, tag: string, counts: { leads: number; companies: number; lists: number }): Promise<Seeded> {
    const companies = await importRows(
      t,
      ws.id,
      'companies',
      Array.from({ length: counts.companies }, (_, index) => ({
        name: `${tag} Company ${index}`,
        domain: `${tag.toLowerCase()}${index}.example`,
        employees: '10-50',
      })),
    );
    const lists = await importRows(
      t,
      ws.id,
      'lists',
      Array.from({ length: counts.lists }, (_, index) => ({ name: `${tag} list ${index}`, color: '#112233' })),
    );
    const identities = await importRows(t, ws.id, 'identities', [
      { email: `${tag.toLowerCase()}@example.com`, name: `${tag} One`, visitor_id: sharedVisitor, traits: { tag } },
      { email: `${tag.toLowerCase()}2@example.com`, name: `${tag} Two`, is_favorite: true },
    ]);
    const sharedVisitorIdentity = identities[0]!;
    const activity = await importRows(t, ws.id, 'activity', [
      { identity_id: sharedVisitorIdentity, type: 'page_view', who: `${tag} One`, what: `viewed ${tag}`, source: 'web' },
      { identity_id: sharedVisitorIdentity, type: 'click', who: `${tag} One`, what: `clicked ${tag}`, source: 'web' },
    ]);
    const personalities = await importRows(t, ws.id, 'personalities', [
      { visitor_id: sharedVisitor, score: 0.5, personality: { type: tag, traits: [tag] }, learning_percentage: 0.25 },
    ]);
    const leads = await importRows(
      t,
      ws.id,
      'leads',
      Array.from({ length: counts.leads }, (_, index) => ({
        code: `${tag}-${index}`,
        source: `${tag}-source`,
        identity_id: sharedVisitorIdentity,
        company_id: companies[0],
        properties: { tag },
      })),
    );
    const ownUsers = await importRows(t, ws.id, 'users', [
      { email: `${tag.toLowerCase()}.owner@example.com`, name: `${tag} Owner`, workspace_role: tag === 'A' ? 'admin' : 'viewer' },
    ]);
    return { leads, identities, sharedVisitorIdentity, activity, personalities, companies, lists, ownUsers };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await t.createWorkspace('Isolation A');
    b = await t.createWorkspace('Isolation B');
    dataA = await seed(a, 'A', { leads: 3, companies: 3, lists: 2 });
    dataB = await seed(b, 'B', { leads: 2, companies: 1, lists: 3 });
    await importRows(t, a.id, 'users', [
      { id: sharedUser, email: 'shared@example.com', name: 'Shared', workspace_role: 'member', joined_at: '2024-01-01T00:00:00.000Z' },
    ]);
    await importRows(t, b.id, 'users', [
      { id: sharedUser, email: 'shared@example.com', name: 'Shared', workspace_role: 'admin', joined_at: '2024-06-01T00:00:00.000Z' },
    ]);
  });
  afterAll(async () => t?.close());

  const asB = (url: string) => t.as(b, { method: 'GET', url });
  const asA = (url: string) => t.as(a, { method: 'GET', url });

  describe('spec rule 2: list endpoints return only the caller\'s items and totals', () => {
    it('GET /leads', async () => {
      const response = await asB('/api/v1/leads');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-workspace-id']).toBe(b.id);
      expect(ids(response)).toEqual(sorted(dataB.leads));
      expect(response.json().pagination).toEqual({ limit: 50, offset: 0, total: dataB.leads.length });
      for (const lead of response.json().data) expect(lead.workspace_id).toBe(b.id);
      expect((await asA('/api/v1/leads')).json().pagination.total).toBe(dataA.leads.length);
    });

    it('GET /leads filtered by A\'s code or source finds nothing for B', async () => {
      for (const query of ['code=A-0', 'source=A-source']) {
        const response = await asB(`/api/v1/leads?${query}`);
        expect(response.json(), query).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
      }
    });

    it('GET /identities, with every filter', async () => {
      const all = await asB('/api/v1/identities');
      expect(ids(all)).toEqual(sorted(dataB.identities));
      expect(all.json().pagination.total).toBe(dataB.identities.length);
      for (const identity of all.json().data) expect(identity.workspace_id).toBe(b.id);

      const byVisitor = await asB(`/api/v1/identities?visitor_id=${sharedVisitor}`);
      expect(ids(byVisitor)).toEqual([dataB.sharedVisitorIdentity]);
      expect(byVisitor.json().pagination.total).toBe(1);
      const byEmail = await asB('/api/v1/identities?email=a@example.com');
      expect(byEmail.json()).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
      const favorites = await asB('/api/v1/identities?is_favorite=true');
      expect(ids(favorites)).toEqual([dataB.identities[1]]);
      const recent = await asB('/api/v1/identities?created_after=2000-01-01');
      expect(recent.json().pagination.total).toBe(dataB.identities.length);
    });

    it('GET /companies, with the name and domain filters', async () => {
      const all = await asB('/api/v1/companies');
      expect(ids(all)).toEqual(sorted(dataB.companies));
      expect(all.json().pagination.total).toBe(dataB.companies.length);
      expect((await asB('/api/v1/companies?name=A%20Company')).json().pagination.total).toBe(0);
      expect((await asB('/api/v1/companies?name=company')).json().pagination.total).toBe(dataB.companies.length);
      expect((await asB('/api/v1/companies?domain=a0.example')).json().pagination.total).toBe(0);
    });

    it('GET /lists', async () => {
      const response = await asB('/api/v1/lists');
      expect(ids(response)).toEqual(sorted(dataB.lists));
      expect(response.json().pagination.total).toBe(dataB.lists.length);
      expect(ids(await asA('/api/v1/lists'))).toEqual(sorted(dataA.lists));
    });

    it('C4.7: GET /users lists members of the caller\'s workspace only, with the caller\'s role for a shared person', async () => {
      const response = await asB('/api/v1/users');
      expect(ids(response)).toEqual(sorted([...dataB.ownUsers, sharedUser]));
      expect(response.json().pagination.total).toBe(2);
      const shared = response.json().data.find((user: { id: string }) => user.id === sharedUser);
      expect(shared).toMatchObject({ workspace_role: 'admin', joined_at: '2024-06-01T00:00:00.000Z' });

      const admins = await asB('/api/v1/users?role=admin');
      expect(ids(admins)).toEqual([sharedUser]);
      expect(admins.json().pagination.total).toBe(1);
      const members = await asB('/api/v1/users?role=member');
      expect(members.json()).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });

      const seenByA = (await asA(`/api/v1/users/${sharedUser}`)).json().data;
      expect(seenByA).toMatchObject({ workspace_role: 'member', joined_at: '2024-01-01T00:00:00.000Z' });
    });

    it('C4.6: activity and personalities of B\'s identity are B\'s only, though A shares the visitor id', async () => {
      const activity = await asB(`/api/v1/identities/${dataB.sharedVisitorIdentity}/activity`);
      expect(activity.statusCode).toBe(200);
      expect(ids(activity)).toEqual(sorted(dataB.activity));
      expect(activity.json().pagination.total).toBe(dataB.activity.length);

      const personalities = await asB(`/api/v1/identities/${dataB.sharedVisitorIdentity}/personalities`);
      expect(personalities.statusCode).toBe(200);
      expect(ids(personalities)).toEqual(sorted(dataB.personalities));
      expect(personalities.json().data[0].personality).toEqual({ type: 'B', traits: ['B'] });
    });
  });

  describe('C3.6 and spec Authentication 8: A\'s ids are 404 for B, and nothing of A changes', () => {
    it('GET /leads/{id} of A\'s leads', async () => {
      for (const id of dataA.leads) {
        const response = await asB(`/api/v1/leads/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND.lead);
        expect(response.headers['x-workspace-id']).toBe(b.id);
        expect(response.json()).toEqual((await asB(`/api/v1/leads/${randomUUID()}`)).json());
      }
    });

    it('PATCH /leads/{id} of A\'s lead, under both content types, leaves it unchanged', async () => {
      const id = dataA.leads[0]!;
      const before = (await asA(`/api/v1/leads/${id}`)).json();
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        const response = await t.as(b, {
          method: 'PATCH',
          url: `/api/v1/leads/${id}`,
          headers: { 'content-type': contentType },
          payload: JSON.stringify({ properties: { hacked: true }, summary: { x: 1 }, company_id: null }),
        });
        expect(response.statusCode, contentType).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND.lead);
      }
      const empty = await t.as(b, { method: 'PATCH', url: `/api/v1/leads/${id}` });
      expect(empty.statusCode).toBe(404);
      expect((await asA(`/api/v1/leads/${id}`)).json()).toEqual(before);
    });

    it('GET and PATCH /identities/{id} of A\'s identity leave it unchanged', async () => {
      const id = dataA.sharedVisitorIdentity;
      const before = (await asA(`/api/v1/identities/${id}`)).json();
      expect(before.data.workspace_id).toBe(a.id);
      const get = await asB(`/api/v1/identities/${id}`);
      expect(get.statusCode).toBe(404);
      expect(get.json()).toEqual(NOT_FOUND.identity);
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        const response = await t.as(b, {
          method: 'PATCH',
          url: `/api/v1/identities/${id}`,
          headers: { 'content-type': contentType },
          payload: JSON.stringify({ name: 'Hacked', traits: { hacked: true }, is_favorite: true }),
        });
        expect(response.statusCode, contentType).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND.identity);
      }
      expect((await asA(`/api/v1/identities/${id}`)).json()).toEqual(before);
    });

    it('GET /identities/{id}/activity and /personalities of A\'s identity', async () => {
      for (const id of dataA.identities) {
        for (const path of ['activity', 'personalities']) {
          const response = await asB(`/api/v1/identities/${id}/${path}`);
          expect(response.statusCode, path).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND.identity);
        }
      }
      expect(ids(await asA(`/api/v1/identities/${dataA.sharedVisitorIdentity}/activity`))).toEqual(sorted(dataA.activity));
    });

    it('GET /companies/{id} of A\'s companies', async () => {
      for (const id of dataA.companies) {
        const response = await asB(`/api/v1/companies/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND.company);
      }
      expect((await asA(`/api/v1/companies/${dataA.companies[0]}`)).statusCode).toBe(200);
    });

    it('C4.7: GET /users/{id} of a member of A only', async () => {
      for (const id of dataA.ownUsers) {
        const response = await asB(`/api/v1/users/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND.user);
        expect((await asA(`/api/v1/users/${id}`)).statusCode).toBe(200);
      }
      const shared = await asB(`/api/v1/users/${sharedUser}`);
      expect(shared.statusCode).toBe(200);
      expect(shared.json().data.workspace_role).toBe('admin');
    });

    it('B\'s ids are 404 for A as well', async () => {
      expect((await asA(`/api/v1/leads/${dataB.leads[0]}`)).json()).toEqual(NOT_FOUND.lead);
      expect((await asA(`/api/v1/identities/${dataB.identities[0]}`)).json()).toEqual(NOT_FOUND.identity);
      expect((await asA(`/api/v1/companies/${dataB.companies[0]}`)).json()).toEqual(NOT_FOUND.company);
      expect((await asA(`/api/v1/users/${dataB.ownUsers[0]}`)).json()).toEqual(NOT_FOUND.user);
    });
  });

  describe('C3.7: a body may only reference the caller\'s resources', () => {
    const forbidden = (field: string) => ({
      error: 'forbidden',
      message: 'access denied to requested resource',
      details: { field },
    });

    it('POST /leads with A\'s identity_id or company_id is 403 and creates nothing in either workspace', async () => {
      const totalA = (await asA('/api/v1/leads')).json().pagination.total;
      const totalB = (await asB('/api/v1/leads')).json().pagination.total;
      const cases: [string, Record<string, string>][] = [
        ['identity_id', { identity_id: dataA.sharedVisitorIdentity }],
        ['company_id', { company_id: dataA.companies[0]! }],
        ['identity_id', { identity_id: dataA.identities[1]!, company_id: dataB.companies[0]! }],
        ['company_id', { identity_id: dataB.identities[0]!, company_id: dataA.companies[1]! }],
      ];
      for (const [field, body] of cases) {
        const response = await t.as(b, { method: 'POST', url: '/api/v1/leads', payload: { code: 'steal', ...body } });
        expect(response.statusCode, JSON.stringify(body)).toBe(403);
        expect(response.json()).toEqual(forbidden(field));
        expect(response.headers['x-workspace-id']).toBe(b.id);
      }
      expect((await asA('/api/v1/leads')).json().pagination.total).toBe(totalA);
      expect((await asB('/api/v1/leads')).json().pagination.total).toBe(totalB);
    });

    it('PATCH of B\'s lead with A\'s company_id is 403 and leaves the lead unchanged', async () => {
      const id = dataB.leads[0]!;
      const before = (await asB(`/api/v1/leads/${id}`)).json();
      const response = await t.as(b, {
        method: 'PATCH',
        url: `/api/v1/leads/${id}`,
        payload: { company_id: dataA.companies[0], properties: { changed: true } },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(forbidden('company_id'));
      expect((await asB(`/api/v1/leads/${id}`)).json()).toEqual(before);
    });

    it('what B creates belongs to B and stays out of A\'s reach', async () => {
      const lead = await t.as(b, {
        method: 'POST',
        url: '/api/v1/leads',
        payload: { code: 'B-new', identity_id: dataB.identities[0], company_id: dataB.companies[0] },
      });
      expect(lead.statusCode).toBe(201);
      expect(lead.json().data.workspace_id).toBe(b.id);
      const identity = await t.as(b, { method: 'POST', url: '/api/v1/identities', payload: { email: 'new@example.com' } });
      expect(identity.statusCode).toBe(201);
      expect(identity.json().data.workspace_id).toBe(b.id);

      expect((await asA(`/api/v1/leads/${lead.json().data.id}`)).json()).toEqual(NOT_FOUND.lead);
      expect((await asA(`/api/v1/identities/${identity.json().data.id}`)).json()).toEqual(NOT_FOUND.identity);
      expect(ids(await asA('/api/v1/leads'))).toEqual(sorted(dataA.leads));
      expect(ids(await asA('/api/v1/identities'))).toEqual(sorted(dataA.identities));
      expect((await asA('/api/v1/identities?email=new@example.com')).json().pagination.total).toBe(0);
    });
  });
});
