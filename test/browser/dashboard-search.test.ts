/**
 * C9.1 in a real browser, on both stores: the header of every page has a
 * combobox named `Search`; one character shows nothing, two show the
 * matching people, companies and leads of the workspace (never another
 * workspace's); the keyboard (arrows, Enter, Escape) and the mouse open a
 * result's page. Screenshots under test-results/dashboard/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('C9.1: the search box in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let viewer: Person;

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    const workspace = await t.createWorkspace('Search browser');
    viewer = await member(t, workspace.id, 'viewer');
    await importRows(t, workspace.id, 'identities', [{ email: 'jane.doe@acme.io', name: 'Jane Doe' }]);
    await importRows(t, workspace.id, 'companies', [{ name: 'Acme Rockets', domain: 'acme.io' }]);
    await importRows(t, workspace.id, 'leads', [{ code: 'ACME-77', source: 'website' }]);
    const other = await t.createWorkspace('Elsewhere');
    await importRows(t, other.id, 'identities', [{ email: 'jane.other@acme.io', name: 'Jane Other' }]);
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

  const optionTexts = async (page: Page) => (await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').allTextContents()).sort();

  it('two characters list the matches; the keyboard opens a person, the mouse a company, Enter a lead', async () => {
    const { page, errors } = await signedIn(1280);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill('j');
    await page.waitForTimeout(600);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await box.fill('ja');
    await page.getByRole('option', { name: /Jane Doe/ }).waitFor();
    expect(await optionTexts(page)).toEqual(['Person Jane Doe jane.doe@acme.io']);
    await box.press('ArrowDown');
    expect(await page.getByRole('option', { name: /Jane Doe/ }).getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();
    expect(page.url()).toMatch(/\/identities\/[0-9a-f-]{36}$/);

    await page.goto(`${base}/leads`);
    await page.getByRole('heading', { name: 'Leads' }).first().waitFor();
    await box.fill('ACME');
    await page.getByRole('option', { name: /Acme Rockets/ }).waitFor();
    expect(await optionTexts(page)).toEqual(['Company Acme Rockets acme.io', 'Lead ACME-77', 'Person Jane Doe jane.doe@acme.io']);
    await screenshot(page, `search-results-${kind}`);
    await page.getByRole('option', { name: /Acme Rockets/ }).click();
    await page.getByRole('heading', { name: 'Acme Rockets' }).waitFor();
    expect(page.url()).toMatch(/\/companies\/[0-9a-f-]{36}$/);

    await box.fill('me-7');
    await page.getByRole('option', { name: /ACME-77/ }).waitFor();
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.getByRole('heading', { name: 'ACME-77' }).waitFor();
    expect(page.url()).toMatch(/\/leads\/[0-9a-f-]{36}$/);

    await box.fill('zzqq');
    await page.getByText('Nothing matches “zzqq”').waitFor();
    await box.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
  });

  it("never lists another workspace's people, and fits at 390 px", async () => {
    const { page, errors } = await signedIn(390);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill('jane');
    await page.getByRole('option', { name: /Jane Doe/ }).waitFor();
    expect(await optionTexts(page)).toEqual(['Person Jane Doe jane.doe@acme.io']);
    const listbox = await page.getByRole('listbox', { name: 'Search results' }).boundingBox();
    expect(listbox!.x).toBeGreaterThanOrEqual(0);
    expect(listbox!.x + listbox!.width).toBeLessThanOrEqual(390);
    await screenshot(page, `search-390-${kind}`);
    expect(errors).toEqual([]);
  });
});
