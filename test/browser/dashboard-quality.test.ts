/**
 * Every page of the dashboard at 390 and 1280 px, on both stores (CONTRACT
 * C9.9): signed in as the admin of a workspace filled by `seed --demo` (so
 * every page has data: leads, people, companies, lists, keys), each page is
 * checked for axe-core violations of any impact and for visible controls
 * outside the viewport, and no page logs an error. A page a later change adds
 * to the router is walked too: the list below must name every route.
 * Screenshots under test-results/dashboard/quality-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { consoleErrors, ensureDashboardBuilt, launchBrowser, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { axeViolations, offscreen } from '../helpers/page-checks.js';
import { ROOT } from '../helpers/processes.js';
import { storeKinds } from '../helpers/stores.js';

/** Each route of dashboard/src/router.tsx behind sign-in, with how to reach one of its pages and a heading it shows. */
const PAGES: { route: string; heading: string }[] = [
  { route: '/', heading: 'Overview' },
  { route: '/live', heading: 'Live' },
  { route: '/leads', heading: 'Leads' },
  { route: '/leads/$leadId', heading: '' },
  { route: '/identities', heading: 'Identities' },
  { route: '/identities/$identityId', heading: '' },
  { route: '/companies', heading: 'Companies' },
  { route: '/companies/$companyId', heading: '' },
  { route: '/lists', heading: 'Lists' },
  { route: '/lists/$listId', heading: '' },
  { route: '/settings', heading: 'Settings' },
];

/** The paths of the router's routes, read from its source (sign-in and set-password are outside the app). */
function routerPaths(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'dashboard', 'src', 'router.tsx'), 'utf8');
  return [...source.matchAll(/path: '([^']+)'/g)].map((match) => match[1]!).filter((route) => route !== '/sign-in' && route !== '/set-password');
}

describe.each(storeKinds())('every dashboard page at 390 and 1280 px, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let workspace: TestWorkspace;
  let admin: Person;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await ensureDashboardBuilt();
    browser = await launchBrowser();
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Quality');
    await t.services.seed.seedDemo(workspace.id);
    admin = await member(t, workspace.id, 'admin');
    const services = t.services.forWorkspace(workspace.id);
    const page = { limit: 1, offset: 0 };
    ids.leadId = (await services.leads.list({}, page)).items[0]!.id;
    ids.identityId = (await services.identities.list({}, page)).items[0]!.id;
    ids.companyId = (await services.companies.list({}, page)).items[0]!.id;
    ids.listId = (await services.lists.list(page)).items[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('C9.9: the walk names every route of the router', () => {
    expect(PAGES.map((entry) => entry.route).sort()).toEqual(routerPaths().sort());
  });

  for (const width of [390, 1280]) {
    it(`C9.9: at ${width} px every page has no axe-core violation and no control outside the viewport`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors = consoleErrors(page);
      try {
        await page.goto(`${base}/`);
        await page.getByLabel('Email').fill(admin.email);
        await page.getByLabel('Password').fill(admin.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        const found: Record<string, unknown> = {};
        for (const { route, heading } of PAGES) {
          const url = route.replace(/\$(\w+)/g, (_, name: string) => ids[name]!);
          await page.goto(`${base}${url}`);
          await page.locator('main h1').first().waitFor();
          if (heading !== '') await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          // what loads after the heading (tables, charts, sections) settles first
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(300);
          const problems = { axe: await axeViolations(page), ...(await offscreen(page)) };
          if (problems.axe.length > 0 || problems.controls.length > 0 || problems.pageScrollsSideways) found[route] = problems;
          await screenshot(page, `quality-${kind}-${width}-${route.replaceAll('/', '_').replaceAll('$', '') || 'overview'}`);
        }
        expect(found).toEqual({});
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
