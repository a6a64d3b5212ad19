/**
 * Company enrichment on both stores (CONTRACT C6.7, C10.2): companies made
 * by identifies sent to the real events endpoint (or imported) are enriched
 * by the worker from their websites and a provider, served by a local HTTP
 * server that stands in for the internet (its resolver answers the sites'
 * names with the loopback address, ENRICHMENT_ALLOW_PRIVATE on except where
 * a test says otherwise). The worker's clock is the test's, so retries and
 * refreshes are checked at their exact edges; the API shows the result.
 */
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOKS } from '../../src/config.js';
import { Store } from '../../src/repositories/index.js';
import { networkGet } from '../../src/services/enrichment/http-get.js';
import type { SourceSettings } from '../../src/services/enrichment/sources.js';
import { EnrichmentWorker } from '../../src/services/enrichment/worker.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, createSiteKey, identify, postEvents } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startWebsites, type Websites } from '../helpers/websites.js';

type Item = Record<string, unknown>;
const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;

/** A home page with what enrichment reads. */
function homePage(parts: { title?: string; siteName?: string; description?: string; metaDescription?: string; jsonLd?: unknown }): string {
  const head = [
    parts.title === undefined ? '' : `<title>${parts.title}</title>`,
    parts.siteName === undefined ? '' : `<meta property="og:site_name" content="${parts.siteName}">`,
    parts.description === undefined ? '' : `<meta property="og:description" content="${parts.description}">`,
    parts.metaDescription === undefined ? '' : `<meta name="description" content="${parts.metaDescription}">`,
    parts.jsonLd === undefined ? '' : `<script type="application/ld+json">${JSON.stringify(parts.jsonLd)}</script>`,
  ];
  return `<!doctype html><html><head>${head.join('\n')}</head><body><h1>Welcome</h1></body></html>`;
}

