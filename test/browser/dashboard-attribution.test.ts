/**
 * The shipped data's attribution in the dashboard (CC BY 4.0, NOTICE): every
 * page that shows a location or what a network said (leads, a lead,
 * identities, an identity, companies) ends with "IP Geolocation by DB-IP"
 * linked to db-ip.com and names the network data's sources; the others
 * (overview, lists, settings) do not. At 390 px the line stays inside the
 * viewport. The page is the same whatever the store: SQLite only.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, consoleErrors, ensureDashboardBuilt, launchBrowser, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';

describe('the data attribution in the dashboard', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let workspace: TestWorkspace;
  let admin: Person;
  let leadId: string;
  let identityId: string;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    browser = await launchBrowser();
    t = await createTestApp('sqlite');
    base = await t.listen();
    workspace = await t.createWorkspace('Attribution');
    admin = await member(t, workspace.id, 'admin');
    [identityId] = (await importRows(t, workspace.id, 'identities', [{ email: 'located@example.com', name: 'Located Person', city: 'Lyon', country: 'FR' }])) as [string];
    [leadId] = (await importRows(t, workspace.id, 'leads', [{ code: 'LOC-1', source: 'website', location: { city: 'Lyon', country: 'FR' } }])) as [string];
    await importRows(t, workspace.id, 'companies', [{ name: 'Located Co', domain: 'located.example' }]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A blank page signed in as the admin: each test opens its pages. */
  async function signedIn(width: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = consoleErrors(page);
    await addSession(context, base, admin);
    return { page, errors };
  }

  const attribution = (page: Page) => page.getByRole('contentinfo').getByRole('link', { name: 'IP Geolocation by DB-IP' });

  it('pages with locations or networks link to DB-IP and name the network sources; the others do not', async () => {
    const { page, errors } = await signedIn(1280);
    const located: [string, string | RegExp][] = [
      ['/leads', 'Leads'],
      [`/leads/${leadId}`, 'LOC-1'],
      ['/identities', 'Identities'],
      [`/identities/${identityId}`, 'Located Person'],
      ['/companies', 'Companies'],
    ];
    for (const [path, heading] of located) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      const link = attribution(page);
      await link.waitFor();
      expect(await link.getAttribute('href'), path).toBe('https://db-ip.com');
      const footer = (await page.getByRole('contentinfo').textContent()) ?? '';
      expect(footer, path).toMatch(/RouteViews, NRO and DB-IP/);
      expect(await page.getByRole('contentinfo').getByRole('link', { name: 'CC BY 4.0' }).getAttribute('href'), path).toBe(
        'https://creativecommons.org/licenses/by/4.0/',
      );
    }
    await screenshot(page, 'attribution-companies-1280');
    for (const [path, heading] of [
      ['/', 'Overview'],
      ['/lists', 'Lists'],
      ['/settings', 'Settings'],
    ] as const) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      expect(await attribution(page).count(), path).toBe(0);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('at 390 px the line is inside the viewport', async () => {
    const { page, errors } = await signedIn(390);
    await page.goto(`${base}/identities/${identityId}`);
    await page.getByRole('heading', { name: 'Located Person' }).waitFor();
    const link = attribution(page);
    await link.scrollIntoViewIfNeeded();
    const box = await link.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'attribution-identity-390');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);
});
