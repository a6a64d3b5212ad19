/**
 * A new workspace's first run in a real browser, on both stores (CONTRACT
 * C9.8, C9.9): the overview opens with `Waiting for your first event`; an
 * admin creates a site key there and gets the install snippet with the
 * queue stub, and examples of identify and conversion; the first event sent
 * with that key turns the page to its success message within 5 seconds,
 * without a reload. A viewer of a workspace without a key is told to ask an
 * admin. No axe-core violation, nothing outside the viewport at 390 px, no
 * error logged; screenshots under test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { axeViolations, offscreen } from '../helpers/page-checks.js';
import { storeKinds } from '../helpers/stores.js';
import { pageView, postEvents } from '../helpers/tracking.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('the first run in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
  });
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
    expect(errors, 'errors logged by the page').toEqual([]);
    errors = [];
  });

  async function overviewAs(person: Person, width = 1280): Promise<Page> {
    const context = await browser().newContext({ viewport: { width, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    open.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = consoleErrors(page);
    await addSession(context, base, person);
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }

  it('C9.8: an admin creates a site key on the first-run page, gets the snippet with the queue stub, and the first event turns it to success within 5 s', async () => {
    const workspace = await t.createWorkspace(`First run ${kind}`);
    const admin = await member(t, workspace.id, 'admin');
    const page = await overviewAs(admin);
    const waiting = page.getByRole('region', { name: 'Waiting for your first event' });
    await waiting.waitFor();
    await waiting.getByRole('button', { name: 'Create a site key' }).click();
    const snippet = (await waiting.getByRole('figure', { name: 'Install snippet' }).locator('code').textContent()) ?? '';
    const [stub, tag] = snippet.split('\n');
    expect(stub).toMatch(/^<script>window\.leadlight=window\.leadlight\|\|\{q:\[\]\};.*<\/script>$/);
    const key = /^<script defer src="(.+)\/t\.js" data-key="(ll_site_[0-9A-Za-z]{24,})"><\/script>$/.exec(tag ?? '');
    expect(key?.[1], snippet).toBe(base);
    // the key the page created is the workspace's (the CLI's list, the same service)
    expect((await t.services.siteKeys.list(workspace.id)).map((entry) => entry.key)).toEqual([key?.[2]]);
    const examples = (await waiting.getByRole('figure', { name: 'Identify a visitor and record a conversion' }).locator('code').textContent()) ?? '';
    expect(examples).toContain('leadlight.identify({');
    expect(examples).toContain("leadlight.conversion('Signed up'");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `first-run-waiting-${kind}`);

    // another workspace's event changes nothing here
    const other = await t.createWorkspace(`First run other ${kind}`);
    const otherKey = await t.services.siteKeys.create(other.id);
    expect((await postEvents(base, otherKey.key, [pageView(randomUUID(), '/elsewhere')])).status).toBe(202);
    await page.waitForTimeout(2_500);
    expect(await waiting.isVisible()).toBe(true);

    const sent = Date.now();
    expect((await postEvents(base, key![2]!, [pageView(randomUUID(), '/first')])).status).toBe(202);
    await page.getByRole('status').filter({ hasText: 'Your first event arrived' }).waitFor({ timeout: 5_000 });
    expect(Date.now() - sent).toBeLessThanOrEqual(5_000);
    expect(await waiting.count()).toBe(0);
    // the overview it reloads shows the page view
    await page.getByRole('cell', { name: '/first' }).waitFor();
    await screenshot(page, `first-run-arrived-${kind}`);

    // the next visit shows the overview alone
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('cell', { name: '/first' }).waitFor();
    expect(await page.getByText('Waiting for your first event').count()).toBe(0);
    expect(await page.getByText('Your first event arrived').count()).toBe(0);
  }, 60_000);

  it('C9.8, C9.9: at 390 px nothing falls off; a viewer without a site key is told to ask an admin and has no button', async () => {
    const workspace = await t.createWorkspace(`First run viewer ${kind}`);
    const viewer = await member(t, workspace.id, 'viewer');
    const page = await overviewAs(viewer, 390);
    const waiting = page.getByRole('region', { name: 'Waiting for your first event' });
    await waiting.waitFor();
    await waiting.getByText('Ask an admin to create one in Settings').waitFor();
    expect(await waiting.getByRole('button', { name: 'Create a site key' }).count()).toBe(0);
    expect(await offscreen(page)).toEqual({ controls: [], pageScrollsSideways: false });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `first-run-viewer-390-${kind}`);
  }, 60_000);
});
