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
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreKind } from '../../src/db/codec.js';
import { closedOnFailure, fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
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

/** A server on `kind` with a workspace filled by `seed --demo`, its admin, and one page of each kind to open. */
async function prepare(kind: StoreKind) {
  return closedOnFailure(await createTestApp(kind), (t) => t.close(), fill);
}

async function fill(t: TestApp) {
  const base = await t.listen();
  const workspace = await t.createWorkspace('Quality');
  await t.services.seed.seedDemo(workspace.id);
  const admin = await member(t, workspace.id, 'admin');
  const services = t.services.forWorkspace(workspace.id);
  const page = { limit: 1, offset: 0 };
  const ids: Record<string, string> = {
    leadId: (await services.leads.list({}, page)).items[0]!.id,
    identityId: (await services.identities.list({}, page)).items[0]!.id,
    companyId: (await services.companies.list({}, page)).items[0]!.id,
    listId: (await services.lists.list(page)).items[0]!.id,
  };
  return { t, base, admin, ids };
}

/** Both stores' fixtures, started at the file's start: PostgreSQL's seed is made while the SQLite pages are walked. */
const fixture = fixturesAhead(storeKinds(), prepare, (made) => made.t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('every dashboard page at 390 and 1280 px, on %s', (kind) => {
  let base: string;
  let admin: Person;
  let ids: Record<string, string>;

  beforeAll(async () => {
    ({ base, admin, ids } = await fixture(kind));
  }, 120_000);

  it('C9.9: the walk names every route of the router', () => {
    expect(PAGES.map((entry) => entry.route).sort()).toEqual(routerPaths().sort());
  });

  for (const width of [390, 1280]) {
    it(`C9.9: at ${width} px every page has no axe-core violation and no control outside the viewport`, async () => {
      const context = await browser().newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors = consoleErrors(page);
      try {
        await addSession(context, base, admin);
        const found: Record<string, unknown> = {};
        for (const { route, heading } of PAGES) {
          const url = route.replace(/\$(\w+)/g, (_, name: string) => ids[name]!);
          await page.goto(`${base}${url}`);
          await page.locator('main h1').first().waitFor();
          if (heading !== '') await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          // what loads after the heading (tables, charts, sections) settles first: no request for 500 ms, then two frames drawn
          await page.waitForLoadState('networkidle');
          await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
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