describe.each(storeKinds())('company enrichment on %s (C6.7)', (kind) => {
  let t: TestApp;
  let base: string;
  let sites: Websites;
  let receiver: Receiver;
  let workspace: TestWorkspace;
  let key: string;
  let now: number;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true } });
    base = await t.listen();
    sites = await startWebsites();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await sites?.close();
    await receiver?.close();
    await t?.close();
  });
  beforeEach(async () => {
    workspace = await t.createWorkspace();
    key = (await createSiteKey(t, workspace)).key;
    // a minute ahead: whatever the test creates is due by then
    now = Date.now() + 60_000;
  });

  const settings = (overrides: Partial<SourceSettings> = {}): SourceSettings => ({
    websiteUrl: `http://{domain}:${sites.port}/`,
    providerUrl: undefined,
    providerToken: undefined,
    allowPrivate: true,
    timeoutMs: 2_000,
    ...overrides,
  });
  const worker = (overrides: Partial<SourceSettings> = {}) =>
    new EnrichmentWorker(new Store(t.db.database), settings(overrides), { get: networkGet(sites.resolve), clock: () => now });
  const enrich = (overrides: Partial<SourceSettings> = {}) => worker(overrides).runWorkspace(workspace.id);

  /** A company made as C6.1 makes them: someone at the domain identifies. */
  const companyFrom = async (domain: string): Promise<Item> => {
    const visitor = randomUUID();
    const answer = await postEvents(base, key, [identify(visitor, { email: `someone@${domain}` })]);
    expect(answer.status).toBe(202);
    const [company] = await all(base, workspace, `/companies?domain=${domain}`);
    expect(company, domain).toBeDefined();
    return company as Item;
  };
  const companyById = async (id: unknown) => (await api(base, workspace, `/companies/${id as string}`)).body.data as Item;
  const queued = (id: unknown) => new Store(t.db.database).forWorkspace(workspace.id).repos.enrichmentQueue.find(id as string);

  it('C6.7, C10.2: a company made from an email is enriched from its website: og:site_name replaces the name made from the domain, the empty fields are filled, and company.created and company.updated are sent', async () => {
    const hook = await t.as(workspace, {
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: `${receiver.url}/companies`, events: ['company.created', 'company.updated'] },
    });
    expect(hook.statusCode).toBe(201);
    sites.page(
      'acme-robotics.com',
      '/',
      homePage({
        title: 'Acme Robotics | Robots that ship',
        siteName: 'Acme Robotics Inc.',
        description: 'Industrial robots &amp; the software that runs them.',
        jsonLd: { '@context': 'https://schema.org', '@type': 'Organization', name: 'Acme Robotics, Inc.', numberOfEmployees: { '@type': 'QuantitativeValue', minValue: 51, maxValue: 200 } },
      }),
    );
    const made = await companyFrom('acme-robotics.com');
    expect(made).toMatchObject({ name: 'Acme Robotics', description: '', employees: '', main_industry: '' });
    expect(await queued(made.id)).toMatchObject({ due_at: made.created_at, failures: 0, enriched_at: null });

    expect(await enrich()).toBe(1);
    expect(sites.hits('acme-robotics.com', '/')).toBe(1);
    const enriched = await companyById(made.id);
    expect(enriched).toEqual({
      ...made,
      name: 'Acme Robotics Inc.',
      description: 'Industrial robots & the software that runs them.',
      employees: '51-200',
      main_industry: '',
    });
    expect(await queued(made.id)).toMatchObject({ due_at: new Date(now + 30 * DAY_MS).toISOString(), failures: 0, last_error: null, claim: null });
    // nothing more is due: a second round reads nothing
    expect(await enrich()).toBe(0);
    expect(sites.hits('acme-robotics.com')).toBe(1);

    receiver.received.length = 0;
    // the deliveries, at the worker's time (the event was written at the enrichment's)
    await new WebhookDeliveryWorker(new Store(t.db.database), { ...DEFAULT_WEBHOOKS, allowPrivate: true }, () => now).runOnce();
    const events = receiver.received.map((entry) => JSON.parse(entry.body) as { type: string; data: Item });
    expect(events.map((event) => event.type).sort()).toEqual(['company.created', 'company.updated']);
    expect(events.find((event) => event.type === 'company.created')!.data).toEqual(made);
    expect(events.find((event) => event.type === 'company.updated')!.data).toEqual(enriched);
  });

  it('C6.7: the name comes from og:site_name, else the JSON-LD Organization, else the title without its tagline; the description from og:description, else the meta description', async () => {
    sites.page(
      'globex.com',
      '/',
      homePage({
        title: 'Home | Globex',
        metaDescription: 'Globex makes everything.',
        jsonLd: { '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Globex site' }, { '@type': 'Corporation', name: 'Globex Corporation', numberOfEmployees: { '@type': 'QuantitativeValue', value: 7500 } }] },
      }),
    );
    sites.page('initech.com', '/', homePage({ title: 'Initech — Software that works', description: 'OG wins', metaDescription: 'Meta loses' }));
    sites.page('umbrella-corp.com', '/', homePage({ title: 'Welcome to Umbrella Corp: our research', jsonLd: { '@type': 'Organization', numberOfEmployees: { minValue: 10001 } } }));
    const globex = await companyFrom('globex.com');
    const initech = await companyFrom('initech.com');
    const umbrella = await companyFrom('umbrella-corp.com');
    expect(await enrich()).toBe(3);
    expect(await companyById(globex.id)).toMatchObject({ name: 'Globex Corporation', description: 'Globex makes everything.', employees: '5001-10000' });
    expect(await companyById(initech.id)).toMatchObject({ name: 'Initech', description: 'OG wins', employees: '' });
    expect(await companyById(umbrella.id)).toMatchObject({ name: 'Welcome to Umbrella Corp', description: '', employees: '10001+' });
  });

  it('C6.7: at most 1 MiB is read: a page of exactly 1 MiB is read whole; one byte more, and the tag cut at the limit is not read (what was read still is)', async () => {
    const tail = '<meta property="og:description" content="Read to the last byte">';
    const page = (size: number) => {
      const head = '<!doctype html><html><head><title>Big Pages | Tagline</title><!--';
      const close = '-->';
      return `${head}${'x'.repeat(size - head.length - close.length - tail.length)}${close}${tail}`;
    };
    expect(Buffer.byteLength(page(MIB))).toBe(MIB);
    sites.page('exact-mib.com', '/', page(MIB));
    sites.page('over-mib.com', '/', page(MIB + 1));
    const exact = await companyFrom('exact-mib.com');
    const over = await companyFrom('over-mib.com');
    expect(await enrich()).toBe(2);
    expect(await companyById(exact.id)).toMatchObject({ name: 'Big Pages', description: 'Read to the last byte' });
    expect(await companyById(over.id)).toMatchObject({ name: 'Big Pages', description: '' });
    expect(await queued(over.id)).toMatchObject({ failures: 0, last_error: null });
  });

  it('C6.7: up to 3 redirects are followed within the registrable domain; a 4th, or one to another registrable domain, fails and changes nothing', async () => {
    const at = (host: string, path: string) => `http://${host}:${sites.port}${path}`;
    // the first answer sets a cookie: no cookie is ever sent back
    sites.route('three-hops.com', '/', (_request, response) =>
      response.writeHead(301, { location: at('three-hops.com', '/one'), 'set-cookie': 'session=abc; Path=/; Domain=three-hops.com' }).end(),
    );
    sites.redirect('three-hops.com', '/one', '/two', 302);
    sites.redirect('three-hops.com', '/two', at('www.three-hops.com', '/three'), 307);
    sites.page('www.three-hops.com', '/three', homePage({ siteName: 'Three Hops', description: 'Found after three redirects' }));
    sites.redirect('four-hops.com', '/', at('four-hops.com', '/one'));
    sites.redirect('four-hops.com', '/one', '/two');
    sites.redirect('four-hops.com', '/two', '/three');
    sites.redirect('four-hops.com', '/three', at('www.four-hops.com', '/four'));
    sites.page('www.four-hops.com', '/four', homePage({ siteName: 'Four Hops' }));
    sites.redirect('moved-away.com', '/', at('another-company.com', '/'));
    sites.page('another-company.com', '/', homePage({ siteName: 'Another Company' }));
    const three = await companyFrom('three-hops.com');
    const four = await companyFrom('four-hops.com');
    const away = await companyFrom('moved-away.com');
    expect(await enrich()).toBe(3);

    expect(await companyById(three.id)).toMatchObject({ name: 'Three Hops', description: 'Found after three redirects' });
    const threeHops = sites.seen.filter((entry) => entry.host.endsWith('three-hops.com'));
    expect(threeHops.map((entry) => entry.path)).toEqual(['/', '/one', '/two', '/three']);
    for (const entry of threeHops) expect(entry.headers.cookie).toBeUndefined();
    expect(await companyById(four.id)).toEqual(four);
    expect(await companyById(away.id)).toEqual(away);
    expect(sites.hits('www.four-hops.com')).toBe(0);
    expect(sites.hits('another-company.com')).toBe(0);
    const retry = new Date(now + DAY_MS).toISOString();
    expect(await queued(four.id)).toMatchObject({ failures: 1, due_at: retry, last_error: 'website: more than 3 redirects' });
    expect(await queued(away.id)).toMatchObject({ failures: 1, due_at: retry, last_error: expect.stringContaining('redirected outside moved-away.com') });
  });

  it('C6.7: a website that does not answer within the timeout fails, changes nothing, and is tried again no sooner than a day later', async () => {
    const held: http.ServerResponse[] = [];
    let answer = false;
    sites.route('slow-site.com', '/', (_request, response) => {
      if (answer) response.writeHead(200, { 'content-type': 'text/html' }).end(homePage({ siteName: 'Slow Site' }));
      else held.push(response);
    });
    const slow = await companyFrom('slow-site.com');
    const started = performance.now();
    expect(await enrich({ timeoutMs: 300 })).toBe(1);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(held).toHaveLength(1);
    const failedAt = now;
    expect(await companyById(slow.id)).toEqual(slow);
    expect(await queued(slow.id)).toMatchObject({ failures: 1, last_error: 'website: no answer within 0.3 s', due_at: new Date(failedAt + DAY_MS).toISOString() });

    answer = true;
    now = failedAt + DAY_MS - 1;
    expect(await enrich()).toBe(0);
    expect(sites.hits('slow-site.com')).toBe(1);
    now = failedAt + DAY_MS;
    expect(await enrich()).toBe(1);
    expect(sites.hits('slow-site.com')).toBe(2);
    expect(await companyById(slow.id)).toMatchObject({ name: 'Slow Site' });
    expect(await queued(slow.id)).toMatchObject({ failures: 0, last_error: null });
    for (const response of held) response.destroy();
  });

  it('C6.7: an enriched company is read again 30 days later, not sooner, and what enrichment wrote is brought up to date', async () => {
    let description = 'The first description';
    sites.route('refreshed.com', '/', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(homePage({ siteName: 'Refreshed', description })),
    );
    const made = await companyFrom('refreshed.com');
    expect(await enrich()).toBe(1);
    expect(await companyById(made.id)).toMatchObject({ name: 'Refreshed', description: 'The first description' });
    const enrichedAt = now;
    description = 'The description a month later';
    now = enrichedAt + 30 * DAY_MS - 1;
    expect(await enrich()).toBe(0);
    expect(sites.hits('refreshed.com')).toBe(1);
    now = enrichedAt + 30 * DAY_MS;
    expect(await enrich()).toBe(1);
    expect(sites.hits('refreshed.com')).toBe(2);
    expect(await companyById(made.id)).toMatchObject({ name: 'Refreshed', description: 'The description a month later' });
  });

  it('C6.7: what a person or a client wrote is never overwritten, by the website nor the provider; the empty fields are filled', async () => {
    sites.page(
      'hooli.com',
      '/',
      homePage({ siteName: 'Hooli Inc', description: 'From the website', jsonLd: { '@type': 'Organization', numberOfEmployees: { minValue: 1001, maxValue: 5000 } } }),
    );
    sites.route('provider.test', '*', (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'Hooli (provider)', description: 'From the provider', main_industry: 'Software' })),
    );
    const [id] = await importRows(t, workspace.id, 'companies', [{ name: 'Hooli', domain: 'hooli.com', description: 'Written by sales' }]);
    const imported = await companyById(id);
    expect(imported).toMatchObject({ name: 'Hooli', description: 'Written by sales', employees: null, main_industry: null });
    expect(await enrich({ providerUrl: `http://provider.test:${sites.port}/companies/{domain}` })).toBe(1);
    expect(await companyById(id)).toEqual({ ...imported, employees: '1001-5000', main_industry: 'Software' });
    // a person's domain-looking name is a person's too
    const [named] = await importRows(t, workspace.id, 'companies', [{ name: 'Globex', domain: 'globex-two.com' }]);
    sites.page('globex-two.com', '/', homePage({ siteName: 'Globex Two' }));
    expect(await enrich()).toBe(1);
    expect(await companyById(named)).toMatchObject({ name: 'Globex', description: null });
  });

  it('C6.7: the provider fills and wins over the website, with its token as a Bearer; one that knows nothing (404) leaves the website its say; one that fails changes nothing of its own and is retried in a day', async () => {
    const tokens: (string | undefined)[] = [];
    sites.route('provider.test', '*', (request, response) => {
      tokens.push(request.headers.authorization);
      const domain = decodeURIComponent((request.url ?? '').replace('/v1/companies/', ''));
      if (domain === 'wayne-enterprises.com') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ name: 'Wayne Enterprises', description: 'A conglomerate', employees: 250, main_industry: 'Manufacturing', ceo: 'ignored' }));
      } else if (domain === 'stark-industries.com') response.writeHead(500).end('down');
      else response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
    const page = (name: string) => homePage({ siteName: name, description: `${name} from its website`, jsonLd: { '@type': 'Organization', numberOfEmployees: { minValue: 11, maxValue: 50 } } });
    sites.page('wayne-enterprises.com', '/', page('Wayne Website'));
    sites.page('cyberdyne.com', '/', page('Cyberdyne'));
    sites.page('stark-industries.com', '/', page('Stark'));
    const wayne = await companyFrom('wayne-enterprises.com');
    const cyberdyne = await companyFrom('cyberdyne.com');
    const stark = await companyFrom('stark-industries.com');
    expect(await enrich({ providerUrl: `http://provider.test:${sites.port}/v1/companies/{domain}`, providerToken: 'sk_test_provider' })).toBe(3);
    expect(tokens).toEqual(['Bearer sk_test_provider', 'Bearer sk_test_provider', 'Bearer sk_test_provider']);
    expect(await companyById(wayne.id)).toMatchObject({ name: 'Wayne Enterprises', description: 'A conglomerate', employees: '201-500', main_industry: 'Manufacturing' });
    expect(await companyById(cyberdyne.id)).toMatchObject({ name: 'Cyberdyne', description: 'Cyberdyne from its website', employees: '11-50', main_industry: '' });
    expect(await queued(cyberdyne.id)).toMatchObject({ failures: 0, due_at: new Date(now + 30 * DAY_MS).toISOString() });
    expect(await companyById(stark.id)).toMatchObject({ name: 'Stark', description: 'Stark from its website', main_industry: '' });
    expect(await queued(stark.id)).toMatchObject({ failures: 1, last_error: 'provider: the provider answered 500', due_at: new Date(now + DAY_MS).toISOString() });

    // a month later, without the provider: the website refreshes what it wrote, never what the provider did
    sites.page('cyberdyne.com', '/', page('Cyberdyne Systems'));
    now += 30 * DAY_MS;
    expect(await enrich()).toBe(3);
    expect(await companyById(wayne.id)).toMatchObject({ name: 'Wayne Enterprises', description: 'A conglomerate', employees: '201-500', main_industry: 'Manufacturing' });
    expect(await companyById(cyberdyne.id)).toMatchObject({ name: 'Cyberdyne Systems', description: 'Cyberdyne Systems from its website' });
  });

  it('C6.7: without ENRICHMENT_ALLOW_PRIVATE, a website whose name resolves to a loopback address, or a loopback address itself, is refused and never reached', async () => {
    sites.page('inside-job.com', '/', homePage({ siteName: 'Inside' }));
    const named = await companyFrom('inside-job.com');
    expect(await enrich({ allowPrivate: false })).toBe(1);
    expect(await queued(named.id)).toMatchObject({ failures: 1, last_error: expect.stringMatching(/^website: refused: inside-job\.com resolves to a loopback or private address/) });

    const literal = await companyFrom('literal-address.com');
    sites.page('127.0.0.1', '/literal-address.com/', homePage({ siteName: 'Literal' }));
    expect(await enrich({ allowPrivate: false, websiteUrl: `http://127.0.0.1:${sites.port}/{domain}/` })).toBe(1);
    expect(await queued(literal.id)).toMatchObject({ failures: 1, last_error: 'website: refused: 127.0.0.1 is a loopback or private address' });
    expect(sites.hits('inside-job.com') + sites.hits('127.0.0.1')).toBe(0);
    expect(await companyById(named.id)).toEqual(named);
    expect(await companyById(literal.id)).toEqual(literal);

    // allowed, both are read
    now += DAY_MS;
    expect(await enrich({ allowPrivate: true })).toBe(2);
    expect(sites.hits('inside-job.com')).toBe(1);
    expect(await companyById(named.id)).toMatchObject({ name: 'Inside' });
  });

  it('C6.7: a company whose domain enrichment cannot read leaves the queue without a request', async () => {
    const [id] = await importRows(t, workspace.id, 'companies', [{ name: 'No site', domain: 'not a domain' }]);
    const before = sites.seen.length;
    expect(await queued(id)).toBeDefined();
    expect(await enrich()).toBe(1);
    expect(await queued(id)).toBeUndefined();
    expect(sites.seen.length).toBe(before);
  });
});
