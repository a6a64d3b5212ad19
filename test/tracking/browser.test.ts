/**
 * The tracker in a real browser (CONTRACT C5.2 to C5.7): Debian's Chromium,
 * driven by playwright-core, on the test site (scripts/demo-site) served from
 * another origin than Leadlight, on both stores. A visit that lands with UTM
 * parameters, follows links, changes the URL of a single-page app with the
 * history API (and calls replaceState without changing it), signs up, is
 * hidden and closed becomes, through /api/v1, an identity with the right
 * first and last seen, its page views in order, and a conversion lead with
 * the campaign source. A second visit with data-cookieless stores nothing in
 * the browser and is still grouped as one visitor; a headless browser's
 * visit is ignored. The browser test fails, never skips, when Chromium cannot
 * start.
 *
 * Headless Chromium calls itself HeadlessChrome, which the events endpoint
 * ignores (C5.3), so the visits are made by a browser started with a desktop
 * Chrome's User-Agent (--user-agent: a context's override does not reach
 * the beacons and keepalive requests a page sends as it unloads, which the
 * browser process sends with its own User-Agent), and the headless visit by
 * a browser started as it is.
 *
 * Headless Chromium never hides a page (bringing another tab to the front or
 * minimizing the window leaves visibilityState "visible"), so the test hides
 * the page the way a browser reports it: visibilityState "hidden" and a
 * visibilitychange event. Closing the page is real (pagehide).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { startDemoSite, type DemoSite } from '../../scripts/demo-site/site.js';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, BROWSER_UA, eventually } from '../helpers/tracking.js';

type Item = Record<string, unknown>;

/** What the page's own scripts see, as far as these tests use it (tests compile without the DOM library). */
interface PageGlobals {
  document: { cookie: string; dispatchEvent(event: unknown): boolean };
  localStorage: { length: number; getItem(key: string): string | null };
  sessionStorage: { length: number };
  indexedDB: { databases(): Promise<unknown[]> };
  navigator: { userAgent: string };
  Event: new (type: string) => unknown;
  leadlight?: { track?: unknown };
}

async function launch(userAgent?: string): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...(userAgent === undefined ? [] : [`--user-agent=${userAgent}`]),
    ],
  });
}

/** Errors the page reports: console errors and uncaught exceptions. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function hideAndClose(page: Page): Promise<void> {
  await page.evaluate(() => {
    const { document, Event } = globalThis as unknown as PageGlobals;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.close({ runBeforeUnload: true });
}

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** The two browsers, for both stores (each visit has its own context). */
let browser: Browser;
let headless: Browser;
beforeAll(async () => {
  browser = await launch(BROWSER_UA);
  headless = await launch();
});
afterAll(async () => {
  await browser?.close();
  await headless?.close();
});

