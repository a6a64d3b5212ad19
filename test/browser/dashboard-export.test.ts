/**
 * Export CSV in the dashboard in a real browser (CONTRACT C9.7, C11.5): a
 * viewer filters the leads, clicks Export CSV and the browser downloads
 * every lead matching the filters on screen (not only the page), as the
 * API's export writes them; the same on Identities and Companies. No page
 * logs an error; a screenshot goes under test-results/dashboard/.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, consoleErrors, ensureDashboardBuilt, launchBrowser, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows, seedCompanies } from '../helpers/fixtures.js';

describe('Export CSV in the dashboard, in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let workspace: TestWorkspace;
  let viewer: Person;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    browser = await launchBrowser();
    t = await createTestApp('sqlite');
    base = await t.listen();
    workspace = await t.createWorkspace('Browser export');
    viewer = await member(t, workspace.id, 'viewer');
    // 120 ads leads: more than a page of the list
    await importRows(t, workspace.id, 'leads', Array.from({ length: 150 }, (_, i) => ({ code: `=X-${i}`, source: i < 120 ? 'ads' : 'web' })));
    await importRows(t, workspace.id, 'identities', [{ email: 'ada@export.example', name: 'Ada' }]);
    await seedCompanies(t, workspace.id, [{ name: 'Acme, Inc.' }]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function download(page: Page): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    return fs.readFileSync((await file.path())!, 'utf8');
  }

  it('C9.7: a viewer downloads every filtered lead, and identities and companies, as CSV', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors = consoleErrors(page);
    await addSession(context, base, viewer);
    await page.goto(`${base}/leads?source=ads`);
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    await screenshot(page, 'leads-export');
    const leads = (await download(page)).split('\r\n').filter((line) => line !== '');
    expect(leads[0]).toBe('id,visitor_id,workspace_id,code,source,created_at,updated_at,properties,location,identity_id,session_id,summary,company_id');
    expect(leads).toHaveLength(121);
    expect(leads.slice(1).every((line) => line.includes(",'=X-") && line.includes(',ads,'))).toBe(true);
    await page.goto(`${base}/identities`);
    await page.getByRole('heading', { name: 'Identities' }).waitFor();
    expect((await download(page)).split('\r\n')[1]).toContain('ada@export.example');
    await page.goto(`${base}/companies`);
    await page.getByRole('heading', { name: 'Companies' }).waitFor();
    expect((await download(page)).split('\r\n')[1]).toContain('"Acme, Inc."');
    expect(errors).toEqual([]);
    await context.close();
  });
});
