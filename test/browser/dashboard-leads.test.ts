/**
 * The Leads table and a lead's page in a real browser (Debian chromium
 * through playwright-core) against a real server, on both stores, at 1280
 * and 390 px (CONTRACT C9.3, C9.9): the table names each lead's person
 * (name, else email, else Anonymous) and company (a link to the company's
 * page) and shows its score; the
 * `Score` header sorts highest first then lowest first (unscored last both
 * ways), the order in the URL; on a lead's page a member sets `Status` and
 * `Owner` and adds a note (`Add note`), and all three are stored (read back
 * through the API) and shown after a reload. No control is outside the
 * viewport, axe-core finds nothing critical or serious, no page logs an
 * error; screenshots go under test-results/dashboard/.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows, seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<{ id: string; html: string }[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as {
    id: string;
    impact: string | null;
    nodes: { html: string }[];
  }[];
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .flatMap((violation) => violation.nodes.map((node) => ({ id: violation.id, html: node.html.slice(0, 200) })));
}

/** Visible controls outside the viewport, unless inside a box that scrolls sideways. */
const OUTSIDE = `
  [...document.querySelectorAll('a, button, input, select, textarea, summary, [tabindex]')]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') return false;
      // the skip link waits off-screen until it has the focus
      if (element.classList.contains('skip-link')) return false;
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth) return false;
      }
      return box.left < 0 || box.right > window.innerWidth;
    })
    .map((element) => element.outerHTML.slice(0, 160))`;

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('the leads workspace in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let seller: Person;
  let owner: Person;
  const leads: Record<string, string> = {};
  let acme: string;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Browser leads');
    seller = await member(t, workspace.id, 'member', `seller.${kind}@example.com`);
    owner = await member(t, workspace.id, 'member', `owner.${kind}@example.com`);
    [acme] = (await seedCompanies(t, workspace.id, [{ name: 'Acme Rockets', domain: 'acme.example' }])) as [string];
    const [ada, bob] = await importRows(t, workspace.id, 'identities', [
      { email: 'ada@acme.example', name: 'Ada Lovelace' },
      { email: 'bob@mail.example' },
    ]);
    const ids = await importRows(t, workspace.id, 'leads', [
      { code: 'trial', identity_id: ada, company_id: acme, summary: { score: 90, score_reasons: ['Visited pricing 3 times'] }, properties: { plan: 'team', seats: 12 }, created_at: '2026-01-02T10:00:00.000Z' },
      { code: 'demo', identity_id: bob, summary: { score: 40 }, source: 'website', created_at: '2026-01-03T10:00:00.000Z' },
      { code: 'anon', created_at: '2026-01-04T10:00:00.000Z' },
      { code: 'upgrade', identity_id: ada, company_id: acme, summary: { score: 70 }, created_at: '2026-01-01T10:00:00.000Z' },
    ]);
    [leads.trial, leads.demo, leads.anon, leads.upgrade] = ids as [string, string, string, string];
  });
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

  /** the person of each row, as its link reads */
  const firstColumn = async (page: Page) => page.locator('tbody tr td:first-child > a').allTextContents();

  async function expectUsable(page: Page, width: number) {
    expect(await page.evaluate(OUTSIDE)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    // and no table scrolls sideways: every column is in view
    expect(await page.evaluate(`[...document.querySelectorAll('.table-wrap')].filter((box) => box.scrollWidth > box.clientWidth).length`)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  }

  const apiLead = async (id: string) => (await t.as(workspace, { method: 'GET', url: `/api/v1/leads/${id}` })).json().data;

  for (const width of [1280, 390]) {
    it(`C9.3: at ${width} px the table names person and company and sorts by score from its header, the order in the URL`, async () => {
      const page = await signedIn(width, '/leads');
      await page.getByRole('columnheader', { name: 'Person' }).waitFor();
      // at 390 px the company goes under the person and the source is left out (C9.9), so that no column falls off the edge
      const columns = width === 1280 ? ['Person', 'Company', 'Score', 'Status', 'Source', 'Created'] : ['Person', 'Score', 'Status', 'Created'];
      const headers = await page.locator('thead th').evaluateAll((cells) =>
        cells.filter((cell) => (cell as unknown as { offsetWidth: number }).offsetWidth > 0).map((cell) => (cell.textContent ?? '').replace(/[↑↓]/g, '').trim()),
      );
      expect(headers).toEqual(columns);
      // newest first by default
      expect(await firstColumn(page)).toEqual(['Anonymous', 'bob@mail.example', 'Ada Lovelace', 'Ada Lovelace']);
      await page.getByRole('button', { name: 'Score' }).click();
      await page.waitForURL(/sort=-score/);
      await expect(page.getByRole('columnheader', { name: 'Score' }).getAttribute('aria-sort')).resolves.toBe('descending');
      await page.locator('tbody tr').first().getByText('90').waitFor();
      expect(await firstColumn(page)).toEqual(['Ada Lovelace', 'Ada Lovelace', 'bob@mail.example', 'Anonymous']);
      // the company, a link to its page, visible in its column at 1280 px and under the person at 390 px
      const company = page.locator('tbody tr').first().getByRole('link', { name: 'Acme Rockets' }).filter({ visible: true });
      await expect(company.count()).resolves.toBe(1);
      await expect(company.getAttribute('href')).resolves.toBe(`/companies/${acme}`);
      await screenshot(page, `leads-by-score-${kind}-${width}`);
      await expectUsable(page, width);
      await page.getByRole('button', { name: 'Score' }).click();
      await page.waitForURL(/sort=score/);
      await page.locator('tbody tr').first().getByText('40').waitFor();
      expect(await firstColumn(page)).toEqual(['bob@mail.example', 'Ada Lovelace', 'Ada Lovelace', 'Anonymous']);
      // the order is in the URL: a reload keeps it
      await page.reload();
      await page.locator('tbody tr').first().getByText('40').waitFor();
      await page.getByRole('button', { name: 'Created' }).click();
      await page.waitForURL(/sort=-created_at|\/leads$|\/leads\?$/);
      await page.getByRole('button', { name: 'Created' }).click();
      await page.waitForURL(/sort=created_at/);
      await page.locator('tbody tr').first().getByText('Ada Lovelace').waitFor();
      expect(await firstColumn(page)).toEqual(['Ada Lovelace', 'Ada Lovelace', 'bob@mail.example', 'Anonymous']);
    }, 60_000);

    it(`C9.3: at ${width} px a member sets Status and Owner and adds a note on a lead's page; all stay after a reload`, async () => {
      const leadId = width === 1280 ? leads.trial! : leads.upgrade!;
      const page = await signedIn(width, `/leads/${leadId}`);
      await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
      await page.getByRole('link', { name: 'Acme Rockets' }).waitFor();
      if (width === 1280) {
        await page.getByRole('region', { name: 'Score' }).getByText('Visited pricing 3 times').waitFor();
        // C9.8: the score and the status are explained beside them, with the scorer's own thresholds
        await page.getByRole('region', { name: 'Score' }).getByText('engaged from 30, qualified from 60').waitFor();
        await page.getByText('new below 30, engaged from 30, qualified from 60').waitFor();
        await page.getByRole('rowheader', { name: 'seats' }).waitFor();
      }
      const status = width === 1280 ? 'customer' : 'disqualified';
      await page.getByLabel('Status').selectOption(status);
      await expect.poll(async () => (await apiLead(leadId)).summary?.status).toBe(status);
      await page.getByLabel('Owner').selectOption({ label: owner.email });
      await expect.poll(async () => (await apiLead(leadId)).summary?.owner).toBe(owner.id);
      const body = `Called Ada at ${width} px: follow up Friday.`;
      await page.getByLabel('Note', { exact: true }).fill(body);
      await page.getByRole('button', { name: 'Add note' }).click();
      const noteList = page.getByRole('list', { name: 'Notes on this lead' });
      await noteList.getByText(body).waitFor();
      const summary = (await apiLead(leadId)).summary;
      expect(summary).toMatchObject({ status, owner: owner.id, score: width === 1280 ? 90 : 70 });
      const notes = (await t.as(workspace, { method: 'GET', url: `/api/v1/leads/${leadId}/notes` })).json().data;
      expect(notes).toEqual([expect.objectContaining({ body, author: { type: 'user', id: seller.id, name: seller.email } })]);

      await page.reload();
      await noteList.getByText(body).waitFor();
      await expect(page.getByLabel('Status').inputValue()).resolves.toBe(status);
      await expect(page.getByLabel('Owner').inputValue()).resolves.toBe(owner.id);
      await screenshot(page, `lead-worked-${kind}-${width}`);
      await expectUsable(page, width);
    }, 60_000);
  }
});