describe.each(storeKinds())('the tracker in Chromium on %s (C5.2)', (kind) => {
  let t: TestApp;
  let leadlight: string;

  beforeAll(async () => {
    t = await testApp(kind);
    leadlight = await t.listen();
  });

  /** A workspace, a site key limited to the test site's origin, and the site. */
  async function site(name: string, cookieless = false): Promise<{ workspace: TestWorkspace; site: DemoSite }> {
    const workspace = await t.createWorkspace(name);
    // the site's port is known once it listens: the key is made for it, then the site restarted on that port
    const first = await startDemoSite({ leadlightUrl: leadlight, siteKey: 'll_site_pending', cookieless });
    const port = new URL(first.url).port;
    await first.close();
    const key = await t.services.siteKeys.create(workspace.id, name, [`http://127.0.0.1:${port}`]);
    return { workspace, site: await startDemoSite({ leadlightUrl: leadlight, siteKey: key.key, cookieless, port: Number(port) }) };
  }

  /** A context of the browser claiming a desktop Chrome, or of the one with headless Chromium's own User-Agent. */
  async function context(as: 'desktop' | 'headless' = 'desktop'): Promise<BrowserContext> {
    return as === 'desktop' ? browser.newContext({ userAgent: BROWSER_UA }) : headless.newContext();
  }

  it('C5.2 to C5.7: links, an SPA route change, identify, convert, hide and close: identity, ordered page views and a campaign lead', async () => {
    const { workspace, site: demo } = await site('Browser visit');
    const browserContext = await context();
    try {
      const page = await browserContext.newPage();
      const errors = watchErrors(page);
      const started = Date.now();
      await page.goto(`${demo.url}/?utm_source=newsletter&utm_medium=email&utm_campaign=launch`);
      await page.click('#to-pricing');
      await page.waitForURL('**/pricing');
      await page.click('#to-app');
      await page.waitForURL('**/app');
      await page.click('#reports');
      await page.waitForURL('**/app/reports');
      await page.click('#noise');
      await page.click('#settings');
      await page.waitForURL('**/app/settings');
      await page.click('nav a[href="/signup"]');
      await page.waitForURL('**/signup');
      await page.fill('input[name=email]', 'Ada.Lovelace@Example.com');
      await page.fill('input[name=name]', 'Ada Lovelace');
      await page.fill('input[name=company]', 'Analytical Engines');
      await page.click('button[type=submit]');
      await page.waitForSelector('#thanks', { state: 'visible' });
      const visitor = await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('leadlight_vid'));
      expect(visitor).toMatch(/^[0-9a-f-]{36}$/);
      await hideAndClose(page);
      expect(errors).toEqual([]);

      const leadOf = async () => (await all(leadlight, workspace, '/leads')).find((lead) => lead.visitor_id === visitor);
      const lead = await eventually(leadOf, (found) => found !== undefined);
      expect(lead, 'the conversion became a lead').toBeDefined();
      const [identity] = await all(leadlight, workspace, '/identities?email=ada.lovelace@example.com');
      expect(identity).toMatchObject({ email: 'Ada.Lovelace@Example.com', name: 'Ada Lovelace', visitor_id: visitor, traits: { company: 'Analytical Engines' }, ip: '127.0.0.1' });

      // first and last seen are the first and last events the browser sent
      const logged = await new Store(t.db.database).forWorkspace(workspace.id).repos.events.forVisitor(visitor!, new Date(started - 60_000).toISOString(), 100);
      const times = logged.map((event) => event.occurred_at).sort();
      expect(identity!.first_seen).toBe(times[0]);
      expect(identity!.last_seen).toBe(times.at(-1));
      expect(Date.parse(times[0]!)).toBeGreaterThanOrEqual(started - 1000);

      const activity = (await all(leadlight, workspace, `/identities/${String(identity!.id)}/activity`)).reverse();
      expect(activity.map((entry) => `${String(entry.type)}: ${String(entry.what)}`)).toEqual([
        'page_view: Viewed Northwind Analytics',
        'page_view: Viewed Pricing',
        'event: Compared plans',
        'page_view: Viewed App',
        'page_view: Viewed App: reports',
        'page_view: Viewed App: settings',
        'page_view: Viewed Sign up',
        'identify: Identified as Ada.Lovelace@Example.com',
        'conversion: Signed up',
      ]);
      expect(new Set(activity.map((entry) => entry.who))).toEqual(new Set(['Ada Lovelace']));

      expect(lead).toMatchObject({
        source: 'campaign',
        code: 'trial-signup',
        identity_id: identity!.id,
        properties: {
          plan: 'growth',
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'launch',
          landing_page: `${demo.url}/?utm_source=newsletter&utm_medium=email&utm_campaign=launch`,
          page: `${demo.url}/signup`,
        },
      });
    } finally {
      await browserContext.close();
      await demo.close();
    }
  });

  it('C5.2, C5.4: with data-cookieless nothing is stored in the browser, and the visit is still one visitor', async () => {
    const { workspace, site: demo } = await site('Cookieless visit', true);
    const browserContext = await context();
    try {
      const page = await browserContext.newPage();
      const errors = watchErrors(page);
      await page.goto(`${demo.url}/`);
      await page.click('#to-pricing');
      await page.waitForURL('**/pricing');
      await page.click('nav a[href="/signup"]');
      await page.waitForURL('**/signup');
      await page.fill('input[name=email]', 'cookieless.browser@example.com');
      await page.click('button[type=submit]');
      await page.waitForSelector('#thanks', { state: 'visible' });
      const stored = await page.evaluate(async () => {
        const { localStorage, sessionStorage, document, indexedDB } = globalThis as unknown as PageGlobals;
        return { local: localStorage.length, session: sessionStorage.length, cookies: document.cookie, databases: (await indexedDB.databases()).length };
      });
      expect(stored).toEqual({ local: 0, session: 0, cookies: '', databases: 0 });
      expect(await browserContext.cookies()).toEqual([]);
      await hideAndClose(page);
      expect(errors).toEqual([]);
      expect((await browserContext.storageState()).origins).toEqual([]);

      const [identity] = await eventually(
        () => all(leadlight, workspace, '/identities?email=cookieless.browser@example.com'),
        (found) => found.length === 1 && found[0] !== undefined,
      );
      const activity = await eventually(
        () => all(leadlight, workspace, `/identities/${String(identity!.id)}/activity`),
        (entries) => entries.some((entry) => entry.type === 'conversion'),
      );
      expect(activity.reverse().map((entry) => entry.what)).toEqual([
        'Viewed Northwind Analytics',
        'Viewed Pricing',
        'Compared plans',
        'Viewed Sign up',
        'Identified as cookieless.browser@example.com',
        'Signed up',
      ]);
      const [lead] = (await all(leadlight, workspace, '/leads')).filter((found: Item) => found.identity_id === identity!.id);
      expect(lead).toMatchObject({ visitor_id: identity!.visitor_id, source: 'website', properties: { landing_page: `${demo.url}/` } });
    } finally {
      await browserContext.close();
      await demo.close();
    }
  });

  it('C5.3: a headless browser (its own User-Agent) is ignored: its events are answered 202 and nothing is stored', async () => {
    const { workspace, site: demo } = await site('Headless visit');
    const browserContext = await context('headless');
    try {
      const page = await browserContext.newPage();
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.userAgent)).toContain('HeadlessChrome');
      const answers: unknown[] = [];
      page.on('response', async (response) => {
        if (response.url().startsWith(`${leadlight}/e`) && response.request().method() === 'POST') answers.push(await response.json());
      });
      await page.goto(`${demo.url}/pricing`);
      await page.click('nav a[href="/signup"]');
      await page.waitForURL('**/signup');
      await page.fill('input[name=email]', 'headless@example.com');
      await page.click('button[type=submit]');
      await expect.poll(() => answers.length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      for (const answer of answers) expect(answer).toMatchObject({ data: { accepted: 0, duplicates: 0 } });
      await hideAndClose(page);
      expect(await all(leadlight, workspace, '/identities')).toEqual([]);
      expect(await all(leadlight, workspace, '/leads')).toEqual([]);
    } finally {
      await browserContext.close();
      await demo.close();
    }
  });

  it('C5.2: calls made before the tracker loads are kept, a page\'s events go in one text/plain batch (no preflight), and window.leadlight is its only global', async () => {
    const { site: demo } = await site('Batches');
    const browserContext = await context();
    try {
      const page = await browserContext.newPage();
      const requests: { method: string; body: string; contentType: string | undefined }[] = [];
      page.on('request', (request) => {
        if (request.url() === `${leadlight}/e`) {
          requests.push({ method: request.method(), body: request.postData() ?? '', contentType: request.headers()['content-type'] });
        }
      });
      const globals = () => page.evaluate(() => Object.getOwnPropertyNames(globalThis));
      // the same page without the tracker: the loader snippet's stub is its only global
      await page.route(`${leadlight}/t.js`, (route) => route.abort());
      await page.goto(`${demo.url}/pricing`);
      const withStub = await globals();
      await page.unroute(`${leadlight}/t.js`);
      await page.goto(`${demo.url}/pricing`);
      await expect.poll(() => requests.length, { timeout: 5000 }).toBe(1);
      expect((await globals()).filter((name) => !withStub.includes(name))).toEqual([]);
      expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).leadlight?.track)).toBe('function');
      expect(requests[0]).toMatchObject({ method: 'POST', contentType: 'text/plain' });
      const batch = JSON.parse(requests[0]!.body) as { key: string; events: Item[] };
      expect(batch.key).toMatch(/^ll_site_/);
      expect(batch.events.map((event) => event.type)).toEqual(['page', 'track']);
      expect(batch.events[1]).toMatchObject({ name: 'Compared plans', properties: { currency: 'EUR' } });
      expect(Date.parse(String(batch.events[1]!.ts))).toBeGreaterThan(Date.parse(String(batch.events[0]!.ts)));
      await page.close();
    } finally {
      await browserContext.close();
      await demo.close();
    }
  });
});
