/**
 * C9.2 in a real browser, on both stores: the `Live` page of the navigation
 * lists a visit sent to the events endpoint, and then its next page view,
 * without a reload (the page's event stream), within 5 seconds each; the
 * overview shows the visitors active in the last 5 minutes and counts a new
 * one without a reload. Screenshots under test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, identify, pageView, postEvents } from '../helpers/tracking.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('C9.2: the Live page in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let viewer: Person;
  let siteKey: string;

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    const workspace = await t.createWorkspace('Live browser');
    viewer = await member(t, workspace.id, 'viewer');
    siteKey = (await createSiteKey(t, workspace)).key;
  });

  async function signedIn(width: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = consoleErrors(page);
    await addSession(context, base, viewer);
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return { page, errors };
  }

  it('a visit and its next page view appear on the Live page without a reload, within 5 seconds', async () => {
    const { page, errors } = await signedIn(1280);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live' }).click();
    await page.getByRole('heading', { name: 'Live' }).waitFor();
    await page.getByText('No visits in the last 30 minutes.').waitFor();
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));

    const visitor = randomUUID();
    expect((await postEvents(base, siteKey, [pageView(visitor, '/pricing?utm_source=news')])).status).toBe(202);
    const row = page.getByRole('row', { name: /Anonymous visitor/ });
    await row.waitFor({ timeout: 5000 });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Anonymous visitor', '—', '—', '/pricing?utm_source=news', '1', 'campaign', 'just now']);

    expect((await postEvents(base, siteKey, [pageView(visitor, '/signup'), identify(visitor, { email: 'ada@example.com', name: 'Ada Lovelace' })])).status).toBe(202);
    const known = page.getByRole('row', { name: /Ada Lovelace/ });
    await known.waitFor({ timeout: 5000 });
    expect(await known.getByRole('cell').nth(3).textContent()).toBe('/signup');
    expect(await known.getByRole('cell').nth(4).textContent()).toBe('2');
    expect(await page.getByRole('row', { name: /Anonymous visitor/ }).count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await screenshot(page, `live-${kind}`);
    expect(errors).toEqual([]);
  });

  it('the overview counts the visitors active in the last 5 minutes, and a new one without a reload', async () => {
    const { page, errors } = await signedIn(390);
    const tile = page.getByRole('region', { name: 'Active visitors' });
    await tile.getByText('1', { exact: true }).waitFor();
    expect((await postEvents(base, siteKey, [pageView(randomUUID(), '/another')])).status).toBe(202);
    await tile.getByText('2', { exact: true }).waitFor({ timeout: 5000 });
    await screenshot(page, `live-overview-390-${kind}`);
    expect(errors).toEqual([]);
  });
});
