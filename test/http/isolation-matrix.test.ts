/**
 * Workspace isolation on every route the application registers, over real
 * HTTP, on both stores (spec general rule 2, spec Authentication 8, CONTRACT
 * C3.6, C3.7, C4.7, C0). The list of operations comes from the route table:
 * a route the matrix (helpers/isolation-matrix.ts) does not cover fails here,
 * and the last test shows that with a throwaway route. Both workspaces hold
 * items with the same ids (ids are unique per workspace only), so a query that
 * forgets its workspace answers with the other workspace's item and is seen.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { emitEvent } from '../../src/services/webhooks/events.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import {
  MARKER,
  MATRIX,
  matrixAdmin,
  matrixOrder,
  planMatrix,
  REFERENCE_FIELDS,
  seedHoldings,
  sharedIds,
  type Holdings,
  type PlannedOperation,
  type Resource,
  type SharedIds,
  type Target,
} from '../helpers/isolation-matrix.js';
import { openLiveStream } from '../helpers/live.js';
import { storeKinds } from '../helpers/stores.js';
import { conversion, createSiteKey, identify, pageView, postEvents } from '../helpers/tracking.js';

interface Answer {
  status: number;
  workspace: string | null;
  body: Record<string, unknown>;
}

const LIST_PATH: Record<Resource, string> = {
  leads: '/api/v1/leads',
  identities: '/api/v1/identities',
  activity: '',
  personalities: '',
  companies: '/api/v1/companies',
  lists: '/api/v1/lists',
  users: '/api/v1/users',
};

describe.each(storeKinds())('isolation matrix on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let a: Holdings;
  let b: Holdings;
  let shared: SharedIds;
  let plan: ReturnType<typeof planMatrix>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    shared = sharedIds();
    a = await seedHoldings(t, await t.createWorkspace('Matrix A'), 'A', shared);
    b = await seedHoldings(t, await t.createWorkspace('Matrix B'), 'B', shared);
    for (const holder of [a, b]) {
      holder.session = await signIn(holder.tag);
      keys.set(holder.tag, new Set([holder.workspace.production.id, holder.workspace.development.id]));
      const site = await createSiteKey(t, holder.workspace);
      siteKeys.set(holder.tag, new Map([[site.id, site.key]]));
    }
    plan = planMatrix(t.app.routeTable.routes());
  });
  const keys = new Map<string, Set<string>>();
  /** each workspace's site keys: id → key */
  const siteKeys = new Map<string, Map<string, string>>();

  /** The dashboard session of the workspace's admin (a person of that workspace only). */
  async function signIn(tag: string) {
    const { email, password } = matrixAdmin(tag);
    const response = await fetch(`${base}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const body = (await response.json()) as { data: { csrf_token: string } };
    return { cookie, csrf: body.data.csrf_token };
  }
  afterAll(async () => t?.close());

  /** A request of the workspace: with its API key under /api/v1, with its admin's session (never a key) under /dashboard/api. */
  async function call(
    workspace: TestWorkspace,
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<Answer> {
    const session = [a, b].find((holder) => holder.workspace.id === workspace.id)?.session;
    const credentials: Record<string, string> = path.startsWith('/dashboard/api/')
      ? { cookie: session?.cookie ?? '', 'x-csrf-token': session?.csrf ?? '' }
      : { authorization: `Bearer ${workspace.production.key}` };
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...credentials, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, workspace: response.headers.get('x-workspace-id'), body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
  }

  const pathOf = (operation: PlannedOperation, id: string) => operation.route.url.replace(':id', id);

  /** Every item of a list, walked page by page (limit 1) to its end. */
  async function walk(caller: Holdings, path: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 1) {
      const page = await call(caller.workspace, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=1&offset=${offset}`);
      expect(page.status, path).toBe(200);
      expect(page.workspace).toBe(caller.workspace.id);
      const data = page.body.data as Record<string, unknown>[];
      const pagination = page.body.pagination as { total: number };
      items.push(...data);
      if (offset + 1 >= pagination.total) {
        expect(items.length, `${path}: every page of the total was served`).toBe(pagination.total);
        return items;
      }
    }
  }

  function expectCallersItems(caller: Holdings, resource: Resource, items: Record<string, unknown>[], expected: Set<string>) {
    const ids = items.map((item) => item.id as string);
    expect(new Set(ids).size, 'no item twice').toBe(ids.length);
    expect(new Set(ids)).toEqual(expected);
    for (const item of items) {
      if ('workspace_id' in item) expect(item.workspace_id).toBe(caller.workspace.id);
      const [field, value] = MARKER[resource](caller.tag);
      if (item.id === shared[resource]) expect(item[field], `${resource} ${String(item.id)} is the caller's`).toEqual(value);
    }
  }

  async function unknownAnswer(caller: Holdings, operation: PlannedOperation, body?: unknown): Promise<Answer> {
    const answer = await call(caller.workspace, operation.route.method, pathOf(operation, randomUUID()), body);
    expect(answer.status).toBe(404);
    return answer;
  }

  async function checkList(caller: Holdings, operation: PlannedOperation, resource: Resource) {
    expectCallersItems(caller, resource, await walk(caller, operation.route.url), caller.ids[resource]);
  }

  async function keyIds(holder: Holdings): Promise<Set<string>> {
    const answer = await call(holder.workspace, 'GET', '/dashboard/api/keys');
    expect(answer.status).toBe(200);
    expect(answer.workspace).toBe(holder.workspace.id);
    return new Set((answer.body.data as { id: string }[]).map((key) => key.id));
  }

  async function checkKeys(caller: Holdings) {
    expect(await keyIds(caller)).toEqual(keys.get(caller.tag));
  }

  async function siteKeyList(holder: Holdings): Promise<{ id: string; key: string; revoked_at: string | null }[]> {
    const answer = await call(holder.workspace, 'GET', '/dashboard/api/site-keys');
    expect(answer.status).toBe(200);
    expect(answer.workspace).toBe(holder.workspace.id);
    return answer.body.data as { id: string; key: string; revoked_at: string | null }[];
  }

  /** each workspace sets its own ideal customer and reads it back; the other's never shows */
  async function checkIdealCustomer(caller: Holdings, other: Holdings) {
    const industries = [`${caller.tag} industry`];
    const set = await call(caller.workspace, 'PUT', '/dashboard/api/ideal-customer', { industries, employee_ranges: [], countries: [] });
    expect(set.status).toBe(200);
    expect(set.workspace).toBe(caller.workspace.id);
    const read = await call(caller.workspace, 'GET', '/dashboard/api/ideal-customer');
    expect((read.body.data as { industries: string[] }).industries).toEqual(industries);
    const theirs = await call(other.workspace, 'GET', '/dashboard/api/ideal-customer');
    expect(theirs.workspace).toBe(other.workspace.id);
    expect((theirs.body.data as { industries: string[] }).industries).not.toContain(industries[0]);
  }

  async function checkSiteKeys(caller: Holdings) {
    const listed = await siteKeyList(caller);
    expect(new Map(listed.map((key) => [key.id, key.key]))).toEqual(siteKeys.get(caller.tag));
  }

  /** whether events sent with the site key are taken (202) */
  async function siteKeyWorks(key: string): Promise<boolean> {
    const sent = await postEvents(base, key, [pageView(randomUUID(), '/still-works')]);
    return sent.status === 202;
  }

  /** another workspace's id answers like an unknown one, and the other workspace's item is untouched */
  async function checkAction(caller: Holdings, other: Holdings, operation: PlannedOperation, target: Target, body?: Record<string, unknown>) {
    const unknown = await unknownAnswer(caller, operation, body);
    const foreignId =
      target === 'keys' ? other.workspace.development.id : target === 'site-keys' ? [...siteKeys.get(other.tag)!.keys()][0]! : other.only[target];
    const answer = await call(caller.workspace, operation.route.method, pathOf(operation, foreignId), body);
    expect(answer).toEqual({ ...unknown, workspace: caller.workspace.id });
    if (target === 'keys') {
      expect(await keyIds(other)).toEqual(keys.get(other.tag));
      const stillWorks = await fetch(`${base}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${other.workspace.development.key}` } });
      expect(stillWorks.status).toBe(200);
    } else if (target === 'site-keys') {
      expect((await siteKeyList(other)).map((key) => [key.id, key.revoked_at])).toContainEqual([foreignId, null]);
      expect(await siteKeyWorks(siteKeys.get(other.tag)!.get(foreignId)!)).toBe(true);
    } else {
      expect((await read(other, target, foreignId)).status).toBe(200);
    }
  }

  async function checkErase(caller: Holdings, other: Holdings, operation: PlannedOperation) {
    const foreign = await read(other, 'identities', other.only.identities);
    const { email, visitor_id } = foreign.body.data as { email: string; visitor_id: string };
    const otherTotals = { leads: await total(other, 'leads'), identities: await total(other, 'identities') };
    for (const body of [{ email }, { visitor_id }] as Record<string, string>[]) {
      // the caller may hold a person of its own with that email (events name any email): only those go
      const own = await call(caller.workspace, 'GET', `/api/v1/identities?${new URLSearchParams(body).toString()}`);
      const answer = await call(caller.workspace, 'POST', operation.route.url, body);
      expect(answer.status).toBe(200);
      expect(answer.workspace).toBe(caller.workspace.id);
      expect((answer.body.data as { identities: number }).identities).toBe((own.body.pagination as { total: number }).total);
    }
    expect((await read(other, 'identities', other.only.identities)).body).toEqual(foreign.body);
    expect({ leads: await total(other, 'leads'), identities: await total(other, 'identities') }).toEqual(otherTotals);
  }

  async function checkWebhook(caller: Holdings, other: Holdings, operation: PlannedOperation, action: string) {
    const hook = { url: 'https://203.0.113.10/matrix', events: ['lead.created'] };
    const made = await call(other.workspace, 'POST', '/api/v1/webhooks', hook);
    expect(made.status).toBe(201);
    const foreignId = (made.body.data as { id: string }).id;
    const before = await call(other.workspace, 'GET', `/api/v1/webhooks/${foreignId}`);
    const ids = async (holder: Holdings) =>
      ((await call(holder.workspace, 'GET', '/api/v1/webhooks?limit=100')).body.data as { id: string }[]).map((item) => item.id);
    if (action === 'create') {
      const created = await call(caller.workspace, 'POST', operation.route.url, hook);
      expect(created.status).toBe(201);
      const id = (created.body.data as { id: string }).id;
      expect(await ids(caller)).toContain(id);
      expect(await ids(other)).not.toContain(id);
    } else if (action === 'list') {
      const answer = await call(caller.workspace, 'GET', operation.route.url);
      expect(answer.status).toBe(200);
      expect((answer.body.data as { id: string }[]).map((item) => item.id)).not.toContain(foreignId);
    } else if (action === 'retry') {
      // a delivery of the other workspace's endpoint (C11.2): neither through its endpoint nor through one of the caller's
      await new Store(t.db.database).forWorkspace(other.workspace.id).transaction((repos) => emitEvent(repos, 'lead.created', { code: 'matrix-retry' }));
      const deliveries = async () => call(other.workspace, 'GET', `/api/v1/webhooks/${foreignId}/deliveries?limit=100`);
      const listed = await deliveries();
      const deliveryId = (listed.body.data as { id: string }[])[0]!.id;
      const mine = await call(caller.workspace, 'POST', '/api/v1/webhooks', hook);
      const myId = (mine.body.data as { id: string }).id;
      for (const hookId of [foreignId, myId]) {
        const answer = await call(caller.workspace, 'POST', operation.route.url.replace(':id', hookId).replace(':delivery_id', deliveryId));
        expect(answer.status).toBe(404);
        expect(answer.workspace).toBe(caller.workspace.id);
      }
      expect(await deliveries()).toEqual(listed);
    } else {
      const body =
        action === 'update'
          ? { url: 'https://203.0.113.11/changed', enabled: false }
          : action === 'replay'
            ? { since: new Date(Date.now() - 86_400_000).toISOString() }
            : undefined;
      const answer = await call(caller.workspace, operation.route.method, pathOf(operation, foreignId), body);
      expect(answer.status).toBe(404);
      expect(answer.workspace).toBe(caller.workspace.id);
    }
    expect(await call(other.workspace, 'GET', `/api/v1/webhooks/${foreignId}`)).toEqual(before);
  }

  async function checkChanges(caller: Holdings, other: Holdings, operation: PlannedOperation) {
    // events written as a change writes them (emitEvent), without touching the fixtures other routes check
    const code = `matrix-changes-${randomUUID()}`;
    const emit = (holder: Holdings, data: Record<string, unknown>) =>
      new Store(t.db.database).forWorkspace(holder.workspace.id).transaction((repos) => emitEvent(repos, 'company.updated', data));
    await emit(other, { code });
    await emit(caller, { code: `${code}-mine` });
    const walk = async (holder: Holdings, wanted: string) => {
      const seen: { data: { code?: string } }[] = [];
      let url = `${base}${operation.route.url}?limit=100&types=company.updated`;
      let poll = '';
      // on PostgreSQL an event is served once older writing transactions have ended: ask again until it is there
      for (let reads = 0; reads < 500 && !seen.some((event) => event.data.code === wanted); reads++) {
        const response = await fetch(poll || url, { headers: { authorization: `Bearer ${holder.workspace.production.key}` } });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-workspace-id')).toBe(holder.workspace.id);
        seen.push(...((await response.json()) as { data: (typeof seen)[number][] }).data);
        const link = response.headers.get('link') ?? '';
        const next = /<([^>]+)>; rel="next"/.exec(link);
        if (next) url = next[1]!;
        else {
          poll = /<([^>]+)>; rel="poll"/.exec(link)![1]!;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      return { codes: seen.map((event) => event.data.code), poll };
    };
    const callerFeed = await walk(caller, `${code}-mine`);
    expect(callerFeed.codes).toContain(`${code}-mine`);
    expect(callerFeed.codes).not.toContain(code);
    const otherFeed = await walk(other, code);
    expect(otherFeed.codes).toContain(code);
    expect(otherFeed.codes).not.toContain(`${code}-mine`);
    const cursor = new URL(otherFeed.poll || callerFeed.poll).searchParams.get('cursor')!;
    const refused = await call(caller.workspace, 'GET', `${operation.route.url}?types=company.updated&cursor=${encodeURIComponent(cursor)}`);
    expect(refused.status).toBe(400);
    expect(refused.workspace).toBe(caller.workspace.id);
  }

  /** private AS numbers, three for each check (its rule, and the caller's refused and created ones): a random pick could repeat a rule (409) */
  let nextAsn = 64_512;
  async function checkCompanyRule(caller: Holdings, other: Holdings, operation: PlannedOperation, action: string) {
    const asn = nextAsn;
    nextAsn += 3;
    const made = await call(other.workspace, 'POST', '/api/v1/company-rules', { match: { asn }, company_id: other.only.companies });
    expect(made.status).toBe(201);
    const foreignId = (made.body.data as { id: string }).id;
    const before = await call(other.workspace, 'GET', `/api/v1/company-rules/${foreignId}`);
    const ids = async (holder: Holdings) =>
      ((await call(holder.workspace, 'GET', '/api/v1/company-rules?limit=100')).body.data as { id: string }[]).map((item) => item.id);
    if (action === 'create') {
      const callerBefore = await ids(caller);
      const refused = await call(caller.workspace, 'POST', operation.route.url, { match: { asn: asn + 1 }, company_id: other.only.companies });
      expect(refused.status).toBe(403);
      expect(await ids(caller)).toEqual(callerBefore);
      const created = await call(caller.workspace, 'POST', operation.route.url, { match: { asn: asn + 2 }, company_id: caller.only.companies });
      expect(created.status).toBe(201);
      const id = (created.body.data as { id: string }).id;
      expect(await ids(caller)).toContain(id);
      expect(await ids(other)).not.toContain(id);
    } else if (action === 'list') {
      const answer = await call(caller.workspace, 'GET', operation.route.url);
      expect(answer.status).toBe(200);
      expect((answer.body.data as { id: string }[]).map((item) => item.id)).not.toContain(foreignId);
    } else {
      const answer = await call(caller.workspace, operation.route.method, pathOf(operation, foreignId));
      expect(answer.status).toBe(404);
      expect(answer.workspace).toBe(caller.workspace.id);
    }
    expect(await call(other.workspace, 'GET', `/api/v1/company-rules/${foreignId}`)).toEqual(before);
  }

  async function checkAlert(caller: Holdings, other: Holdings, operation: PlannedOperation, action: string) {
    const alert = (listId: string) => ({ name: 'matrix', trigger: { type: 'segment_entered', list_id: listId }, destination: { type: 'email', to: ['sales@example.com'] } });
    const made = await call(other.workspace, 'POST', '/api/v1/alerts', alert(other.only.lists));
    expect(made.status).toBe(201);
    const foreignId = (made.body.data as { id: string }).id;
    const before = await call(other.workspace, 'GET', `/api/v1/alerts/${foreignId}`);
    const ids = async (holder: Holdings) => ((await call(holder.workspace, 'GET', '/api/v1/alerts?limit=100')).body.data as { id: string }[]).map((item) => item.id);
    if (action === 'create') {
      const callerBefore = await ids(caller);
      const refused = await call(caller.workspace, 'POST', operation.route.url, alert(other.only.lists));
      expect(refused.status).toBe(403);
      expect(await ids(caller)).toEqual(callerBefore);
      const created = await call(caller.workspace, 'POST', operation.route.url, alert(caller.only.lists));
      expect(created.status).toBe(201);
      const id = (created.body.data as { id: string }).id;
      expect(await ids(caller)).toContain(id);
      expect(await ids(other)).not.toContain(id);
    } else if (action === 'list') {
      const answer = await call(caller.workspace, 'GET', operation.route.url);
      expect(answer.status).toBe(200);
      expect((answer.body.data as { id: string }[]).map((item) => item.id)).not.toContain(foreignId);
    } else {
      const body = action === 'update' ? { enabled: false, cooldown_minutes: 5 } : undefined;
      const answer = await call(caller.workspace, operation.route.method, pathOf(operation, foreignId), body);
      expect(answer.status).toBe(404);
      expect(answer.workspace).toBe(caller.workspace.id);
    }
    expect(await call(other.workspace, 'GET', `/api/v1/alerts/${foreignId}`)).toEqual(before);
  }

  const notesOf = async (holder: Holdings, leadId: string) => walk(holder, `/api/v1/leads/${leadId}/notes`);

  async function checkNotes(caller: Holdings, other: Holdings, operation: PlannedOperation, action: 'list' | 'create' | 'read') {
    if (action === 'read') {
      const path = (lead: string, note: string) => operation.route.url.replace(':id', lead).replace(':note_id', note);
      const [theirs] = await notesOf(other, other.only.leads);
      const [mine] = await notesOf(caller, shared.leads);
      const unknown = await call(caller.workspace, 'GET', path(shared.leads, randomUUID()));
      expect(unknown.status).toBe(404);
      // the other workspace's note, on its lead or named under the caller's shared lead: as unknown
      expect(await call(caller.workspace, 'GET', path(other.only.leads, theirs!.id as string))).toEqual({ ...unknown, workspace: caller.workspace.id });
      expect(await call(caller.workspace, 'GET', path(shared.leads, theirs!.id as string))).toEqual({ ...unknown, workspace: caller.workspace.id });
      const own = await call(caller.workspace, 'GET', path(shared.leads, mine!.id as string));
      expect(own.status).toBe(200);
      expect(own.body.data).toEqual(mine);
      return;
    }
    const body = action === 'create' ? { body: `${caller.tag} note` } : undefined;
    const unknown = await unknownAnswer(caller, operation, body);
    const othersBefore = await notesOf(other, other.only.leads);
    expect(othersBefore.length).toBeGreaterThan(0);
    expect(await call(caller.workspace, operation.route.method, pathOf(operation, other.only.leads), body)).toEqual({ ...unknown, workspace: caller.workspace.id });
    expect(await notesOf(other, other.only.leads)).toEqual(othersBefore);
    const otherShared = await notesOf(other, shared.leads);
    const answer = await call(caller.workspace, operation.route.method, pathOf(operation, shared.leads), body);
    expect(answer.status).toBe(action === 'create' ? 201 : 200);
    expect(answer.workspace).toBe(caller.workspace.id);
    const mine = operation.route.method === 'GET' ? await walk(caller, pathOf(operation, shared.leads)) : await notesOf(caller, shared.leads);
    expect(mine.length).toBeGreaterThan(0);
    for (const note of mine) expect(note.body, "the shared lead's notes are the caller's").toBe(`${caller.tag} note`);
    expect(await notesOf(other, shared.leads)).toEqual(otherShared);
  }

  async function checkOwnCreate(caller: Holdings, other: Holdings, operation: PlannedOperation, target: 'keys' | 'site-keys' | 'users', body: Record<string, unknown>) {
    const before = target === 'keys' ? await keyIds(other) : target === 'site-keys' ? await siteKeyList(other) : await total(other, 'users');
    const created = await call(caller.workspace, 'POST', operation.route.url, body);
    expect(created.status).toBe(201);
    expect(created.workspace).toBe(caller.workspace.id);
    const data = created.body.data as { id?: string; key?: string; workspace_id?: string; member?: { id: string } };
    if (target === 'keys') {
      expect(data.workspace_id).toBe(caller.workspace.id);
      keys.get(caller.tag)!.add(data.id as string);
      const used = await fetch(`${base}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${data.key}` } });
      expect(used.headers.get('x-workspace-id')).toBe(caller.workspace.id);
      expect(await keyIds(other)).toEqual(before);
    } else if (target === 'site-keys') {
      expect(data.workspace_id).toBe(caller.workspace.id);
      siteKeys.get(caller.tag)!.set(data.id as string, data.key as string);
      expect(await siteKeyList(other)).toEqual(before);
      // its events land in the caller's workspace (the ingest check shows they never reach the other)
      const sent = await postEvents(base, data.key as string, [pageView(randomUUID(), '/matrix')], { origin: 'https://matrix.example.com' });
      expect(sent.status).toBe(202);
    } else {
      caller.ids.users.add(data.member!.id);
      expect((await read(caller, 'users', data.member!.id)).status).toBe(200);
      expect((await read(other, 'users', data.member!.id)).status).toBe(404);
      expect(await total(other, 'users')).toBe(before);
    }
  }

  async function checkSummary(caller: Holdings, other: Holdings, of: 'workspace' | 'overview/traffic' | 'tracking-status') {
    if (of === 'overview/traffic') {
      // a page view on a site of the caller's own: its sites and pages show it, and never the other workspace's
      const [key] = siteKeys.get(caller.tag)!.values();
      const site = (holder: Holdings) => `summary-${holder.tag.toLowerCase()}.example.com`;
      expect((await postEvents(base, key!, [pageView(randomUUID(), '/', { url: `https://${site(caller)}/traffic` })])).status).toBe(202);
      const answer = await call(caller.workspace, 'GET', `/dashboard/api/overview/traffic?site=${site(caller)}`);
      expect(answer.status).toBe(200);
      expect(answer.workspace).toBe(caller.workspace.id);
      const data = answer.body.data as { sites: string[]; breakdowns: { pages: { host: string; path: string }[] } };
      expect(data.sites).toContain(site(caller));
      expect(data.sites).not.toContain(site(other));
      expect(data.breakdowns.pages).toEqual([expect.objectContaining({ host: site(caller), path: '/traffic' })]);
      const theirs = await call(caller.workspace, 'GET', `/dashboard/api/overview/traffic?site=${site(other)}`);
      expect((theirs.body.data as { breakdowns: { pages: unknown[] } }).breakdowns.pages).toEqual([]);
      return;
    }
    if (of === 'tracking-status') {
      // a page view of the caller's own: its tracking status turns true
      const [key] = siteKeys.get(caller.tag)!.values();
      expect((await postEvents(base, key!, [pageView(randomUUID(), `/summary-${caller.tag}`)])).status).toBe(202);
    }
    const answer = await call(caller.workspace, 'GET', `/dashboard/api/${of}`);
    expect(answer.status).toBe(200);
    expect(answer.workspace).toBe(caller.workspace.id);
    if (of === 'workspace') expect((answer.body.data as { id: string }).id).toBe(caller.workspace.id);
    // the caller's own event is what it reports (a workspace with none reports false: dashboard-first-run.test.ts)
    else expect(answer.body.data).toEqual({ received_events: true });
  }

  /** the caller's own digest choice and its workspace's time zone are set and read in its workspace; the other's time zone stays */
  async function checkDigest(caller: Holdings, other: Holdings, of: 'choice' | 'time-zone') {
    const zoneOf = async (holder: Holdings) => ((await call(holder.workspace, 'GET', '/dashboard/api/workspace')).body.data as { time_zone: string }).time_zone;
    if (of === 'time-zone') {
      const zone = caller === a ? 'Europe/Berlin' : 'Asia/Tokyo';
      const theirs = await zoneOf(other);
      const set = await call(caller.workspace, 'PUT', '/dashboard/api/workspace/time-zone', { time_zone: zone });
      expect(set.status).toBe(200);
      expect(set.workspace).toBe(caller.workspace.id);
      expect(await zoneOf(caller)).toBe(zone);
      expect(await zoneOf(other)).toBe(theirs);
      return;
    }
    const digest = caller === a ? 'daily' : 'weekly';
    const set = await call(caller.workspace, 'PUT', '/dashboard/api/account/digest', { digest });
    expect(set.status).toBe(200);
    expect(set.workspace).toBe(caller.workspace.id);
    const read = await call(caller.workspace, 'GET', '/dashboard/api/account/digest');
    expect(read.body.data).toMatchObject({ digest, time_zone: await zoneOf(caller) });
  }

  async function checkSearch(caller: Holdings, other: Holdings) {
    const answer = await call(caller.workspace, 'GET', '/dashboard/api/search?q=SHARED');
    expect(answer.status).toBe(200);
    const hits = answer.body.data as { type: 'person' | 'company' | 'lead'; id: string; label: string; detail: string | null }[];
    const resource = { person: 'identities', company: 'companies', lead: 'leads' } as const;
    expect(new Set(hits.map((hit) => hit.type))).toEqual(new Set(['person', 'company', 'lead']));
    const others = new RegExp(`^${other.tag}[ .-]shared`, 'i');
    for (const hit of hits) {
      expect(caller.ids[resource[hit.type]].has(hit.id)).toBe(true);
      expect(`${hit.label}`).not.toMatch(others);
      expect(`${hit.detail}`).not.toMatch(others);
    }
  }

  async function checkSegmentCount(caller: Holdings, other: Holdings) {
    const count = async (rule: unknown) => {
      const answer = await call(caller.workspace, 'POST', '/dashboard/api/segments/count', { rule });
      expect(answer.status).toBe(200);
      expect(answer.workspace).toBe(caller.workspace.id);
      return answer.body.data as { count: number; examined: number; complete: boolean };
    };
    // everyone at example.com: exactly the caller's people, every one of them looked at
    const everyone = await count({ all: [{ field: 'email', op: 'ends_with', value: '@example.com' }] });
    expect(everyone).toEqual({ count: await total(caller, 'identities'), examined: await total(caller, 'identities'), complete: true });
    // the shared identity's name and its company's domain: the caller's match, the other workspace's never
    for (const [holder, expected] of [[caller, 1], [other, 0]] as const) {
      const lower = holder.tag.toLowerCase();
      expect((await count({ all: [{ field: 'name', op: 'eq', value: `${holder.tag} Shared` }] })).count).toBe(expected);
      expect((await count({ any: [{ field: 'company.domain', op: 'eq', value: `${lower}-shared.example` }] })).count).toBe(expected);
    }
  }

  async function checkSegmentSuggestions(caller: Holdings, other: Holdings) {
    const answer = await call(caller.workspace, 'GET', '/dashboard/api/segments/suggestions?of=company.domain');
    expect(answer.status).toBe(200);
    expect(answer.workspace).toBe(caller.workspace.id);
    const values = (answer.body.data as { value: string }[]).map((suggestion) => suggestion.value);
    expect(values).toContain(`${caller.tag.toLowerCase()}-shared.example`);
    expect(values.filter((value) => value.startsWith(`${other.tag.toLowerCase()}-`))).toEqual([]);
  }

  async function checkLive(caller: Holdings, other: Holdings) {
    for (const holder of [caller, other]) {
      const [key] = siteKeys.get(holder.tag)!.values();
      expect((await postEvents(base, key!, [pageView(randomUUID(), `/live-${holder.tag}`)])).status).toBe(202);
    }
    const answer = await call(caller.workspace, 'GET', '/dashboard/api/live');
    expect(answer.status).toBe(200);
    const pages = (answer.body.data as { visits: { current_page: string | null }[] }).visits.map((visit) => visit.current_page ?? '');
    expect(pages.some((page) => page.endsWith(`/live-${caller.tag}`))).toBe(true);
    expect(pages.some((page) => page.endsWith(`/live-${other.tag}`))).toBe(false);
  }

  async function checkLiveStream(caller: Holdings, other: Holdings) {
    const session = caller.session!;
    const stream = await openLiveStream(base, { cookie: session.cookie, 'x-csrf-token': session.csrf });
    try {
      expect(stream.status).toBe(200);
      const [otherKey] = siteKeys.get(other.tag)!.values();
      // a notice of the caller's own earlier visits may still be on its way (coalesced for 500 ms)
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = stream.received;
      expect((await postEvents(base, otherKey!, [pageView(randomUUID(), '/live-elsewhere')])).status).toBe(202);
      await expect(stream.waitBeyond(before, 1500)).rejects.toThrow();
      const [key] = siteKeys.get(caller.tag)!.values();
      expect((await postEvents(base, key!, [pageView(randomUUID(), '/live-own')])).status).toBe(202);
      await stream.waitBeyond(before, 5000);
    } finally {
      await stream.close();
    }
  }

  async function checkSwitch(caller: Holdings, other: Holdings, operation: PlannedOperation) {
    for (const workspaceId of [other.workspace.id, randomUUID()]) {
      const answer = await call(caller.workspace, 'PUT', operation.route.url, { workspace_id: workspaceId });
      expect(answer.status).toBe(404);
    }
    expect((await call(caller.workspace, 'GET', '/dashboard/api/workspace')).workspace).toBe(caller.workspace.id);
  }

  async function checkRead(caller: Holdings, other: Holdings, operation: PlannedOperation, resource: Resource) {
    const unknown = await unknownAnswer(caller, operation);
    const foreign = await call(caller.workspace, 'GET', pathOf(operation, other.only[resource]));
    expect(foreign).toEqual({ ...unknown, workspace: caller.workspace.id });
    const own = await call(caller.workspace, 'GET', pathOf(operation, shared[resource]));
    expect(own.status).toBe(200);
    expectCallersItems(caller, resource, [own.body.data as Record<string, unknown>], new Set([shared[resource]]));
  }

  async function checkChildren(caller: Holdings, other: Holdings, operation: PlannedOperation, parent: Resource, child: Resource, paged: boolean) {
    const unknown = await unknownAnswer(caller, operation);
    expect(await call(caller.workspace, 'GET', pathOf(operation, other.only[parent]))).toEqual({ ...unknown, workspace: caller.workspace.id });
    const path = pathOf(operation, shared[parent]);
    const items = paged ? await walk(caller, path) : ((await call(caller.workspace, 'GET', path)).body.data as Record<string, unknown>[]);
    expectCallersItems(caller, child, items, caller.children[child]![shared[parent]]!);
  }

  async function read(holder: Holdings, resource: Resource, id: string) {
    return call(holder.workspace, 'GET', `${LIST_PATH[resource]}/${id}`);
  }

  async function checkUpdate(caller: Holdings, other: Holdings, operation: PlannedOperation, resource: Resource, body: Record<string, unknown>) {
    const foreignReferences = Object.fromEntries(operation.references.map((field) => [field, other.only[REFERENCE_FIELDS[field]!]]));
    const unknown = await unknownAnswer(caller, operation, body);
    // another workspace's item, even with references to that workspace's items: 404 as if unknown, and unchanged
    const before = await read(other, resource, other.only[resource]);
    for (const contentType of ['application/json', 'application/merge-patch+json']) {
      const answer = await call(caller.workspace, 'PATCH', pathOf(operation, other.only[resource]), { ...body, ...foreignReferences }, contentType);
      expect(answer, contentType).toEqual({ ...unknown, workspace: caller.workspace.id });
    }
    expect(await read(other, resource, other.only[resource])).toEqual(before);

    // the caller's own item with a shared id changes; the other workspace's item with that id does not
    const otherShared = await read(other, resource, shared[resource]);
    const changed = await call(caller.workspace, 'PATCH', pathOf(operation, shared[resource]), body);
    expect(changed.status).toBe(200);
    expect((changed.body.data as { id: string }).id).toBe(shared[resource]);
    expect(await read(other, resource, shared[resource])).toEqual(otherShared);

    // a reference to another workspace's item is refused and changes nothing (C3.7)
    for (const field of operation.references) {
      const own = await read(caller, resource, shared[resource]);
      const refused = await call(caller.workspace, 'PATCH', pathOf(operation, shared[resource]), { [field]: foreignReferences[field] });
      expect(refused.status, field).toBe(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: 'access denied to requested resource', details: { field } });
      expect(await read(caller, resource, shared[resource])).toEqual(own);
    }
  }

  async function total(holder: Holdings, resource: Resource): Promise<number> {
    return ((await call(holder.workspace, 'GET', `${LIST_PATH[resource]}?limit=1`)).body.pagination as { total: number }).total;
  }

  async function checkCreate(caller: Holdings, other: Holdings, operation: PlannedOperation, resource: Resource, body: Record<string, unknown>) {
    for (const field of operation.references) {
      const totals = [await total(caller, resource), await total(other, resource)];
      const refused = await call(caller.workspace, 'POST', operation.route.url, { ...body, [field]: other.only[REFERENCE_FIELDS[field]!] });
      expect(refused.status, field).toBe(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: 'access denied to requested resource', details: { field } });
      expect([await total(caller, resource), await total(other, resource)]).toEqual(totals);
    }
    // references by a shared id name the caller's own items
    const references = Object.fromEntries(operation.references.map((field) => [field, shared[REFERENCE_FIELDS[field]!]]));
    const created = await call(caller.workspace, 'POST', operation.route.url, { ...body, ...references });
    expect(created.status).toBe(201);
    const item = created.body.data as Record<string, unknown>;
    // list objects keep the spec's fields, which have no workspace_id (C6.4)
    expect(item).toMatchObject({ ...(resource === 'lists' ? {} : { workspace_id: caller.workspace.id }), ...references });
    caller.ids[resource].add(item.id as string);
    expect((await read(other, resource, item.id as string)).status).toBe(404);
  }

  async function checkDetail(caller: Holdings, other: Holdings, operation: PlannedOperation, resource: Resource) {
    const unknown = await unknownAnswer(caller, operation);
    expect(await call(caller.workspace, 'GET', pathOf(operation, other.only[resource]))).toEqual({ ...unknown, workspace: caller.workspace.id });
    const own = await call(caller.workspace, 'GET', pathOf(operation, shared[resource]));
    expect(own.status).toBe(200);
    expect(own.workspace).toBe(caller.workspace.id);
  }

  const membersOf = async (holder: Holdings, listId: string) =>
    new Set((await walk(holder, `/api/v1/lists/${listId}/identities`)).map((identity) => identity.id as string));

  async function checkAddMembers(caller: Holdings, other: Holdings, operation: PlannedOperation) {
    const body = { identity_ids: [caller.only.identities] };
    const unknown = await unknownAnswer(caller, operation, body);
    const otherMembers = await membersOf(other, other.only.lists);
    expect(await call(caller.workspace, 'POST', pathOf(operation, other.only.lists), body)).toEqual({ ...unknown, workspace: caller.workspace.id });
    expect(await membersOf(other, other.only.lists)).toEqual(otherMembers);
    // another workspace's identity is refused (C3.7), and nothing is added
    const before = await membersOf(caller, caller.only.lists);
    const refused = await call(caller.workspace, 'POST', pathOf(operation, caller.only.lists), { identity_ids: [other.only.identities] });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: 'access denied to requested resource', details: { field: 'identity_ids' } });
    expect(await membersOf(caller, caller.only.lists)).toEqual(before);
    // a shared id names the caller's own identity
    const added = await call(caller.workspace, 'POST', pathOf(operation, caller.only.lists), { identity_ids: [shared.identities] });
    expect(added.status).toBe(200);
    expect(await membersOf(caller, caller.only.lists)).toEqual(new Set([...before, shared.identities]));
  }

  async function checkRemoveMember(caller: Holdings, other: Holdings, operation: PlannedOperation) {
    const path = (list: string, identity: string) => operation.route.url.replace(':id', list).replace(':identity_id', identity);
    const otherMembers = await membersOf(other, shared.lists);
    const unknown = await call(caller.workspace, 'DELETE', path(randomUUID(), shared.identities));
    expect(unknown.status).toBe(404);
    expect(await call(caller.workspace, 'DELETE', path(other.only.lists, shared.identities))).toEqual({ ...unknown, workspace: caller.workspace.id });
    const unknownIdentity = await call(caller.workspace, 'DELETE', path(shared.lists, randomUUID()));
    expect(unknownIdentity.status).toBe(404);
    expect(await call(caller.workspace, 'DELETE', path(shared.lists, other.only.identities))).toEqual({ ...unknownIdentity, workspace: caller.workspace.id });
    expect(await membersOf(other, shared.lists)).toEqual(otherMembers);
  }

  /** What the other workspace's API key can see of its data. */
  async function observable(holder: Holdings) {
    const sharedIdentity = shared.identities;
    return {
      identities: await walk(holder, LIST_PATH.identities),
      leads: await walk(holder, LIST_PATH.leads),
      activity: await walk(holder, `/api/v1/identities/${sharedIdentity}/activity`),
      personalities: (await call(holder.workspace, 'GET', `/api/v1/identities/${sharedIdentity}/personalities`)).body,
    };
  }

  async function checkIngest(caller: Holdings, other: Holdings) {
    const { key } = await createSiteKey(t, caller.workspace);
    const before = await observable(other);
    const otherEmail = `${other.tag.toLowerCase()}.shared@example.com`;
    const emails = [otherEmail, `${other.tag.toLowerCase()}.own@example.com`];
    // the visitor id both workspaces' shared identities have, and the other workspace's emails
    const sent = await postEvents(base, key, [
      pageView(shared.visitor, '/pricing'),
      identify(shared.visitor, { email: emails[0], name: 'Via events' }),
      identify(shared.visitor, { email: emails[1] }),
      conversion(shared.visitor, 'Signed up', { code: `ingest-${caller.tag}` }),
    ]);
    expect(sent.status).toBe(202);
    expect(await observable(other)).toEqual(before);
    // what they derived is the caller's own (and joins its holdings, for the other checks)
    for (const email of emails) {
      const found = await call(caller.workspace, 'GET', `/api/v1/identities?email=${email}`);
      const items = found.body.data as Record<string, unknown>[];
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ workspace_id: caller.workspace.id, visitor_id: shared.visitor });
      caller.ids.identities.add(items[0]!.id as string);
    }
    const leads = (await walk(caller, LIST_PATH.leads)).filter((lead) => lead.code === `ingest-${caller.tag}`);
    expect(leads).toHaveLength(1);
    caller.ids.leads.add(leads[0]!.id as string);
  }

  /** C11.5: an export in either format holds exactly the caller's items */
  async function checkExport(caller: Holdings, operation: PlannedOperation, resource: Resource) {
    for (const format of ['ndjson', 'csv']) {
      const credentials: Record<string, string> = operation.route.url.startsWith('/dashboard/api/')
        ? { cookie: caller.session?.cookie ?? '' }
        : { authorization: `Bearer ${caller.workspace.production.key}` };
      const response = await fetch(`${base}${operation.route.url}?format=${format}`, { headers: credentials });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-workspace-id')).toBe(caller.workspace.id);
      const lines = (await response.text()).split(format === 'csv' ? '\r\n' : '\n').filter((line) => line !== '');
      if (format === 'ndjson') {
        expectCallersItems(caller, resource, lines.map((line) => JSON.parse(line) as Record<string, unknown>), caller.ids[resource]);
      } else {
        // no cell of these fixtures holds a line break: each line is a row, its first cell the id
        expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(caller.ids[resource]);
      }
    }
  }

  /** C11.3: a search walked page by page (limit 1) through its Link cursors: the caller's items only, also for a filter on the shared id */
  async function checkRecordSearch(caller: Holdings, operation: PlannedOperation, resource: Resource) {
    const searchWalk = async (filter?: unknown) => {
      const items: Record<string, unknown>[] = [];
      let url = `${base}${operation.route.url}`;
      for (;;) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${caller.workspace.production.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...(filter === undefined ? {} : { filter }), limit: 1, sort: [{ field: 'created_at', order: 'asc' }] }),
        });
        expect(response.status, url).toBe(200);
        expect(response.headers.get('x-workspace-id')).toBe(caller.workspace.id);
        const page = (await response.json()) as { data: Record<string, unknown>[]; pagination: { total: number } };
        items.push(...page.data);
        const next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '');
        if (next === null) {
          expect(items.length).toBe(page.pagination.total);
          return items;
        }
        url = next[1]!;
      }
    };
    expectCallersItems(caller, resource, await searchWalk(), caller.ids[resource]);
    const ids = await searchWalk({ any: [{ all: [{ field: 'id', op: 'in', value: [...caller.ids[resource]] }] }] });
    expectCallersItems(caller, resource, ids, caller.ids[resource]);
  }

  /** C11.4: a batch naming the other workspace's items (by id, by reference, by email) never reaches them */
  async function checkBatch(caller: Holdings, other: Holdings, operation: PlannedOperation, resource: 'leads' | 'identities') {
    if (resource === 'leads') {
      const foreign = await read(other, 'leads', other.only.leads);
      const otherTotal = await total(other, 'leads');
      const callerTotal = await total(caller, 'leads');
      for (const operations of [
        [{ op: 'update', id: other.only.leads, body: { properties: { batch: true } } }],
        [{ op: 'create', body: { code: 'batch' } }, { op: 'create', body: { company_id: other.only.companies } }],
        [{ op: 'create', body: { identity_id: other.only.identities } }],
      ]) {
        const answer = await call(caller.workspace, 'POST', operation.route.url, { operations });
        expect(answer.status, JSON.stringify(operations)).toBe(400);
        expect(answer.workspace).toBe(caller.workspace.id);
      }
      expect(await total(caller, 'leads')).toBe(callerTotal);
      expect(await read(other, 'leads', other.only.leads)).toEqual(foreign);
      expect(await total(other, 'leads')).toBe(otherTotal);
      return;
    }
    // an email only the other workspace holds (made here, so that no other check meets it)
    const email = `batch-${other.tag.toLowerCase()}-${randomUUID()}@example.com`;
    const made = await call(other.workspace, 'POST', '/api/v1/identities', { email, name: 'Theirs' });
    expect(made.status).toBe(201);
    const theirs = made.body.data as { id: string };
    other.ids.identities.add(theirs.id);
    const before = await read(other, 'identities', theirs.id);
    const answer = await call(caller.workspace, 'POST', operation.route.url, { identities: [{ email, name: 'Batch', traits: { batch: true } }] });
    expect(answer.status).toBe(200);
    const [result] = answer.body.data as { outcome: string; data: { id: string; workspace_id: string } }[];
    expect(result!.outcome).toBe('created');
    expect(result!.data.workspace_id).toBe(caller.workspace.id);
    caller.ids.identities.add(result!.data.id);
    expect(await read(other, 'identities', theirs.id)).toEqual(before);
  }

  it('covers every route the application registers, and every entry names a real route', () => {
    expect(plan.uncovered).toEqual([]);
    expect(plan.operations.map((operation) => operation.key).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const key of matrixOrder(Object.keys(MATRIX))) {
    it(`${key}`, async () => {
      const operation = plan.operations.find((candidate) => candidate.key === key);
      expect(operation, `${key} is registered`).toBeDefined();
      const spec = operation!.operation;
      for (const [caller, other] of [
        [b, a],
        [a, b],
      ] as const) {
        switch (spec.kind) {
          case 'list':
            await checkList(caller, operation!, spec.resource);
            break;
          case 'keys':
            await checkKeys(caller);
            break;
          case 'site-keys':
            await checkSiteKeys(caller);
            break;
          case 'ideal-customer':
            await checkIdealCustomer(caller, other);
            break;
          case 'action':
            await checkAction(caller, other, operation!, spec.target, spec.body);
            break;
          case 'own-create':
            await checkOwnCreate(caller, other, operation!, spec.target, spec.body());
            break;
          case 'summary':
            await checkSummary(caller, other, spec.of);
            break;
          case 'search':
            await checkSearch(caller, other);
            break;
          case 'segment-count':
            await checkSegmentCount(caller, other);
            break;
          case 'segment-suggestions':
            await checkSegmentSuggestions(caller, other);
            break;
          case 'digest':
            await checkDigest(caller, other, spec.of);
            break;
          case 'live':
            await checkLive(caller, other);
            break;
          case 'live-stream':
            await checkLiveStream(caller, other);
            break;
          case 'switch':
            await checkSwitch(caller, other, operation!);
            break;
          case 'read':
            await checkRead(caller, other, operation!, spec.resource);
            break;
          case 'children':
            await checkChildren(caller, other, operation!, spec.parent, spec.child, spec.paged);
            break;
          case 'update':
            await checkUpdate(caller, other, operation!, spec.resource, spec.body);
            break;
          case 'create':
            await checkCreate(caller, other, operation!, spec.resource, spec.body);
            break;
          case 'ingest':
            await checkIngest(caller, other);
            break;
          case 'erase':
            await checkErase(caller, other, operation!);
            break;
          case 'detail':
            await checkDetail(caller, other, operation!, spec.resource);
            break;
          case 'add-members':
            await checkAddMembers(caller, other, operation!);
            break;
          case 'remove-member':
            await checkRemoveMember(caller, other, operation!);
            break;
          case 'webhook':
            await checkWebhook(caller, other, operation!, spec.action);
            break;
          case 'company-rule':
            await checkCompanyRule(caller, other, operation!, spec.action);
            break;
          case 'changes':
            await checkChanges(caller, other, operation!);
            break;
          case 'alert':
            await checkAlert(caller, other, operation!, spec.action);
            break;
          case 'batch':
            await checkBatch(caller, other, operation!, spec.resource);
            break;
          case 'notes':
            await checkNotes(caller, other, operation!, spec.action);
            break;
          case 'record-search':
            await checkRecordSearch(caller, operation!, spec.resource);
            break;
          case 'export':
            await checkExport(caller, operation!, spec.resource);
            break;
        }
      }
    });
  }
});

describe('the isolation matrix itself', () => {
  it('fails for a route added without coverage, and for a body reference it has no fixture for', async () => {
    const throwaway: FastifyPluginAsync = async (app) => {
      app.get('/things/:id', async () => ({ data: {} }));
      app.post('/things', { schema: { body: { type: 'object', properties: { account_id: { type: 'string' } } } } }, async () => ({}));
      app.post('/leads/:id/attachments', { schema: { body: { type: 'object', properties: { note: { type: 'string' } } } } }, async () => ({}));
    };
    const t = await createTestApp('sqlite', { extraRoutes: throwaway });
    try {
      const { uncovered } = planMatrix(t.app.routeTable.routes());
      expect(uncovered).toEqual(['GET /api/v1/things/:id', 'POST /api/v1/things', 'POST /api/v1/leads/:id/attachments']);
    } finally {
      await t.close();
    }
  });
});
