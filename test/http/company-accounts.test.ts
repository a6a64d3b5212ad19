/**
 * Companies as accounts on both stores (CONTRACT C6.9, C9.4): visitors send
 * their events to the real events endpoint from a business network (their
 * address through X-Forwarded-For) or from a home connection with a business
 * email; the company's engagement counts every visitor whose visits name it,
 * identified or not, over a window of days with exact edges; its activity
 * merges its identities' activity and its anonymous visitors' page views,
 * newest first, by offset and by cursor; the dashboard reads the same, with
 * the companies list sorted by last visit and account score.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreAccount } from '../../src/intelligence/account-score.js';
import { emptyAggregates } from '../../src/intelligence/aggregates.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;
const DAY_MS = 86_400_000;
/** an ISP's address (Videotron): no company */
const HOME = '24.48.0.1';
/** Deutsche Bank AG (AS8373): a business network that names its company (C6.5) */
const BUSINESS = '129.35.230.10';

const midnight = (at: number) => Date.parse(`${new Date(at).toISOString().slice(0, 10)}T00:00:00.000Z`);

describe.each(storeKinds())('companies as accounts on %s (C6.9)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;
  let network: Item;
  let acme: Item;
  const anonymous = randomUUID();
  const identified = randomUUID();
  const emailed = randomUUID();
  let viewer: DashboardSession;

  const send = async (events: Event[], address: string) => {
    const answer = await postEvents(base, key, events, { 'x-forwarded-for': address });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const ago = (ms: number) => ({ ts: new Date(Date.now() - ms).toISOString() });

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Accounts');
    key = (await createSiteKey(t, workspace)).key;
    // an anonymous visitor of the business network: four pages, two of them pricing
    await send(
      [pageView(anonymous, '/pricing', ago(50 * 60_000)), pageView(anonymous, '/', ago(49 * 60_000)), pageView(anonymous, '/pricing', ago(48 * 60_000)), pageView(anonymous, '/docs', ago(47 * 60_000))],
      BUSINESS,
    );
    // a person of the same network, with a free-mail address: the network's company is theirs
    await send([pageView(identified, '/pricing', ago(40 * 60_000)), pageView(identified, '/careers', ago(39 * 60_000)), identify(identified, { email: `casey.${randomUUID()}@gmail.com`, name: 'Casey' }, ago(38 * 60_000))], BUSINESS);
    // someone at another company, from home
    await send([pageView(emailed, '/blog', ago(30 * 60_000)), identify(emailed, { email: 'dana@acme-accounts.com', name: 'Dana' }, ago(29 * 60_000))], HOME);
    await t.services.intelligence.runWorkspace(workspace.id);
    network = (await all(base, workspace, '/companies?name=deutsche bank'))[0]!;
    acme = (await all(base, workspace, '/companies?domain=acme-accounts.com'))[0]!;
    expect(network).toBeDefined();
    expect(acme).toBeDefined();
    viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
  });
  afterAll(async () => t?.close());

  const engagement = async (company: Item, query = '') => {
    const answer = await api(base, workspace, `/companies/${company.id as string}/engagement${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as Item;
  };

  it('C6.9: the engagement counts every visitor whose visits name the company, identified or not: sessions, page views, top pages, last visit, and its account score with reasons', async () => {
    const data = await engagement(network);
    expect(Object.keys(data).sort()).toEqual(['identities', 'last_seen', 'page_views', 'score', 'score_reasons', 'sessions', 'top_pages', 'visitors']);
    expect(data).toMatchObject({ visitors: 2, identities: 1, sessions: 2, page_views: 6 });
    expect(data.top_pages).toEqual([
      { path: '/pricing', views: 3 },
      { path: '/', views: 1 },
      { path: '/careers', views: 1 },
      { path: '/docs', views: 1 },
    ]);
    expect(data.last_seen).toBe((await all(base, workspace, '/identities')).find((identity) => identity.name === 'Casey')!.last_seen);
    // the documented formula: the best fit (the company is known: 10) plus both visitors' engagement
    expect(data.score).toBeGreaterThan(10);
    expect(data.score as number).toBeLessThanOrEqual(100);
    expect(data.score_reasons).toEqual(expect.arrayContaining(['visited pricing 3 times this week', '2 people visited in the last 30 days', `works at ${network.name as string}`]));

    expect(await engagement(acme)).toMatchObject({ visitors: 1, identities: 1, sessions: 1, page_views: 1, top_pages: [{ path: '/blog', views: 1 }] });
    // a company nobody visited
    const [quiet] = await importRows(t, workspace.id, 'companies', [{ name: 'Quiet Co', domain: 'quiet.example' }]);
    expect(await engagement({ id: quiet })).toEqual({ visitors: 0, identities: 0, sessions: 0, page_views: 0, last_seen: null, top_pages: [], score: 0, score_reasons: [] });
  });

  it('C6.9: the account score is the best fit of its people plus the engagement of all of them, as documented', () => {
    const day = new Date().toISOString().slice(0, 10);
    const now = `${day}T12:00:00.000Z`;
    const visitor = (pricing: number) => ({ ...emptyAggregates(), days: { [day]: { pricing } } });
    const company = { name: 'Acme', domain: 'acme.com', employees: '51-200', main_industry: 'Software' };
    const ideal = { industries: ['Software'], employeeRanges: ['51-200'], countries: ['DE'] };
    const person = { emailKind: 'business' as const, emailDomain: 'acme.com', company, country: 'US' };
    const anonymousInGermany = { emailKind: null, emailDomain: null, company, country: 'DE' };
    // fit: 15 (business email) + 10 (known) + 10 (industry) + 10 (size); the German visitor's 35 is less
    // engagement: two visitors' pricing points (3 a day capped, ×5) = 30, 50 × 30 / (30 + 40) = 21.4 → 21
    expect(scoreAccount([visitor(3), visitor(7)], [person, anonymousInGermany], ideal, now)).toMatchObject({ fit: 45, engagement: 21, score: 66 });
    expect(scoreAccount([], [], ideal, now)).toEqual({ score: 0, fit: 0, engagement: 0, reasons: [] });
  });

  it('C6.9: days is 1 to 365 (default 30), and the window starts at UTC midnight days − 1 days back, exactly', async () => {
    const today = midnight(Date.now());
    const inside = randomUUID();
    const outside = randomUUID();
    // the last millisecond before the 3-day window, and its first
    await send([pageView(outside, '/edge-before', { ts: new Date(today - 2 * DAY_MS - 1).toISOString() })], BUSINESS);
    await send([pageView(inside, '/edge-first', { ts: new Date(today - 2 * DAY_MS).toISOString() })], BUSINESS);
    const three = await engagement(network, '?days=3');
    const four = await engagement(network, '?days=4');
    expect((three.top_pages as Item[]).map((entry) => entry.path)).toContain('/edge-first');
    expect((three.top_pages as Item[]).map((entry) => entry.path)).not.toContain('/edge-before');
    expect((four.top_pages as Item[]).map((entry) => entry.path)).toEqual(expect.arrayContaining(['/edge-first', '/edge-before']));
    expect(four.visitors).toBe((three.visitors as number) + 1);
    expect(four.sessions).toBe((three.sessions as number) + 1);
    expect(four.page_views).toBe((three.page_views as number) + 1);
    expect(await engagement(network)).toEqual(await engagement(network, '?days=30'));
    expect((await engagement(network, '?days=1')).visitors as number).toBeLessThanOrEqual(2);
    expect((await engagement(network, '?days=365')).visitors).toBe(4);

    for (const days of ['0', '366', 'soon', '1.5']) {
      const refused = await api(base, workspace, `/companies/${network.id as string}/engagement?days=${days}`);
      expect(refused.status, days).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_request', details: { parameters: { days: expect.any(String) } } });
    }
    const unknown = await api(base, workspace, `/companies/${randomUUID()}/engagement`);
    expect(unknown.status).toBe(404);
  });

  it('C6.9: the activity lists its identities\' activity and its anonymous visitors\' page views, newest first, the same by offset and by cursor', async () => {
    const total = (await api(base, workspace, `/companies/${network.id as string}/activity?limit=1`)).body.pagination!.total;
    const byOffset = await all(base, workspace, `/companies/${network.id as string}/activity`);
    expect(byOffset).toHaveLength(total);
    const anonymousViews = byOffset.filter((entry) => entry.who === 'Anonymous visitor');
    const casey = byOffset.filter((entry) => entry.who === 'Casey');
    // 4 + 2 window visitors' page views from the business network, Casey's 2 pages and identify
    expect(anonymousViews).toHaveLength(6);
    expect(casey.map((entry) => entry.type).sort()).toEqual(['identify', 'page_view', 'page_view']);
    expect(total).toBe(9);
    expect(anonymousViews.map((entry) => entry.what)).toEqual(
      expect.arrayContaining(['Viewed Title of /pricing', 'Viewed Title of /docs', 'Viewed Title of /', 'Viewed Title of /edge-first']),
    );
    for (const entry of byOffset) {
      expect(Object.keys(entry).sort()).toEqual(['created_at', 'id', 'source', 'type', 'what', 'who']);
      expect(entry.source).toBe('web');
    }
    const order = byOffset.map((entry) => `${entry.created_at as string} ${entry.id as string}`);
    expect(order).toEqual([...order].sort().reverse());
    // Dana's activity is Acme's, not this company's
    expect(byOffset.some((entry) => entry.who === 'Dana')).toBe(false);
    expect((await all(base, workspace, `/companies/${acme.id as string}/activity`)).map((entry) => entry.who)).toEqual(['Dana', 'Dana']);

    const byCursor: Item[] = [];
    let next: string | undefined = `${base}/api/v1/companies/${network.id as string}/activity?limit=2`;
    while (next !== undefined) {
      const response = await fetch(next, { headers: { authorization: `Bearer ${workspace.production.key}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Item[]; pagination: { offset: number; total: number } };
      expect(body.pagination).toMatchObject({ offset: 0, total });
      byCursor.push(...body.data);
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(byCursor).toEqual(byOffset);
  });

  it('C6.9, C9.4: the dashboard reads the same engagement (with sessions per day) and activity; its companies list sorts by last visit and account score, with people and visitors', async () => {
    const fromApi = await engagement(network, '?days=7');
    const fromDashboard = await dashboard(base, viewer, 'GET', `/companies/${network.id as string}/engagement?days=7`);
    expect(fromDashboard.status).toBe(200);
    const { days, anonymous: unidentified, ...same } = fromDashboard.body.data as Item & {
      days: { day: string; sessions: number; page_views: number }[];
      anonymous: { visitors: number; recent: Item[] };
    };
    expect(same).toEqual(fromApi);
    // its anonymous visitors of the window (each identity here has one visitor): how many, and the latest seen first
    expect(unidentified.visitors).toBe((fromApi.visitors as number) - (fromApi.identities as number));
    expect(unidentified.recent.map((visitor) => visitor.visitor_id)).toContain(anonymous);
    expect(unidentified.recent.find((visitor) => visitor.visitor_id === anonymous)).toMatchObject({ page_views: 4, sessions: 1 });
    const lastSeen = unidentified.recent.map((visitor) => visitor.last_seen as string);
    expect(lastSeen).toEqual([...lastSeen].sort().reverse());
    expect(days.reduce((sum, day) => sum + day.sessions, 0)).toBe(fromApi.sessions);
    expect(days.map((day) => day.day)).toEqual([...days.map((day) => day.day)].sort());
    expect((await dashboard(base, viewer, 'GET', `/companies/${network.id as string}/engagement?days=366`)).status).toBe(400);
    const activity = await dashboard(base, viewer, 'GET', `/companies/${network.id as string}/activity?limit=100`);
    expect(activity.body.data).toEqual(await all(base, workspace, `/companies/${network.id as string}/activity`));

    // the worker keeps account scores and last visits for the list
    await t.services.intelligence.runWorkspace(workspace.id);
    const list = async (sort: string) => {
      const answer = await dashboard(base, viewer, 'GET', `/companies?sort=${sort}&limit=100`);
      expect(answer.status).toBe(200);
      return answer.body.data as Item[];
    };
    const byVisit = await list('-last_seen');
    const byScore = await list('-account_score');
    const listed = (items: Item[], id: unknown) => items.find((item) => item.id === id)!;
    expect(listed(byVisit, network.id)).toMatchObject({ people: 1, visitors: 4, account_score: (await engagement(network)).score });
    expect(listed(byVisit, acme.id)).toMatchObject({ people: 1, visitors: 1, account_score: (await engagement(acme)).score });
    expect(listed(byVisit, network.id).last_seen).toEqual(expect.any(String));
    const seen = byVisit.map((item) => item.last_seen as string | null);
    expect(seen).toEqual([...seen].sort((a, b) => (a === null ? 1 : b === null ? -1 : b.localeCompare(a))));
    expect(seen.at(-1)).toBeNull();
    const scores = byScore.map((item) => item.account_score as number | null);
    expect(scores).toEqual([...scores].sort((a, b) => (a === null ? 1 : b === null ? -1 : b - a)));
    expect((await dashboard(base, viewer, 'GET', '/companies?sort=name')).status).toBe(400);
  });

  it("C9.4: the dashboard lists a company's people and its leads (newest first, with the people they name), and names a person's company; an unknown company is 404", async () => {
    const people = await dashboard(base, viewer, 'GET', `/companies/${acme.id as string}/identities`);
    expect(people.status).toBe(200);
    expect(people.body.data).toEqual(await all(base, workspace, `/companies/${acme.id as string}/identities`));
    expect((people.body.data as Item[]).map((person) => person.name)).toEqual(['Dana']);
    const dana = (people.body.data as Item[])[0]!;
    // the person's page names and links the company: the identity as the API answers it, and its company
    const identity = await dashboard(base, viewer, 'GET', `/identities/${dana.id as string}`);
    const { company, ...resource } = identity.body.data as Item;
    expect(company).toEqual({ id: acme.id, name: acme.name });
    expect(resource).toEqual((await api(base, workspace, `/identities/${dana.id as string}`)).body.data);
    // two leads of the company through the API, one of another company's: the company's page lists its own, newest first
    const create = async (body: Item) => {
      const response = await fetch(`${base}/api/v1/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${workspace.production.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ visitor_id: randomUUID(), ...body }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { data: Item }).data;
    };
    const first = await create({ code: 'demo', company_id: acme.id, identity_id: dana.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await create({ code: 'trial', company_id: acme.id });
    await create({ code: 'elsewhere', company_id: network.id });
    const leads = await dashboard(base, viewer, 'GET', `/companies/${acme.id as string}/leads?limit=1`);
    expect(leads.status).toBe(200);
    expect(leads.body.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    expect((leads.body.data as Item[]).map((lead) => lead.id)).toEqual([second.id]);
    const next = await dashboard(base, viewer, 'GET', `/companies/${acme.id as string}/leads?limit=1&offset=1`);
    expect((next.body.data as Item[]).map((lead) => lead.id)).toEqual([first.id]);
    expect(next.body.people).toEqual({ [dana.id as string]: { name: 'Dana', email: 'dana@acme-accounts.com' } });
    for (const path of ['identities', 'leads']) {
      expect((await dashboard(base, viewer, 'GET', `/companies/${randomUUID()}/${path}`)).status).toBe(404);
      expect((await dashboard(base, viewer, 'GET', `/companies/${acme.id as string}/${path}?limit=0`)).status).toBe(400);
    }
  });

  it('C9.4: the list\'s orders and a company\'s leads read their indexes, never a scan and sort of the workspace\'s rows', async () => {
    const db = t.db.database.db;
    const plan = async (query: ReturnType<typeof sql>) =>
      kind === 'sqlite'
        ? (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((row) => row.detail).join('\n')
        : db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            await sql`set local enable_sort = off`.execute(trx);
            return (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
          });
    const cases: [string, ReturnType<typeof sql>][] = [
      ['companies_last_seen_idx', sql`select id from companies where workspace_id = ${workspace.id} order by last_seen desc nulls last, id desc limit 50`],
      ['companies_account_score_idx', sql`select id from companies where workspace_id = ${workspace.id} order by account_score desc nulls last, id desc limit 50`],
      ['leads_company_idx', sql`select id from leads where workspace_id = ${workspace.id} and company_id = ${acme.id as string} order by created_at desc, id desc limit 10`],
    ];
    for (const [index, query] of cases) {
      const text = await plan(query);
      expect(text, index).toContain(index);
      expect(text, index).not.toMatch(/TEMP B-TREE|Sort Key/i);
    }
  });

  it('C7.4: every role reads a company\'s engagement and activity in the dashboard; without a session, nobody does', async () => {
    const paths = [
      `/companies/${network.id as string}/engagement`,
      `/companies/${network.id as string}/activity`,
      `/companies/${network.id as string}/identities`,
      `/companies/${network.id as string}/leads`,
      '/companies?sort=-account_score',
    ];
    for (const role of ['viewer', 'member', 'admin']) {
      const session = await signIn(base, await member(t, workspace.id, role));
      for (const path of paths) expect((await dashboard(base, session, 'GET', path)).status, `${role} ${path}`).toBe(200);
    }
    for (const path of paths) expect((await dashboard(base, undefined, 'GET', path)).status, path).toBe(401);
  });
});
