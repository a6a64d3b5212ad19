/**
 * Company rules over real HTTP on both stores (CONTRACT C6.8): made over
 * /api/v1 and the dashboard (admins only there), validated (400 naming the
 * field, 403 for another workspace's company, C3.7), and applied by
 * ingestion to the events received after them, winning over every
 * automatic source: network (C6.5), email (C6.1) and reverse DNS (C6.6).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { SystemPtrResolver } from '../../src/services/intelligence/reverse-dns.js';
import { ReverseDnsWorker } from '../../src/services/intelligence/reverse-dns-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;
/** Deutsche Bank AG (AS8373): a business network that names its company automatically */
const BANK = '129.35.230.10';
/** Comcast (AS7922): an access network */
const HOME = '73.158.65.20';

describe.each(storeKinds())('company rules on %s (C6.8)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let other: TestWorkspace;
  let key: string;
  let otherKey: string;
  let dns: DnsServer;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Rules');
    other = await t.createWorkspace('Other rules');
    key = (await createSiteKey(t, workspace)).key;
    otherKey = (await createSiteKey(t, other)).key;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const send = async (events: Event[], address: string, site = key) => {
    const answer = await postEvents(base, site, events, { 'x-forwarded-for': address });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const api = async (holder: TestWorkspace, method: string, path: string, body?: unknown) => {
    const response = await t.as(holder, { method: method as 'GET', url: `/api/v1${path}`, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: response.statusCode, body: (response.body === '' ? {} : response.json()) as Item };
  };
  /** a company of the workspace, made the way a business email makes one */
  const companyOf = async (holder: TestWorkspace, site: string, domain: string) => {
    const visitor = randomUUID();
    await send([identify(visitor, { email: `someone@${domain}` })], HOME, site);
    return (await all(base, holder, `/companies?domain=${domain}`))[0]!.id as string;
  };
  const leadOf = async (visitor: string) => (await all(base, workspace, '/leads')).find((lead) => lead.visitor_id === visitor)!;
  const rulesOf = async (holder: TestWorkspace) => (await all(base, holder, '/company-rules')).map((rule) => rule.id);

  it('C6.8: an AS rule names its company over the network\'s own match, for events received after it; deleted, the network names its own again', async () => {
    const before = randomUUID();
    await send([pageView(before, '/'), conversion(before, 'Downloaded')], BANK);
    expect((await leadOf(before)).properties).toMatchObject({ company_match: { source: 'network', asn: 8373 } });

    const initech = await companyOf(workspace, key, 'initech.com');
    const made = await api(workspace, 'POST', '/company-rules', { match: { asn: 8373 }, company_id: initech });
    expect(made.status).toBe(201);
    const rule = made.body.data as Item;
    expect(rule).toMatchObject({ match: { asn: 8373 }, company_id: initech, not_a_company: false });

    const after = randomUUID();
    await send([pageView(after, '/'), conversion(after, 'Downloaded')], BANK);
    const lead = await leadOf(after);
    expect(lead.company_id).toBe(initech);
    expect((lead.properties as Item).company_match).toEqual({ source: 'rule', rule_id: rule.id, asn: 8373, organization: 'Deutsche Bank AG', confidence: 1 });
    // the lead made before the rule keeps its company
    expect((await leadOf(before)).properties).toMatchObject({ company_match: { source: 'network' } });

    expect((await api(workspace, 'DELETE', `/company-rules/${rule.id as string}`)).status).toBe(204);
    await send([conversion(after, 'Downloaded again')], BANK);
    const again = (await all(base, workspace, '/leads')).filter((item) => item.visitor_id === after).find((item) => item.id !== lead.id)!;
    expect((again.properties as Item).company_match).toMatchObject({ source: 'network', asn: 8373 });
  });

  it('C6.8: a CIDR rule marking "not a company" wins over the network; it wins over an AS rule too', async () => {
    const initech = await companyOf(workspace, key, 'initech-two.com');
    const asRule = await api(workspace, 'POST', '/company-rules', { match: { asn: 8373 }, company_id: initech });
    const cidrRule = await api(workspace, 'POST', '/company-rules', { match: { cidr: '129.35.230.0/24' }, not_a_company: true });
    expect(cidrRule.status).toBe(201);
    const visitor = randomUUID();
    await send([pageView(visitor, '/'), conversion(visitor, 'Downloaded')], BANK);
    const lead = await leadOf(visitor);
    expect(lead.company_id).toBeNull();
    expect((lead.properties as Item).company_match).toBeUndefined();
    await api(workspace, 'DELETE', `/company-rules/${(asRule.body.data as Item).id as string}`);
    await api(workspace, 'DELETE', `/company-rules/${(cidrRule.body.data as Item).id as string}`);
  });

  it('C6.8: a domain rule decides an email\'s company and a reverse DNS name\'s', async () => {
    const umbrella = await companyOf(workspace, key, 'umbrella-corp.com');
    await api(workspace, 'POST', '/company-rules', { match: { domain: 'umbrella-subsidiary.com' }, company_id: umbrella });
    const person = randomUUID();
    await send([identify(person, { email: 'ada@sales.umbrella-subsidiary.com' }), conversion(person, 'Signed up')], HOME);
    const lead = await leadOf(person);
    expect(lead.company_id).toBe(umbrella);
    expect((lead.properties as Item).company_match).toMatchObject({ source: 'rule', domain: 'umbrella-subsidiary.com', confidence: 1 });
    expect(await all(base, workspace, '/companies?domain=umbrella-subsidiary.com')).toHaveLength(0);

    await api(workspace, 'POST', '/company-rules', { match: { domain: 'coworking-hub.com' }, not_a_company: true });
    dns.answers.set(HOME, ['mail.coworking-hub.com.']);
    const visitor = randomUUID();
    await send([pageView(visitor, '/'), conversion(visitor, 'Subscribed')], HOME);
    await new ReverseDnsWorker(new Store(t.db.database), new SystemPtrResolver([dns.server])).runWorkspace(workspace.id);
    expect(dns.asked.get(HOME)).toBe(1);
    expect((await leadOf(visitor)).company_id).toBeNull();
    expect(await all(base, workspace, '/companies?domain=coworking-hub.com')).toHaveLength(0);
  });

  it('C6.8, C3.5: a bad AS number, range or domain is a 400 naming the field, and nothing is made', async () => {
    const before = await rulesOf(workspace);
    const cases: [unknown, string][] = [
      [{ match: { asn: 0 }, not_a_company: true }, 'match.asn'],
      [{ match: { asn: 4_294_967_296 }, not_a_company: true }, 'match.asn'],
      [{ match: { cidr: '10.0.0.0/33' }, not_a_company: true }, 'match.cidr'],
      [{ match: { cidr: 'acme' }, not_a_company: true }, 'match.cidr'],
      [{ match: { domain: 'not a domain' }, not_a_company: true }, 'match.domain'],
      [{ match: { domain: 'localhost' }, not_a_company: true }, 'match.domain'],
      [{ match: {}, not_a_company: true }, 'match'],
      [{ match: { asn: 1, domain: 'acme.com' }, not_a_company: true }, 'match'],
      [{ match: { asn: 64_496 } }, 'company_id'],
      [{ match: { asn: 64_496 }, company_id: randomUUID(), not_a_company: true }, 'not_a_company'],
    ];
    for (const [body, field] of cases) {
      const answer = await api(workspace, 'POST', '/company-rules', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      const details = answer.body.details as { fields?: Item };
      expect(Object.keys(details.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    expect(await rulesOf(workspace)).toEqual(before);
  });

  it('C6.8, C3.7: a company of another workspace is 403 and nothing is made; a second rule of one match is 409', async () => {
    const foreign = await companyOf(other, otherKey, 'foreign-co.com');
    const before = await rulesOf(workspace);
    const refused = await api(workspace, 'POST', '/company-rules', { match: { asn: 64_497 }, company_id: foreign });
    expect(refused.status).toBe(403);
    expect(await rulesOf(workspace)).toEqual(before);
    const first = await api(workspace, 'POST', '/company-rules', { match: { asn: 64_498 }, not_a_company: true });
    expect(first.status).toBe(201);
    const twice = await api(workspace, 'POST', '/company-rules', { match: { asn: 64_498 }, not_a_company: true });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      error: 'conflict',
      details: { conflict: 'rule_exists', fields: { 'match.asn': 'has a rule already' }, existing_id: (first.body as { data: { id: string } }).data.id },
    });
  });

  describe('in the dashboard (C7.4)', () => {
    let admin: DashboardSession;
    let memberSession: DashboardSession;
    let viewer: DashboardSession;

    beforeAll(async () => {
      admin = await signIn(base, await member(t, workspace.id, 'admin'));
      memberSession = await signIn(base, await member(t, workspace.id, 'member'));
      viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
    });

    it('C6.8: admins add and delete rules; members and viewers read them and change nothing', async () => {
      const body = { match: { cidr: '198.51.100.0/24' }, not_a_company: true };
      expect((await dashboard(base, viewer, 'POST', '/company-rules', body)).status).toBe(403);
      expect((await dashboard(base, memberSession, 'POST', '/company-rules', body)).status).toBe(403);
      const made = await dashboard(base, admin, 'POST', '/company-rules', body);
      expect(made.status).toBe(201);
      const id = (made.body.data as Item).id as string;
      for (const session of [viewer, memberSession, admin]) {
        const listed = await dashboard(base, session, 'GET', '/company-rules');
        expect(listed.status).toBe(200);
        expect((listed.body.data as Item[]).map((rule) => rule.id)).toContain(id);
      }
      expect((await dashboard(base, viewer, 'DELETE', `/company-rules/${id}`)).status).toBe(403);
      expect((await dashboard(base, memberSession, 'DELETE', `/company-rules/${id}`)).status).toBe(403);
      expect((await dashboard(base, admin, 'DELETE', `/company-rules/${id}`)).status).toBe(204);
      expect((await dashboard(base, admin, 'DELETE', `/company-rules/${id}`)).status).toBe(404);
      const bad = await dashboard(base, admin, 'POST', '/company-rules', { match: { cidr: '300.0.0.0/8' }, not_a_company: true });
      expect(bad.status).toBe(400);
      expect((bad.body.details as { fields: Item }).fields).toHaveProperty(['match.cidr']);
    });
  });
});
