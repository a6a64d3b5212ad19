/**
 * Every route of the dashboard's API × every kind of caller, over real HTTP
 * on both stores (CONTRACT C7.3, C7.4, C7.6), as the isolation matrix does
 * for workspaces: the route table is walked, each route's declared least
 * role (`config.dashboardAccess`) must be the one the contract gives it
 * (helpers/role-matrix.ts, written independently), and the server must
 * answer accordingly: a viewer, a member, an admin and a member whose role
 * text the dashboard does not know (it counts as a viewer) are let through
 * (any answer but 401 or 403) or refused with 403 `forbidden`; without a
 * session, 401 `unauthorized` unless the route is public; with an API key,
 * always 401. A dashboard route the matrix does not know fails here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/http/route-table.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { member, signIn, type DashboardSession, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { ENDS_SESSION, LEAST_ROLE, planRoleMatrix, roleMayCall, type RoleOperation } from '../helpers/role-matrix.js';
import { storeKinds } from '../helpers/stores.js';

type Role = 'viewer' | 'member' | 'admin';
/** a member whose role text is none of the three (an import may write any): the least role, viewer */
const UNKNOWN_ROLE = 'owner';

interface Caller {
  name: string;
  /** the role the session acts with; undefined: no session */
  role?: Role;
  headers(): Promise<Record<string, string>>;
}

describe.each(storeKinds())('the dashboard role matrix on %s (C7.4, C7.6)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  const people = new Map<string, Person>();
  const sessions = new Map<string, DashboardSession>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Roles');
    for (const role of ['viewer', 'member', 'admin'] as const) people.set(role, await member(t, workspace.id, role));
    const email = `unknown.role.${randomUUID()}@example.com`;
    const [id] = await importRows(t, workspace.id, 'users', [{ email, name: 'Unknown Role', workspace_role: UNKNOWN_ROLE }]);
    const password = `password-${randomUUID()}`;
    await t.services.accounts.setPassword(id as string, password);
    people.set(UNKNOWN_ROLE, { id: id as string, email, password });
    for (const [name, person] of people) sessions.set(name, await signIn(base, person));
  });
  afterAll(async () => t?.close());

  const sessionHeaders = (session: DashboardSession) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

  function callers(operation: RoleOperation): Caller[] {
    const withSession = (name: string, role: Role): Caller => ({
      name,
      role,
      // a route that ends the session gets a session of its own
      headers: async () => sessionHeaders(ENDS_SESSION.has(operation.key) ? await signIn(base, people.get(name)!) : sessions.get(name)!),
    });
    return [
      { name: 'no session', headers: async () => ({}) },
      { name: 'an API key', headers: async () => ({ authorization: `Bearer ${workspace.production.key}` }) },
      withSession('viewer', 'viewer'),
      withSession('member', 'member'),
      withSession('admin', 'admin'),
      withSession(UNKNOWN_ROLE, 'viewer'),
    ];
  }

  /** The route called with made-up ids and an empty body: enough to pass or meet the gate, never a change to the fixtures. */
  async function call(route: RegisteredRoute, headers: Record<string, string>) {
    const path = route.url.replace(/:[A-Za-z_]+/g, () => randomUUID());
    const changes = route.method !== 'GET';
    const response = await fetch(`${base}${path}`, {
      method: route.method,
      headers: { ...headers, ...(changes ? { 'content-type': 'application/json' } : {}) },
      body: changes ? '{}' : undefined,
    });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      // an event stream (C9.2) never ends by itself: its status is the answer
      await response.body?.cancel();
      return { status: response.status, body: {} as { error?: string } };
    }
    const text = await response.text();
    return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as { error?: string } };
  }

  it('C7.4: the matrix knows every dashboard route, and each route declares the least role the contract gives it', () => {
    const plan = planRoleMatrix(t.app.routeTable.routes());
    expect(plan.uncovered, 'dashboard routes without a row in test/helpers/role-matrix.ts').toEqual([]);
    expect(plan.stale, 'rows of test/helpers/role-matrix.ts that name no route').toEqual([]);
    expect(plan.operations.length).toBe(Object.keys(LEAST_ROLE).length);
    const declared = Object.fromEntries(plan.operations.map((operation) => [operation.key, operation.declared]));
    expect(declared).toEqual(LEAST_ROLE);
  });

  it('C7.3, C7.4, C7.6: every route × no session, an API key, viewer, member, admin and an unknown role: allowed or refused as the matrix says', async () => {
    const wrong: string[] = [];
    let allowed = 0;
    let refused = 0;
    for (const operation of planRoleMatrix(t.app.routeTable.routes()).operations) {
      for (const caller of callers(operation)) {
        const { status, body } = await call(operation.route, await caller.headers());
        let expected: 'allowed' | 401 | 403;
        if (caller.name === 'an API key') expected = 401;
        else if (caller.role === undefined) expected = operation.least === 'public' ? 'allowed' : 401;
        else expected = roleMayCall(caller.role, operation.least) ? 'allowed' : 403;
        const ok =
          expected === 'allowed'
            ? status !== 401 && status !== 403 && status < 500
            : status === expected && body.error === (expected === 401 ? 'unauthorized' : 'forbidden');
        if (!ok) wrong.push(`${operation.key} as ${caller.name}: expected ${String(expected)}, answered ${status} ${body.error ?? ''}`);
        if (expected === 'allowed') allowed += 1;
        else if (expected === 403) refused += 1;
      }
    }
    expect(wrong).toEqual([]);
    // the matrix has both sides for roles (a table of only "allowed" would prove little)
    expect(allowed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('a dashboard route added without a row in the matrix is reported, and so is a row whose route is gone', () => {
    const routes = t.app.routeTable.routes();
    const added: RegisteredRoute = { method: 'POST', url: '/dashboard/api/brand-new', public: false, dashboardAccess: 'admin', schema: undefined };
    expect(planRoleMatrix([...routes, added]).uncovered).toEqual(['POST /dashboard/api/brand-new']);
    const removed = routes.filter((route) => !(route.method === 'PATCH' && route.url === '/dashboard/api/leads/:id'));
    expect(planRoleMatrix(removed).stale).toEqual(['PATCH /dashboard/api/leads/:id']);
  });
});
