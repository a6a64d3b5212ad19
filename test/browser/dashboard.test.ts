/**
 * The dashboard end to end in a real browser (Debian chromium through
 * playwright-core) against a real server, on both stores (CONTRACT C7):
 * signing in; a development key created, read once, used with the API and
 * its last use seen; rotated (the old key 401 at once, the new 200) and
 * revoked (401); leads filtered by source and walked page by page with
 * exact totals; a lead's properties edited with the JSON editor, which
 * checks the JSON first; an identity opened and its timeline paged; a
 * viewer without key controls whose forged request is 403; signing out,
 * after which the old cookie is refused. No page logs an error. Each main
 * page is saved as a screenshot under test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoreKind } from '../../src/db/codec.js';
import { closedOnFailure, fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { pageView, postEvents } from '../helpers/tracking.js';
import { lastDays } from '../../src/services/tenant/traffic-overview.service.js';

const WEBSITE_LEADS = 120;
const ACTIVITY = 45;
const HOUR_MS = 3_600_000;

/** A server on `kind` with the workspace the tests walk (leads, an identity with its timeline, a company, a list) and a workspace filled by `seed --demo`. */
async function prepare(kind: StoreKind) {
  return closedOnFailure(await createTestApp(kind), (t) => t.close(), fill);
}

