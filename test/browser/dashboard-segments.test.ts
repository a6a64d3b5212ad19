/**
 * C9.6 in a real browser, on both stores: a member builds a segment with
 * controls only (a trait condition and a company field condition, values
 * offered from lists), sees how many people match before saving (the
 * people seeded through the events endpoint), saves it and sees its member
 * count once the worker has filled it, then reopens it and changes a
 * condition through the same builder. The builder passes axe-core and keeps
 * every control on screen at 1280 and 390 px. Screenshots under
 * test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { axeViolations, offscreen } from '../helpers/page-checks.js';
import { storeKinds } from '../helpers/stores.js';
import { all, createSiteKey, eventually, identify, postEvents } from '../helpers/tracking.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('C9.6: the segment builder in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let editor: Person;

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Segments browser');
    editor = await member(t, workspace.id, 'member');
    // through the events endpoint: identify links each person to their email domain's company (C6.1)
    const key = (await createSiteKey(t, workspace)).key;
    const people = [
      { email: 'ada@initech-systems.com', plan: 'pro' },
      { email: 'bob@initech-systems.com', plan: 'pro' },
      { email: 'cy@globex-corp.com', plan: 'pro' },
      { email: 'dee@initech-systems.com', plan: 'free' },
    ];
    const posted = await postEvents(base, key, people.map((person) => identify(randomUUID(), person)));
    expect(posted.status).toBe(202);
    await eventually(() => all(base, workspace, '/identities'), (found) => found.length === people.length, 15_000);
    t.services.intelligence.start(50, () => {});
  });
  afterAll(async () => {
    await t?.services.intelligence.stop();
  });

  /** A blank page signed in as the member: each test opens its pages. */
  async function signedIn(width: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = consoleErrors(page);
    await addSession(context, base, editor);
    return { page, errors };
  }

  const status = (page: Page) => page.getByRole('status').filter({ hasText: /match|Counting/ });
  const condition = (page: Page, n: number) => page.getByRole('group', { name: `Condition ${n}` });

  /** The values a condition's Value box offers (its datalist). */
  async function offered(page: Page, n: number): Promise<string[]> {
    const list = await condition(page, n).getByLabel('Value').getAttribute('list');
    return page.locator(`datalist[id="${list}"] option`).evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
  }

  /** Reloads the page until the text shows: membership follows the rule within the worker's next rounds. */
  async function reloadUntil(page: Page, text: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if ((await page.getByText(text, { exact: true }).count()) > 0) return;
      if (Date.now() > deadline) throw new Error(`"${text}" never showed`);
      await page.waitForTimeout(500);
      await page.reload();
    }
  }

  it('builds a segment with controls, counts it before saving, saves it, shows its members, and edits a condition again', async () => {
    const { page, errors } = await signedIn(1280);
    await page.goto(`${base}/lists`);
    await page.getByRole('button', { name: 'New segment' }).click();
    await page.getByRole('heading', { name: 'New segment' }).waitFor();
    await page.getByLabel('Segment name').fill('Pro at Initech');

    const first = condition(page, 1);
    expect(await first.getByLabel('Field').inputValue()).toBe('trait');
    await first.getByLabel('Trait name').fill('plan');
    // the values offered are the workspace's own, most frequent first
    await expect.poll(() => offered(page, 1)).toEqual(['pro', 'free']);
    await first.getByLabel('Value').fill('pro');
    await status(page).getByText('3 people match').waitFor();

    await page.getByRole('button', { name: 'Add condition' }).click();
    const second = condition(page, 2);
    await second.getByLabel('Field').selectOption({ label: 'Company domain' });
    expect(await second.getByLabel('Operator').inputValue()).toBe('eq');
    await expect.poll(async () => (await offered(page, 2)).sort()).toEqual(['globex-corp.com', 'initech-systems.com']);
    await second.getByLabel('Value').fill('initech-systems.com');
    await status(page).getByText('2 people match').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect((await offscreen(page)).controls).toEqual([]);
    await screenshot(page, `segment-builder-1280-${kind}`);

    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('heading', { name: 'Pro at Initech' }).waitFor();
    await reloadUntil(page, '2 members');
    await page.goto(`${base}/lists`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Pro at Initech' }) });
    expect(await card.locator('.list-members').textContent()).toBe('2 members');

    // reopened: the rule is back in the controls; one condition changes
    await card.getByRole('link', { name: 'Pro at Initech' }).click();
    await page.getByRole('button', { name: 'Edit rule' }).click();
    await page.getByRole('heading', { name: 'Edit rule' }).waitFor();
    expect(await condition(page, 1).getByLabel('Trait name').inputValue()).toBe('plan');
    expect(await condition(page, 1).getByLabel('Value').inputValue()).toBe('pro');
    expect(await condition(page, 2).getByLabel('Field').inputValue()).toBe('company.domain');
    expect(await condition(page, 2).getByLabel('Value').inputValue()).toBe('initech-systems.com');
    await condition(page, 1).getByLabel('Value').fill('free');
    await status(page).getByText('1 person matches').waitFor();
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('button', { name: 'Edit rule' }).waitFor();
    await reloadUntil(page, '1 member');
    expect(errors).toEqual([]);
  });

  it('at 390 px the builder keeps every control on screen and passes axe-core', async () => {
    const { page, errors } = await signedIn(390);
    await page.goto(`${base}/lists`);
    await page.getByRole('button', { name: 'New segment' }).click();
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('group', { name: 'Group 2' }).getByLabel('Field').selectOption({ label: 'Events in a window' });
    await condition(page, 1).getByLabel('Trait name').fill('plan');
    await condition(page, 1).getByLabel('Value').fill('pro');
    await page.getByRole('group', { name: 'Group 2' }).getByLabel('Page (optional)').fill('/pricing*');
    await status(page).getByText('0 people match').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const { controls, pageScrollsSideways, wider } = await offscreen(page);
    expect(controls).toEqual([]);
    expect(pageScrollsSideways, String(wider)).toBe(false);
    await screenshot(page, `segment-builder-390-${kind}`);
    expect(errors).toEqual([]);
  });
});
