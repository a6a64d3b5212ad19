/**
 * A company as a sales account in a real browser (Debian chromium through
 * playwright-core) against a real server, on both stores, at 1280 and
 * 390 px (CONTRACT C9.4, C9.9). Visitors reach the real events endpoint
 * from a business network (their address through X-Forwarded-For), two
 * anonymous and one who identifies with a free-mail address (so the
 * network's company is theirs) and converts; someone at another company identifies with
 * a business email from home; leads come through /api/v1. The companies
 * list shows people and visitors and sorts by account score from its
 * headers, by last visit and by account score (the order in the URL); the company's page shows its people, its
 * anonymous visitors, visits per day (a chart in a box of reserved
 * height), top pages, leads, the account score with reasons and its
 * explanation, and its activity, as the API counts them. No control is
 * outside the viewport, axe-core finds nothing, no page logs an error;
 * screenshots under test-results/dashboard/company-*.png.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { axeViolations, offscreen } from '../helpers/page-checks.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;
/** an ISP's address (Videotron): no company */
const HOME = '24.48.0.1';
/** Deutsche Bank AG (AS8373): a business network that names its company (C6.5) */
const BUSINESS = '129.35.230.10';
const DAY_MS = 86_400_000;

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind, { trustProxy: true }), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('a company as a sales account in a browser, on %s (C9.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let seller: Person;
  let bank: Item;
  let acme: Item;
  /** the bank's engagement as /api/v1 answers it */
  let account: Item;
  let activityTotal: number;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  const ago = (ms: number) => ({ ts: new Date(Date.now() - ms).toISOString() });
  const send = async (events: Event[], address: string) => {
    const answer = await postEvents(base, key, events, { 'x-forwarded-for': address });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  let key: string;

  const createLead = async (body: Item) => {
    const response = await fetch(`${base}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.production.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ visitor_id: randomUUID(), ...body }),
    });
    expect(response.status).toBe(201);
  };

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Browser company');
    key = (await createSiteKey(t, workspace)).key;
    seller = await member(t, workspace.id, 'viewer', `seller.${kind}@example.com`);
    const [first, second, casey, dana] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // two anonymous visitors of the bank's network, today and two days ago; a person of the same network with a free-mail address
    await send([pageView(first, '/pricing', ago(50 * 60_000)), pageView(first, '/', ago(49 * 60_000)), pageView(first, '/pricing', ago(48 * 60_000)), pageView(first, '/docs', ago(47 * 60_000))], BUSINESS);
    await send([pageView(second, '/pricing', ago(2 * DAY_MS)), pageView(second, '/security', ago(2 * DAY_MS - 60_000))], BUSINESS);
    await send([pageView(casey, '/pricing', ago(40 * 60_000)), pageView(casey, '/careers', ago(39 * 60_000)), identify(casey, { email: `casey.${randomUUID()}@gmail.com`, name: 'Casey Bank' }, ago(38 * 60_000)), conversion(casey, 'demo-request', ago(37 * 60_000))], BUSINESS);
    // someone at another company, from home, seen once and last: the latest visit, a lower account score
    await send([pageView(dana, '/', ago(30 * 60_000)), identify(dana, { email: 'dana@acme-rockets.com', name: 'Dana Rocket' }, ago(29 * 60_000))], HOME);
    await t.services.intelligence.runWorkspace(workspace.id);
    bank = (await all(base, workspace, '/companies?name=deutsche bank'))[0]!;
    acme = (await all(base, workspace, '/companies?domain=acme-rockets.com'))[0]!;
    const casePerson = (await all(base, workspace, `/companies/${bank.id as string}/identities`))[0]!;
    await createLead({ code: 'enterprise-trial', company_id: bank.id, identity_id: casePerson.id });
    await createLead({ code: 'rockets-demo', company_id: acme.id });
    account = (await api(base, workspace, `/companies/${bank.id as string}/engagement`)).body.data as Item;
    activityTotal = (await api(base, workspace, `/companies/${bank.id as string}/activity?limit=1`)).body.pagination!.total;
    const acmeScore = ((await api(base, workspace, `/companies/${acme.id as string}/engagement`)).body.data as Item).score as number;
    // what the sort must show: the bank first by score, the newer Acme first by default
    expect(account.score as number).toBeGreaterThan(acmeScore);
  }, 60_000);
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
    expect(errors, 'errors logged by the page').toEqual([]);
    errors = [];
  });

  /** A page of `path`, signed in as the seller. */
  async function signedIn(width: number, path: string): Promise<Page> {
    const context = await browser().newContext(width < 600 ? { viewport: { width, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width, height: 900 } });
    open.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = consoleErrors(page);
    await addSession(context, base, seller);
    await page.goto(`${base}${path}`);
    return page;
  }

  async function expectUsable(page: Page) {
    await page.waitForLoadState('networkidle');
    expect(await offscreen(page)).toEqual({ controls: [], pageScrollsSideways: false });
    // and no table scrolls sideways: every column is in view
    expect(await page.evaluate(`[...document.querySelectorAll('.table-wrap')].filter((box) => box.scrollWidth > box.clientWidth).length`)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  }

  const names = (page: Page) => page.locator('tbody tr td:first-child a').allTextContents();
  const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  for (const width of [1280, 390]) {
    it(`at ${width} px the list shows people and visitors and sorts by account score; the company's page shows the account`, async () => {
      const page = await signedIn(width, '/companies');
      await page.getByRole('columnheader', { name: 'Account score' }).waitFor();
      // newest first by default, as the API lists them
      expect(await names(page)).toEqual((await all(base, workspace, '/companies')).map((company) => company.name));
      const bankRow = page.locator('tbody tr', { has: page.getByRole('link', { name: bank.name as string }) });
      if (width === 1280) {
        // People and Visitors columns: one person, three visitors
        expect((await bankRow.locator('td').allTextContents()).slice(1, 3)).toEqual(['1', '3']);
      } else {
        await bankRow.getByText('1 person · 3 visitors').waitFor();
      }
      // Acme's visit is the latest, the bank's score the highest
      await page.getByRole('button', { name: 'Last visit' }).click();
      await page.waitForURL(/sort=-last_seen/);
      await expect(page.getByRole('columnheader', { name: 'Last visit' }).getAttribute('aria-sort')).resolves.toBe('descending');
      await page.locator('tbody tr').first().getByRole('link', { name: acme.name as string }).waitFor();
      expect(await names(page)).toEqual([acme.name, bank.name]);
      await page.getByRole('button', { name: 'Account score' }).click();
      await page.waitForURL(/sort=-account_score/);
      await expect(page.getByRole('columnheader', { name: 'Account score' }).getAttribute('aria-sort')).resolves.toBe('descending');
      await page.locator('tbody tr').first().getByRole('link', { name: bank.name as string }).waitFor();
      expect(await names(page)).toEqual([bank.name, acme.name]);
      await bankRow.getByText(String(account.score)).waitFor();
      // the order is in the URL: a reload keeps it
      await page.reload();
      await page.locator('tbody tr').first().getByRole('link', { name: bank.name as string }).waitFor();
      await screenshot(page, `company-list-${kind}-${width}`);
      await expectUsable(page);

      await page.getByRole('link', { name: bank.name as string }).click();
      await page.getByRole('heading', { level: 1, name: bank.name as string }).waitFor();
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      // people: the identified person, linked to their page
      await section(page, 'People').getByRole('link', { name: 'Casey Bank' }).waitFor();
      // anonymous visitors: two in the window, the latest seen listed
      await expect(section(page, 'Anonymous visitors').locator('p strong').textContent()).resolves.toBe('2');
      await expect(section(page, 'Anonymous visitors').getByRole('listitem').count()).resolves.toBe(2);
      // the figures of the window, as /api/v1 counts them
      for (const [label, field] of [['Visitors', 'visitors'], ['Visits', 'sessions'], ['Page views', 'page_views']] as const) {
        await expect(section(page, label).locator('.tile-value').textContent(), label).resolves.toBe(String(account[field]));
      }
      expect(account).toMatchObject({ visitors: 3, identities: 1, sessions: 3, page_views: 8 });
      // visits per day: a bar for today and one for two days ago, in the box whose height was reserved
      const chart = section(page, 'Visits per day');
      await chart.getByRole('figure', { name: 'Visits per day' }).waitFor();
      await expect(chart.locator('svg .chart-bar').count()).resolves.toBe(2);
      await expect(chart.locator('.chart-box').evaluate((box) => (box as unknown as { offsetHeight: number }).offsetHeight)).resolves.toBe(200);
      // top pages, most viewed first
      const pages = await section(page, 'Top pages').locator('li .mono').allTextContents();
      expect(pages).toEqual((account.top_pages as { path: string }[]).map((entry) => entry.path));
      expect(pages[0]).toBe('/pricing');
      // its leads, linked to their pages
      await section(page, 'Leads').getByRole('link', { name: 'enterprise-trial' }).waitFor();
      await expect(section(page, 'Leads').getByRole('link', { name: 'rockets-demo' }).count()).resolves.toBe(0);
      // the account score with its reasons and what it means
      const score = section(page, 'Account score');
      await expect(score.locator('.score strong').textContent()).resolves.toBe(String(account.score));
      expect(await score.getByRole('list', { name: 'Score reasons' }).getByRole('listitem').allTextContents()).toEqual(account.score_reasons);
      expect((account.score_reasons as string[]).length).toBeGreaterThan(0);
      await score.getByText('the best fit among its people and visitors').waitFor();
      // its activity, newest first, as many entries as the API lists (one page)
      expect(activityTotal).toBeGreaterThan(0);
      await expect(section(page, 'Activity').getByRole('list', { name: 'Activity, newest first' }).getByRole('listitem').count()).resolves.toBe(Math.min(activityTotal, 20));
      await screenshot(page, `company-page-${kind}-${width}`);
      await expectUsable(page);

      if (width === 1280) {
        // a lead and a person open their pages; each links back to the company
        await section(page, 'Leads').getByRole('link', { name: 'enterprise-trial' }).click();
        await page.getByRole('heading', { level: 1, name: 'Lead enterprise-trial' }).waitFor();
        await page.getByRole('link', { name: bank.name as string }).click();
        await page.getByRole('heading', { level: 1, name: bank.name as string }).waitFor();
        await section(page, 'People').getByRole('link', { name: 'Casey Bank' }).click();
        await page.getByRole('heading', { level: 1, name: 'Casey Bank' }).waitFor();
        // the person's page links their company back
        await section(page, 'Profile').getByRole('link', { name: bank.name as string }).click();
        await page.getByRole('heading', { level: 1, name: bank.name as string }).waitFor();
      }
    }, 60_000);
  }
});