async function fill(t: TestApp) {
  const base = await t.listen();
  const workspace = await t.createWorkspace('Browser workspace');
  const admin = await member(t, workspace.id, 'admin');
  const viewer = await member(t, workspace.id, 'viewer');
  const start = Date.now() - 200 * HOUR_MS;
  await importRows(
    t,
    workspace.id,
    'leads',
    Array.from({ length: WEBSITE_LEADS + 37 }, (_, index) => ({
      code: `E2E-${String(index).padStart(3, '0')}`,
      source: index < WEBSITE_LEADS ? 'website' : 'referral',
      properties: { status: 'new' },
      created_at: new Date(start + index * HOUR_MS).toISOString(),
    })),
  );
  const identityEmail = 'timeline.person@example.com';
  const [identityId] = await importRows(t, workspace.id, 'identities', [{ email: identityEmail, name: 'Timeline Person', traits: { plan: 'pro' } }]);
  await importRows(
    t,
    workspace.id,
    'activity',
    Array.from({ length: ACTIVITY }, (_, index) => ({
      identity_id: identityId,
      type: 'page_view',
      what: `Viewed /page-${index}`,
      source: 'web',
      created_at: new Date(start + index * HOUR_MS).toISOString(),
    })),
  );
  await importRows(t, workspace.id, 'personalities', [
    { visitor_id: (await t.services.forWorkspace(workspace.id).identities.get(identityId!)).visitor_id, score: 0.8, personality: { type: 'Analytical', traits: ['data-driven'] }, learning_percentage: 0.5 },
  ]);
  const demo = await t.createWorkspace('Demo workspace');
  await t.services.seed.seedDemo(demo.id);
  const demoAdmin = await member(t, demo.id, 'admin');
  await importRows(t, workspace.id, 'companies', [{ name: 'Browser Co', domain: 'browser.example' }]);
  const [listId] = await importRows(t, workspace.id, 'lists', [{ name: 'Browser list', description: 'People seen in the browser test', color: '#336699' }]);
  const added = await fetch(`${base}/api/v1/lists/${listId}/identities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${workspace.production.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ identity_ids: [identityId] }),
  });
  expect(added.status).toBe(200);
  return { t, base, workspace, admin, viewer, identityEmail, demo, demoAdmin };
}

/** Both stores' fixtures, started at the file's start: PostgreSQL's is made while the SQLite tests run. */
const fixture = fixturesAhead(storeKinds(), prepare, (made) => made.t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('the dashboard in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let admin: Person;
  let viewer: Person;
  let identityEmail: string;
  let viewerVisibleSiteKey: string;
  /** the admin of a workspace filled by `seed --demo` (its visits sent through the ingestion) */
  let demoAdmin: Person;
  let demo: TestWorkspace;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    ({ t, base, workspace, admin, viewer, identityEmail, demo, demoAdmin } = await fixture(kind));
  });
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
    expect(errors, 'errors logged by the page').toEqual([]);
    errors = [];
  });

  async function newPage(width = 1280): Promise<Page> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    open.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = consoleErrors(page);
    return page;
  }

  /** Signs in through the form (C7.1, C7.3): the overview follows. */
  async function signInAs(person: Person, width = 1280): Promise<Page> {
    const page = await newPage(width);
    await page.goto(`${base}/`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // the pointer leaves where the button was (over the chart), so screenshots show no tooltip
    await page.mouse.move(0, 0);
    return page;
  }

  /** A page of `path` signed in as `person` with a session made over HTTP (the form is signInAs's, walked by C7.1 and C7.3). */
  async function pageAs(person: Person, path = '/', width = 1280): Promise<Page> {
    const page = await newPage(width);
    await addSession(page.context(), base, person);
    await page.goto(`${base}${path}`);
    return page;
  }

  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  const useKey = (key: string) => fetch(`${base}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((response) => response.status);

  it('C7.1: / serves the sign-in form (Email, Password, Sign in), and the printed account signs in to the overview', async () => {
    const page = await signInAs(admin);
    await page.getByRole('heading', { name: /Leads per day by source/ }).waitFor();
    await page.locator('.svg-chart svg').first().waitFor();
    // no page views tracked in this workspace yet: the pages breakdown says how to get some
    await page.getByRole('region', { name: 'Pages', exact: true }).getByText('No page views in this period').waitFor();
    await page.getByRole('region', { name: 'Pages', exact: true }).getByRole('link', { name: 'Settings' }).waitFor();
    await screenshot(page, `${kind}-overview-1280`);
    const narrow = await pageAs(admin, '/', 390);
    await narrow.locator('.svg-chart svg').first().waitFor();
    await screenshot(narrow, `${kind}-overview-390`);
  });

  it('the overview shows the most viewed pages of the demo data (tracked page views), for 30 and 90 days', async () => {
    const page = await pageAs(demoAdmin);
    // what the page asks for: the last 30 days' traffic, its pages and days
    const expected = await t.services.forWorkspace(demo.id).traffic.traffic(lastDays(30));
    const topPages = expected.breakdowns.pages;
    expect(topPages.length).toBeGreaterThan(3);
    const region = page.getByRole('region', { name: 'Pages', exact: true });
    const rows = region.locator('tbody tr');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(topPages.length);
    const first = topPages[0]!;
    await expect(rows.first().textContent()).resolves.toBe(`${first.path}${first.views.toLocaleString('en')}`);
    // each page is a link to its address
    await expect(rows.first().getByRole('link').getAttribute('href')).resolves.toBe(`https://${first.host}${first.path}`);
    await page.locator('.svg-chart svg').first().waitFor();
    await screenshot(page, `${kind}-overview-demo-1280`);
    // the SVG charts: a bar for each day with new identities, its title the day's figure; a bar per source and day with leads
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const withIdentities = expected.days.filter((entry) => entry.identities > 0);
    expect(withIdentities.length).toBeGreaterThan(1);
    const identityBars = page.locator('figure[aria-label="New identities per day"] svg .chart-bar');
    await expect(identityBars.count()).resolves.toBe(withIdentities.length);
    const last = withIdentities.at(-1)!;
    await expect(identityBars.last().locator('title').textContent()).resolves.toBe(`${day.format(new Date(`${last.day}T00:00:00Z`))}: ${last.identities} new identities`);
    const leadBars = expected.days.reduce((bars, entry) => bars + Object.values(entry.by_source).filter((value) => value > 0).length, 0);
    await expect(page.locator('figure[aria-label="Leads per day by source"] svg .chart-bar').count()).resolves.toBe(leadBars);
    await page.getByRole('radio', { name: 'Last 90 days' }).check();
    await page.waitForURL(/range=90d/);
    const ninety = await t.services.forWorkspace(demo.id).traffic.traffic(lastDays(90));
    await expect
      .poll(async () => region.locator('tbody tr td:last-child').allTextContents())
      .toEqual(ninety.breakdowns.pages.map((entry) => entry.views.toLocaleString('en')));
    const narrow = await pageAs(demoAdmin, '/', 390);
    await narrow.getByRole('region', { name: 'Pages', exact: true }).locator('tbody tr').first().waitFor();
    await narrow.locator('.svg-chart svg').first().waitFor();
    await screenshot(narrow, `${kind}-overview-demo-390`);
  });

  it('C7.5: a development key is created, shown once, works with the API, and its last use appears', async () => {
    const page = await pageAs(admin);
    await nav(page, 'Settings').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('radio', { name: 'Development' }).check();
    await page.getByLabel('Name', { exact: true }).first().fill('e2e key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByLabel('Key', { exact: true }).textContent()) ?? '';
    expect(secret).toMatch(/^ll_dev_[0-9A-Za-z]{32,}$/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await page.getByText('shown only this once').waitFor();
    const row = page.locator('tr', { hasText: 'e2e key' });
    await expect(row.locator('.last-used').textContent()).resolves.toMatch(/never/);

    expect(await useKey(secret)).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await expect(row.locator('.last-used').textContent()).resolves.toMatch(/just now|minute/);
    await expect(page.getByTestId('dev-last-use').textContent()).resolves.toMatch(/just now|minute/);
    await screenshot(page, `${kind}-settings-1280`);
  });

  it('C7.5: rotating a key answers a new one (the old key is refused at once); revoking refuses the new one', async () => {
    const page = await pageAs(admin, '/settings');
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    await page.getByLabel('Name', { exact: true }).first().fill('rotated key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const old = (await page.getByLabel('Key', { exact: true }).textContent()) ?? '';
    expect(await useKey(old)).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.locator('tr', { hasText: 'rotated key' }).getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('dialog', { name: 'Rotate this key?' }).getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('The replacement').waitFor();
    const replacement = (await page.getByLabel('Key', { exact: true }).textContent()) ?? '';
    expect(replacement).not.toBe(old);
    expect(await useKey(old)).toBe(401);
    expect(await useKey(replacement)).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const rows = page.locator('tr', { hasText: 'rotated key' });
    await expect(rows.count()).resolves.toBe(1);
    await rows.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('tr', { hasText: 'rotated key' }).waitFor({ state: 'detached' });
    expect(await useKey(replacement)).toBe(401);
  });

  it('C7.5: an admin creates a site key with the keyboard, sees and copies its snippet, and revokes it (its events are refused)', async () => {
    const page = await pageAs(admin, '/settings');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const section = page.getByRole('region', { name: 'Site keys' });
    await section.getByText('No active site keys.').waitFor();
    await screenshot(page, `${kind}-settings-site-keys-empty-1280`);
    const form = page.getByRole('form', { name: 'Create a site key' });
    await form.getByLabel('Site name').focus();
    await page.keyboard.type('Browser shop');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Allowed origins').evaluate((node) => (node as unknown as { matches(selector: string): boolean }).matches(':focus'))).resolves.toBe(true);
    await page.keyboard.type('https://shop.example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await section.getByRole('status').filter({ hasText: 'Site key Browser shop created' }).waitFor();
    const item = section.locator('li.site-key', { hasText: 'Browser shop' });
    const snippet = (await item.getByRole('figure', { name: 'Install snippet' }).locator('code').textContent()) ?? '';
    const match = /^<script>window\.leadlight=[^\n]+<\/script>\n<script defer src="(.+)\/t\.js" data-key="(ll_site_[0-9A-Za-z]{24,})"><\/script>$/.exec(snippet);
    expect(match?.[1], snippet).toBe(base);
    const siteKey = match![2]!;
    await expect(item.getByText(siteKey, { exact: true }).count()).resolves.toBe(1);
    await item.getByText('https://shop.example.com').waitFor();
    await item.getByRole('button', { name: 'Copy snippet' }).click();
    await item.getByText('Copied.').waitFor();
    await expect(page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).resolves.toBe(snippet);
    expect((await postEvents(base, siteKey, [pageView(randomUUID(), '/from-settings')], { origin: 'https://shop.example.com' })).status).toBe(202);
    expect((await postEvents(base, siteKey, [pageView(randomUUID(), '/from-settings')], { origin: 'https://other.example.com' })).status).toBe(403);
    await screenshot(page, `${kind}-settings-site-keys-1280`);
    const narrow = await pageAs(admin, '/settings', 390);
    await narrow.locator('li.site-key', { hasText: 'Browser shop' }).waitFor();
    await screenshot(narrow, `${kind}-settings-390`);

    await item.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this site key?' });
    await dialog.getByText('Browser shop').waitFor();
    await dialog.getByRole('button', { name: 'Revoke site key' }).click();
    await item.waitFor({ state: 'detached' });
    expect((await postEvents(base, siteKey, [pageView(randomUUID(), '/after-revoke')], { origin: 'https://shop.example.com' })).status).toBe(401);
    await section.getByText('1 revoked site key').click();
    await section.getByRole('table', { name: 'Revoked site keys' }).getByText(siteKey).waitFor();
  });

  it('leads are filtered by source and walked page by page with exact totals', async () => {
    const page = await pageAs(admin);
    await nav(page, 'Leads').click();
    await page.getByText(`1–50 of ${WEBSITE_LEADS + 37}`).waitFor();
    await page.getByLabel('Source').fill('website');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const pager = page.getByRole('navigation', { name: 'Pages of leads' });
    await pager.getByText(`1–50 of ${WEBSITE_LEADS}`).waitFor();
    await screenshot(page, `${kind}-leads-1280`);
    const seen = new Set<string>();
    for (const [from, to] of [
      [1, 50],
      [51, 100],
      [101, 120],
    ]) {
      await pager.getByText(`${from}–${to} of ${WEBSITE_LEADS}`).waitFor();
      // each row's first cell links to its lead (C9.3: the person, else Anonymous)
      const leadLinks = await page.locator('tbody tr td:first-child a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(leadLinks).toHaveLength(to! - from! + 1);
      for (const link of leadLinks) seen.add(link);
      const sources = await page.locator('tbody tr td:nth-child(5)').allTextContents();
      expect(new Set(sources)).toEqual(new Set(['website']));
      if (to! < WEBSITE_LEADS) await pager.getByRole('button', { name: 'Next' }).click();
    }
    expect(seen.size).toBe(WEBSITE_LEADS);
    await expect(pager.getByRole('button', { name: 'Next' }).isDisabled()).resolves.toBe(true);
    expect(page.url()).toContain('source=website');
  });

  it("a member's JSON editor checks the JSON before sending, then saves the lead's properties", async () => {
    const page = await pageAs(admin, '/leads?code=E2E-007');
    await page.getByRole('navigation', { name: 'Pages of leads' }).getByText('1–1 of 1').waitFor();
    await page.locator('tbody tr td:first-child a').click();
    await page.getByRole('heading', { name: 'Lead E2E-007' }).waitFor();
    // C9.3: the raw JSON is the members' advanced editor
    await page.getByText('Advanced: edit the raw JSON').click();
    await page.getByRole('button', { name: 'Edit properties' }).click();
    const editor = page.getByRole('textbox', { name: 'Properties (JSON)' });
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"status": "qualified",');
    await page.getByText('Not valid JSON').waitFor();
    await expect(page.getByRole('button', { name: 'Save properties' }).isDisabled()).resolves.toBe(true);
    await page.keyboard.insertText(' "owner": "sam"}');
    await page.getByRole('button', { name: 'Save properties' }).click();
    await page.getByRole('button', { name: 'Edit properties' }).waitFor();
    await screenshot(page, `${kind}-lead-1280`);
    const { items } = await t.services.forWorkspace(workspace.id).leads.list({ code: 'E2E-007' }, { limit: 1, offset: 0 });
    expect(JSON.parse(JSON.stringify(items[0]?.properties))).toEqual({ status: 'qualified', owner: 'sam' });
  });

  it("an identity opens with its profile and personalities, and its timeline is paged newest first", async () => {
    const page = await pageAs(admin);
    await nav(page, 'Identities').click();
    await page.getByLabel('Email').fill(identityEmail);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('navigation', { name: 'Pages of identities' }).getByText('1–1 of 1').waitFor();
    await screenshot(page, `${kind}-identities-1280`);
    await page.getByRole('link', { name: 'Timeline Person' }).click();
    await page.getByRole('heading', { name: 'Timeline Person' }).waitFor();
    await page.getByText('Analytical', { exact: true }).first().waitFor();
    const timeline = page.getByRole('list', { name: 'Activity, newest first' });
    const pager = page.getByRole('navigation', { name: 'Pages of activity' });
    await pager.getByText(`1–20 of ${ACTIVITY}`).waitFor();
    const firstPage = await timeline.locator('li').allTextContents();
    expect(firstPage[0]).toContain(`Viewed /page-${ACTIVITY - 1}`);
    const times = await timeline.locator('time').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''));
    expect([...times].sort().reverse()).toEqual(times);
    await screenshot(page, `${kind}-identity-1280`);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(`21–40 of ${ACTIVITY}`).waitFor();
    await expect(timeline.locator('li').first().textContent()).resolves.toContain(`Viewed /page-${ACTIVITY - 21}`);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(`41–45 of ${ACTIVITY}`).waitFor();
    await expect(timeline.locator('li').count()).resolves.toBe(5);
    const narrow = await pageAs(admin, page.url().slice(base.length), 390);
    await narrow.getByRole('heading', { name: 'Timeline Person' }).waitFor();
    await screenshot(narrow, `${kind}-identity-390`);
  });

  it('companies and lists show their details', async () => {
    const page = await pageAs(admin);
    await nav(page, 'Companies').click();
    await page.getByRole('link', { name: 'Browser Co' }).click();
    await page.getByRole('heading', { name: 'Browser Co' }).waitFor();
    await screenshot(page, `${kind}-company-1280`);
    await nav(page, 'Lists').click();
    await page.getByText('People seen in the browser test').waitFor();
    await screenshot(page, `${kind}-lists-1280`);
    // a list's page: its details, that it is static, and its members (C6.4)
    await page.getByRole('link', { name: 'Browser list' }).click();
    await page.getByRole('heading', { name: 'Browser list' }).waitFor();
    await page.getByText('Static list').waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('link', { name: 'Timeline Person' }).waitFor();
    await members.getByText('1–1 of 1').waitFor();
    await screenshot(page, `${kind}-list-1280`);
    await members.getByRole('link', { name: 'Timeline Person' }).click();
    await page.getByRole('heading', { name: 'Timeline Person' }).waitFor();
  });

  it('C6.2, C7.5: an admin sets the ideal customer in the settings; it is what the service reads', async () => {
    const page = await pageAs(admin, '/settings');
    const section = page.getByRole('region', { name: 'Ideal customer' });
    await section.getByLabel('Industries').fill('Software, Retail');
    await section.getByLabel('Employee ranges').fill('51-200');
    await section.getByLabel('Countries').fill('de, us');
    await section.getByRole('button', { name: 'Save ideal customer' }).click();
    await section.getByRole('status').filter({ hasText: 'Ideal customer saved' }).waitFor();
    expect((await t.services.forWorkspace(workspace.id).intelligenceSettings.get()).ideal_customer).toEqual({
      industries: ['Software', 'Retail'],
      employee_ranges: ['51-200'],
      countries: ['DE', 'US'],
    });
    await page.reload();
    await expect(page.getByRole('region', { name: 'Ideal customer' }).getByLabel('Countries').inputValue()).resolves.toBe('DE, US');
    await screenshot(page, `${kind}-settings-ideal-customer-1280`);
  });

  it('C7.4: a viewer sees no key or member controls, and a forged request of theirs is 403', async () => {
    viewerVisibleSiteKey = (await t.services.siteKeys.create(workspace.id, 'Viewer-visible site')).id;
    const page = await pageAs(viewer, '/settings');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    await page.getByRole('region', { name: 'Site keys' }).locator('li.site-key', { hasText: 'Viewer-visible site' }).waitFor();
    await page.getByRole('region', { name: 'Ideal customer' }).getByText('Software').waitFor();
    for (const name of ['Create key', 'Rotate', 'Revoke', 'Invite', 'Remove', 'Create site key', 'Save ideal customer']) {
      await expect(page.getByRole('button', { name }).count(), name).resolves.toBe(0);
    }
    await screenshot(page, `${kind}-settings-viewer-1280`);
    await page.goto(`${base}/leads?code=E2E-001`);
    await page.getByRole('navigation', { name: 'Pages of leads' }).getByText('1–1 of 1').waitFor();
    await page.locator('tbody tr td:first-child a').click();
    await page.getByRole('heading', { name: 'Lead E2E-001' }).waitFor();
    await expect(page.getByText('Advanced: edit the raw JSON').count()).resolves.toBe(0);
    await expect(page.getByLabel('Status').isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Edit properties' }).count()).resolves.toBe(0);

    // the viewer's own session, with its CSRF token, asking for a key directly
    const cookies = await page.context().cookies();
    const cookie = cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    const session = (await (await fetch(`${base}/dashboard/api/session`, { headers: { cookie } })).json()) as { data: { csrf_token: string } };
    const forged = await fetch(`${base}/dashboard/api/keys`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': session.data.csrf_token, 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ type: 'production', name: 'forged' }),
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: 'forbidden' });
    for (const [path, body] of [
      ['/dashboard/api/site-keys', { name: 'forged site' }],
      [`/dashboard/api/site-keys/${viewerVisibleSiteKey}/revoke`, undefined],
      ['/dashboard/api/ideal-customer', { industries: ['Forged'], employee_ranges: [], countries: [] }],
    ] as const) {
      const forgedSiteKey = await fetch(`${base}${path}`, {
        method: path.endsWith('ideal-customer') ? 'PUT' : 'POST',
        headers: { cookie, 'x-csrf-token': session.data.csrf_token, 'content-type': 'application/json', origin: base },
        body: JSON.stringify(body ?? {}),
      });
      expect(forgedSiteKey.status, path).toBe(403);
    }
    expect((await t.services.siteKeys.list(workspace.id)).map((key) => key.id)).toContain(viewerVisibleSiteKey);
  });

  it('C7.3: signing out ends the session: the old cookie is refused', async () => {
    const page = await signInAs(admin);
    const cookie = (await page.context().cookies()).find((entry) => entry.name === 'leadlight_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const refused = await fetch(`${base}/dashboard/api/leads`, { headers: { cookie: `leadlight_session=${cookie?.value}` } });
    expect(refused.status).toBe(401);
    await page.goto(`${base}/leads`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
