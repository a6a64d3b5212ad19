/**
 * C9.5 in a real browser, on both stores: the overview's figures from
 * visits sent to the events endpoint, a preset (`Today`) and a custom
 * `From`–`To` range in the URL, each figure's change against the previous
 * period, a breakdown (referrers, campaigns, pages as links), the `Site`
 * filter; at 390 px no control is off-screen, axe finds nothing, and the
 * page shifts no layout as its data and charts load. Screenshots under
 * test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { axeViolations, offscreen } from '../helpers/page-checks.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, pageView, postEvents } from '../helpers/tracking.js';

const DAY_MS = 86_400_000;

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind, { trustProxy: true }), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('C9.5: the overview in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let viewer: Person;
  const now = Date.now();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const threeDaysAgo = day(now - 3 * DAY_MS);

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    const workspace = await t.createWorkspace('Overview browser');
    viewer = await member(t, workspace.id, 'viewer');
    const { key } = await createSiteKey(t, workspace);
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    const at = (ms: number) => new Date(ms).toISOString();
    // today: two pages from Hacker News with a campaign, and a bounce on the blog; three days ago: a bounce
    const batches = [
      [
        pageView(first, '/pricing?utm_campaign=launch', { ts: at(now - 60_000), referrer: 'https://news.ycombinator.com/item?id=1' }),
        pageView(first, '/signup', { ts: at(now - 30_000) }),
      ],
      [pageView(second, '/hello', { ts: at(now - 20_000), url: 'https://blog.example.com/hello' })],
      [pageView(third, '/', { ts: `${threeDaysAgo}T12:00:00.000Z` })],
    ];
    for (const events of batches) expect((await postEvents(base, key, events, { 'x-forwarded-for': '8.8.8.8' })).status).toBe(202);
  });

  async function signedIn(width: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = consoleErrors(page);
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (globalThis as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true } as never);
    });
    await addSession(context, base, viewer);
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.mouse.move(0, 0);
    return { page, errors };
  }

  const figure = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  const valueOf = (page: Page, name: string) => figure(page, name).locator('.tile-value');

  it('a preset and a custom range in the URL, the change against the previous period, breakdowns, the site filter', async () => {
    const { page, errors } = await signedIn(1280);
    // the last 30 days by default: everything, nothing before
    await expect.poll(() => valueOf(page, 'Visitors').textContent()).toBe('3');
    await expect(figure(page, 'Visitors').locator('.change').textContent()).resolves.toBe('new vs previous period');
    await expect(valueOf(page, 'Page views').textContent()).resolves.toBe('4');
    await expect(valueOf(page, 'Bounce rate').textContent()).resolves.toBe('67 %');
    await page.locator('.svg-chart svg').first().waitFor();
    await screenshot(page, `overview-30d-${kind}`);

    await page.getByRole('radio', { name: 'Today' }).check();
    await page.waitForURL(/range=today/);
    await expect.poll(() => valueOf(page, 'Visitors').textContent()).toBe('2');
    await expect(valueOf(page, 'Sessions').textContent()).resolves.toBe('2');
    await expect(valueOf(page, 'Bounce rate').textContent()).resolves.toBe('50 %');
    const referrers = page.getByRole('region', { name: 'Referrers' });
    await expect(referrers.getByRole('row').allTextContents()).resolves.toEqual(['ReferrerVisitsBounce', 'Direct / none1100 %', 'news.ycombinator.com10 %']);
    await page.getByRole('region', { name: 'UTM campaigns' }).getByText('launch', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Devices' }).getByText('Desktop', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Countries' }).getByText('United States', { exact: true }).waitFor();

    // a custom range: the day of the third visit alone, compared with the day before
    await page.getByLabel('From', { exact: true }).fill(threeDaysAgo);
    await page.getByLabel('To', { exact: true }).fill(threeDaysAgo);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`range=custom.*from=${threeDaysAgo}.*to=${threeDaysAgo}|from=${threeDaysAgo}.*to=${threeDaysAgo}`));
    await expect.poll(() => valueOf(page, 'Visitors').textContent()).toBe('1');
    await expect(figure(page, 'Bounce rate').locator('.change').textContent()).resolves.toBe('no previous figure');
    const pages = page.getByRole('region', { name: 'Pages' });
    await expect(pages.getByRole('link', { name: '/' }).getAttribute('href')).resolves.toBe('https://shop.example.com/');
    // a To before From is refused before it is asked
    await page.getByLabel('To', { exact: true }).fill(day(now - 4 * DAY_MS));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').getByText('To must be on or after From.').waitFor();

    // the site filter, kept with a preset
    await page.getByRole('radio', { name: 'Last 7 days' }).check();
    await page.waitForURL(/range=7d/);
    await page.getByLabel('Site', { exact: true }).selectOption('blog.example.com');
    await page.waitForURL(/site=blog\.example\.com/);
    await expect.poll(() => valueOf(page, 'Page views').textContent()).toBe('1');
    await expect(pages.getByRole('link').allTextContents()).resolves.toEqual(['/hello']);
    await expect(page.getByRole('radio', { name: 'Last 7 days' }).isChecked()).resolves.toBe(true);
    await screenshot(page, `overview-site-${kind}`);
    expect(errors).toEqual([]);
  });

  it('at 390 px: every control on screen, axe clean, no layout shift as the figures and charts load', async () => {
    const { page, errors } = await signedIn(390);
    await expect.poll(() => valueOf(page, 'Visitors').textContent()).toBe('3');
    await page.locator('.svg-chart svg').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    expect(await offscreen(page)).toMatchObject({ controls: [], pageScrollsSideways: false });
    expect(await axeViolations(page)).toEqual([]);
    const shifts = await page.evaluate(() => (globalThis as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0));
    expect(shifts).toBeLessThan(0.1);
    await screenshot(page, `overview-390-${kind}`);
    expect(errors).toEqual([]);
  });
});
