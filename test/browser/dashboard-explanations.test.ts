/**
 * Explanations beside what the dashboard infers (CONTRACT C9.8), in a real
 * browser on both stores: a personality reads as a hypothesis from
 * behaviour, with the evidence the model weighed for its type (from the
 * entry's features), its confidence and its learning in words; an entry
 * written by a client without features says it has no evidence. No axe-core
 * violation; screenshots under test-results/dashboard/.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { axeViolations } from '../helpers/page-checks.js';
import { storeKinds } from '../helpers/stores.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('explanations in the dashboard, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let viewer: Person;
  let identityId: string;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Explanations');
    viewer = await member(t, workspace.id, 'viewer');
    [identityId] = (await importRows(t, workspace.id, 'identities', [{ email: 'reader@example.com', name: 'Rea Der' }])) as [string];
    const visitorId = (await t.services.forWorkspace(workspace.id).identities.get(identityId)).visitor_id;
    await importRows(t, workspace.id, 'personalities', [
      {
        visitor_id: visitorId,
        score: 0.35,
        learning_percentage: 0.7,
        personality: { type: 'Analytical', traits: ['data-driven'] },
        features: { page_views: 20, sessions: 3, share_docs: 0.4, share_comparison: 0.1, avg_session_seconds: 300 },
        created_at: '2026-11-20T10:00:00.000Z',
      },
      {
        visitor_id: visitorId,
        score: 0.1,
        learning_percentage: 0.25,
        personality: { type: 'Explorer', traits: [] },
        created_at: '2026-11-10T10:00:00.000Z',
      },
    ]);
  });
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
    expect(errors, 'errors logged by the page').toEqual([]);
    errors = [];
  });

  /** A page of `path`, signed in as `person`. */
  async function signedIn(person: Person, path: string, width = 1280): Promise<Page> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    open.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = consoleErrors(page);
    await addSession(context, base, person);
    await page.goto(`${base}${path}`);
    return page;
  }

  it('C9.8: a personality is explained as a hypothesis with its evidence, confidence and learning', async () => {
    const page = await signedIn(viewer, `/identities/${identityId}`);
    const section = page.getByRole('region', { name: 'Personalities' });
    await section.locator('.personality-head strong').first().waitFor();
    const [newest, older] = await section.locator('ul.personalities > li').all();
    const text = (await newest!.textContent()) ?? '';
    expect(text).toContain('A hypothesis about how this person buys, drawn from their visits, not a fact');
    expect(text).toContain('40% of page views on documentation');
    expect(text).toContain('10% on comparison pages');
    expect(text).toContain('visits last 5 min on average');
    expect(text).toContain('Confidence 35%: how far Analytical leads the next most likely style');
    expect(text).toContain('Learning 70%: 20 page views and 3 sessions seen');
    // a client's entry has no features: no evidence is made up
    const olderText = (await older!.textContent()) ?? '';
    expect(olderText).toContain('No evidence recorded with this entry');
    expect(olderText).toContain('Confidence 10%');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `explanations-personality-${kind}`);
  }, 60_000);
});
