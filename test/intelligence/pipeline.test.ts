/**
 * Lead intelligence wired end to end, on both stores (CONTRACT C6.1 to
 * C6.3): crafted visitors send their events to the real events endpoint
 * with a site key (their address through X-Forwarded-For), the worker
 * refreshes what is due, and the API shows companies, scores with reasons
 * and status, and personalities, as docs/intelligence.md computes them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyAggregates, addEvent } from '../../src/intelligence/aggregates.js';
import { PageClassifier } from '../../src/intelligence/page-kinds.js';
import { scoreLead } from '../../src/intelligence/scoring.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, conversion, createSiteKey, identify, pageView, postEvents, track, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;
/** an ISP's address (Videotron): no company, not hosting */
const HOME = '24.48.0.1';
/** Amazon Web Services (AS16509): a hosting network */
const HOSTING = '52.94.236.248';
/** Deutsche Bank AG (AS8373): a business network with a company form and an industry in its name (confidence 0.95) */
const BUSINESS = '129.35.230.10';

describe.each(storeKinds())('lead intelligence on %s (C6.1 to C6.3)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Intelligence');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[], address = HOME) => {
    const answer = await postEvents(base, key, events, { 'x-forwarded-for': address });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const refresh = () => t.services.intelligence.runWorkspace(workspace.id);
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor);
  const identityOf = async (email: string) => (await all(base, workspace, `/identities?email=${encodeURIComponent(email)}`))[0] as Item;

  it('C6.1: a business email links a company (created from its domain) to the identity and its conversion lead, before and after', async () => {
    const alice = randomUUID();
    await send([pageView(alice, '/pricing'), conversion(alice, 'Requested demo', { code: `demo-${alice}` })]);
    await send([identify(alice, { email: 'alice@acme-robotics.com', name: 'Alice' }), conversion(alice, 'Signed up')]);
    const companies = await all(base, workspace, '/companies?domain=acme-robotics.com');
    expect(companies).toHaveLength(1);
    const company = companies[0]!;
    expect(company).toMatchObject({ name: 'Acme Robotics', domain: 'acme-robotics.com', description: '', employees: '', main_industry: '' });
    const leads = await leadsOf(alice);
    expect(leads).toHaveLength(2);
    for (const lead of leads) {
      expect(lead.company_id).toBe(company.id);
      expect((lead.properties as Item).company_match).toEqual({ source: 'email', domain: 'acme-robotics.com', confidence: 1 });
    }
    const identities = await all(base, workspace, `/companies/${String(company.id)}/identities`);
    expect(identities.map((identity) => identity.email)).toEqual(['alice@acme-robotics.com']);
    // a colleague on a subdomain of the same registrable domain joins the same company
    const carol = randomUUID();
    await send([identify(carol, { email: 'carol@mail.acme-robotics.com' }), conversion(carol, 'Signed up')]);
    expect(await all(base, workspace, '/companies?domain=acme-robotics.com')).toHaveLength(1);
    expect((await leadsOf(carol))[0]!.company_id).toBe(company.id);
    const page = await api(base, workspace, `/companies/${String(company.id)}/identities?limit=1`);
    expect(page.body.pagination!.total).toBe(2);
  });

  it('C6.1: a free-mail or disposable email links no company', async () => {
    const before = (await all(base, workspace, '/companies')).length;
    for (const email of ['bob@gmail.com', 'temp@mailinator.com']) {
      const bob = randomUUID();
      await send([identify(bob, { email }), conversion(bob, 'Signed up')]);
      const [lead] = await leadsOf(bob);
      expect(lead!.company_id, email).toBeNull();
      expect((lead!.properties as Item).company_match, email).toBeUndefined();
    }
    expect((await all(base, workspace, '/companies')).length).toBe(before);
  });

  it('C6.1: a business network names the company with its confidence; an email match wins over it', async () => {
    const visitor = randomUUID();
    await send([pageView(visitor, '/'), conversion(visitor, 'Downloaded')], BUSINESS);
    const [lead] = await leadsOf(visitor);
    const companies = await all(base, workspace, '/companies?name=Deutsche%20Bank');
    expect(companies).toHaveLength(1);
    expect(lead!.company_id).toBe(companies[0]!.id);
    expect((lead!.properties as Item).company_match).toEqual({ source: 'network', asn: 8373, organization: 'Deutsche Bank AG', confidence: 0.95 });
    const other = randomUUID();
    await send([identify(other, { email: 'dan@globex-industries.com' }), conversion(other, 'Signed up')], BUSINESS);
    const [emailLead] = await leadsOf(other);
    expect((emailLead!.properties as Item).company_match).toMatchObject({ source: 'email', domain: 'globex-industries.com' });
  });

  it('C6.1, C6.2: a visitor from a hosting network is flagged and never scored', async () => {
    const bot = randomUUID();
    await send([pageView(bot, '/pricing'), pageView(bot, '/pricing'), identify(bot, { email: 'crawler@example-monitor.com' }), conversion(bot, 'Signed up')], HOSTING);
    await refresh();
    const [lead] = await leadsOf(bot);
    expect(lead!.summary).toBeNull();
    expect((await identityOf('crawler@example-monitor.com')).traits).toMatchObject({ network: { class: 'hosting', asn: 16509 } });
    expect((await all(base, workspace, `/identities/${String((await identityOf('crawler@example-monitor.com')).id)}/personalities`)).length).toBe(0);
  });

  it('C6.2: a cold and a hot visitor get the score, reasons and status of the documented formula', async () => {
    const cold = randomUUID();
    await send([pageView(cold, '/'), conversion(cold, 'Newsletter')]);
    const hot = randomUUID();
    const hotEvents = [
      pageView(hot, '/pricing'),
      pageView(hot, '/pricing'),
      pageView(hot, '/pricing'),
      pageView(hot, '/docs/start'),
      pageView(hot, '/docs/api'),
      pageView(hot, '/compare/us-vs-them'),
      identify(hot, { email: 'hana@hot-startup.io' }),
      ...Array.from({ length: 5 }, () => track(hot, 'Opened the configurator')),
      conversion(hot, 'Requested demo'),
    ];
    await send(hotEvents);
    await refresh();
    const now = new Date().toISOString();
    const pages = new PageClassifier();
    const expected = (events: Event[], profile: Parameters<typeof scoreLead>[1]) => {
      let aggregates = emptyAggregates();
      for (const event of events) {
        const type = event.type as 'page' | 'identify' | 'conversion' | 'track';
        aggregates = addEvent(aggregates, { type, ts: now, session_id: 's', path: type === 'page' ? new URL(event.url as string).pathname : null, name: (event.name as string) ?? null }, pages, now);
      }
      return scoreLead(aggregates, profile, { industries: [], employeeRanges: [], countries: [] }, now);
    };
    const coldScore = expected([pageView(cold, '/'), conversion(cold, 'Newsletter')], { emailKind: null, emailDomain: null, company: null, country: 'CA' });
    const [coldLead] = await leadsOf(cold);
    expect(coldLead!.summary).toEqual({ score: coldScore.score, score_reasons: coldScore.reasons, status: coldScore.status });
    expect(coldLead!.summary).toMatchObject({ status: 'new' });

    const company = (await all(base, workspace, '/companies?domain=hot-startup.io'))[0]!;
    const hotScore = expected(hotEvents, {
      emailKind: 'business',
      emailDomain: 'hot-startup.io',
      company: { name: company.name as string, domain: 'hot-startup.io', employees: '', main_industry: '' },
      country: 'CA',
    });
    const [hotLead] = await leadsOf(hot);
    expect(hotLead!.summary).toEqual({ score: hotScore.score, score_reasons: hotScore.reasons, status: hotScore.status });
    expect(hotScore.status).toBe('qualified');
    expect(hotScore.reasons).toContain('visited pricing 3 times this week');
    expect(hotScore.reasons).toContain('business email at hot-startup.io');
  });

  it('C6.2: keys a client wrote into summary are kept, its status too', async () => {
    const visitor = randomUUID();
    await send([pageView(visitor, '/pricing'), conversion(visitor, 'Signed up')]);
    await refresh();
    const [lead] = await leadsOf(visitor);
    const patched = await t.as(workspace, { method: 'PATCH', url: `/api/v1/leads/${String(lead!.id)}`, payload: { summary: { status: 'won', note: 'called' } } });
    expect(patched.statusCode).toBe(200);
    await send([pageView(visitor, '/pricing')]);
    await refresh();
    const [after] = await leadsOf(visitor);
    expect(after!.summary).toMatchObject({ status: 'won', note: 'called', score: expect.any(Number) });
  });

  it('C6.3: personality entries appear at the fifth page view, with rising learning and the type of the behaviour', async () => {
    const cases: [string, string[]][] = [
      ['Analytical', ['/docs/a', '/docs/b', '/compare/x-vs-y', '/docs/c', '/docs/d', '/docs/e']],
      ['Decisive', ['/pricing', '/pricing', '/pricing/team', '/pricing', '/plans']],
      ['Explorer', ['/blog/1', '/blog/2', '/blog/3', '/blog/4', '/blog/5', '/blog/6', '/blog/7', '/blog/8']],
      ['Cautious', ['/security', '/terms', '/privacy', '/security/soc2', '/legal']],
    ];
    for (const [type, paths] of cases) {
      const visitor = randomUUID();
      const email = `${type.toLowerCase()}-${visitor.slice(0, 8)}@example.org`;
      await send([identify(visitor, { email }), ...paths.slice(0, 4).map((path) => pageView(visitor, path))]);
      await refresh();
      const identity = await identityOf(email);
      const personalities = () => api(base, workspace, `/identities/${String(identity.id)}/personalities`).then((answer) => answer.body.data as Item[]);
      expect(await personalities(), `${type}: nothing before the fifth page view`).toEqual([]);
      await send(paths.slice(4).map((path) => pageView(visitor, path)));
      await refresh();
      const first = await personalities();
      expect(first, type).toHaveLength(1);
      expect((first[0]!.personality as Item).type, type).toBe(type);
      // more sessions later: learning rises, entries newest first
      for (let round = 0; round < 3; round += 1) {
        await send(paths.map((path) => pageView(visitor, path, { ts: new Date(Date.now() - (3 - round) * 3_600_000).toISOString() })));
      }
      await refresh();
      const later = await personalities();
      expect(later.length, type).toBeGreaterThan(1);
      const learning = later.map((entry) => entry.learning_percentage as number);
      expect([...learning].sort((a, b) => b - a), type).toEqual(learning);
      expect(learning[0]!, type).toBeGreaterThan(learning[learning.length - 1]!);
    }
  });
});
