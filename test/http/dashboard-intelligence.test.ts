/**
 * Lead intelligence in the dashboard over HTTP, on both stores (CONTRACT
 * C6.2, C6.4, C7.4, C7.5): the ideal customer read by every role and set by
 * admins only, the same settings the CLI's service reads, checked (400
 * changes nothing) and held to the workspace; a list's page: its details and
 * rule, and its members paged, as the lists API made them; another
 * workspace's list is 404.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('lead intelligence in the dashboard on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let other: TestWorkspace;
  let admin: DashboardSession;
  let memberSession: DashboardSession;
  let viewer: DashboardSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Intelligence');
    other = await t.createWorkspace('Other');
    admin = await signIn(base, await member(t, workspace.id, 'admin'));
    memberSession = await signIn(base, await member(t, workspace.id, 'member'));
    viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
  });
  afterAll(async () => t?.close());

  const v1 = async (method: string, path: string, body?: unknown, as = workspace) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${as.production.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
  };

  it('C7.5, C6.2: an admin sets the ideal customer; every role reads it; the CLI service sees the same; another workspace keeps its own', async () => {
    const empty = { industries: [], employee_ranges: [], countries: [] };
    expect((await dashboard(base, viewer, 'GET', '/ideal-customer')).body).toEqual({ data: empty });
    const saved = await dashboard(base, admin, 'PUT', '/ideal-customer', { industries: ['Software', 'Retail'], employee_ranges: ['51-200'], countries: ['de', 'US'] });
    expect(saved.status).toBe(200);
    const expected = { industries: ['Software', 'Retail'], employee_ranges: ['51-200'], countries: ['DE', 'US'] };
    expect(saved.body).toEqual({ data: expected });
    for (const session of [viewer, memberSession, admin]) expect((await dashboard(base, session, 'GET', '/ideal-customer')).body).toEqual({ data: expected });
    expect((await t.services.forWorkspace(workspace.id).intelligenceSettings.get()).ideal_customer).toEqual(expected);
    expect((await t.services.forWorkspace(other.id).intelligenceSettings.get()).ideal_customer).toEqual(empty);
  });

  it('C7.4: members and viewers cannot change the ideal customer (403); bad values are 400; neither changes anything', async () => {
    const before = (await dashboard(base, admin, 'GET', '/ideal-customer')).body;
    for (const session of [memberSession, viewer]) {
      const refused = await dashboard(base, session, 'PUT', '/ideal-customer', { industries: ['Forged'], employee_ranges: [], countries: [] });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden', details: { required: 'admin' } });
    }
    const whole = { industries: [], employee_ranges: [], countries: [] };
    for (const body of [
      { ...whole, countries: ['DEU'] },
      { ...whole, industries: [''] },
      { ...whole, industries: 'Software' },
      { ...whole, other: [] },
      { ...whole, industries: ['A', 'A'] },
      // a PUT replaces the ideal customer whole: every field is needed
      { countries: [] },
    ]) {
      const answer = await dashboard(base, admin, 'PUT', '/ideal-customer', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
    }
    expect((await dashboard(base, admin, 'PUT', '/ideal-customer', { ...whole, industries: ['x'] }, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect((await dashboard(base, admin, 'GET', '/ideal-customer')).body).toEqual(before);
  });

  it("C6.4, C9.6: a list's page shows its details, rule and member count, and its members paged; another workspace's list is 404", async () => {
    const identityIds = await importRows(
      t,
      workspace.id,
      'identities',
      Array.from({ length: 3 }, (_, index) => ({ email: `member-${index}@example.com`, name: `Member ${index}` })),
    );
    const staticList = (await v1('POST', '/lists', { name: 'Hand picked', description: 'chosen', color: '#123456' })).body.data;
    expect((await v1('POST', `/lists/${String(staticList.id)}/identities`, { identity_ids: identityIds })).status).toBe(200);
    const detail = await dashboard(base, viewer, 'GET', `/lists/${String(staticList.id)}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ data: { ...staticList, rule: null, members: 3 } });
    const pages = [await dashboard(base, viewer, 'GET', `/lists/${String(staticList.id)}/identities?limit=2`), await dashboard(base, viewer, 'GET', `/lists/${String(staticList.id)}/identities?limit=2&offset=2`)];
    expect(pages.map((page) => (page.body.pagination as { total: number }).total)).toEqual([3, 3]);
    const emails = pages.flatMap((page) => (page.body.data as { email: string }[]).map((identity) => identity.email));
    expect(emails.sort()).toEqual(['member-0@example.com', 'member-1@example.com', 'member-2@example.com']);

    const rule = { all: [{ field: 'trait.plan', op: 'eq', value: 'pro' }] };
    const segment = (await v1('POST', '/lists', { name: 'Pro', rule })).body.data;
    expect((await dashboard(base, viewer, 'GET', `/lists/${String(segment.id)}`)).body).toEqual({ data: { ...segment, rule, members: 0 } });

    const foreign = (await v1('POST', '/lists', { name: 'Theirs' }, other)).body.data;
    for (const id of [String(foreign.id), randomUUID()]) {
      expect((await dashboard(base, admin, 'GET', `/lists/${id}`)).status).toBe(404);
      expect((await dashboard(base, admin, 'GET', `/lists/${id}/identities`)).status).toBe(404);
    }
  });
});
