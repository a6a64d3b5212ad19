/**
 * Settings → Alerts in a real browser (Debian chromium through
 * playwright-core) against a real server, on both stores (CONTRACT C10.1–
 * C10.3): an admin creates a Slack alert whose webhook is a local receiver
 * standing in for Slack; a tracked visitor's page view triggers it; the
 * receiver gets one message and the alert's deliveries log shows it; `Send
 * test` adds a test delivery; an alert to one of the workspace's webhooks
 * with filters and a cooldown is made from the form. A viewer sees the
 * alerts without controls. The email digest (C10.4): a member chooses
 * theirs, an admin sets the workspace time zone. No page logs an error;
 * screenshots go under test-results/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, identify, pageView, postEvents } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind, { webhooks: { allowPrivate: true } }), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('alerts in the dashboard in a browser, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let admin: Person;
  let viewer: Person;
  let receiver: Receiver;
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    t = await testApp(kind);
    base = await t.listen();
    receiver = await startReceiver();
    workspace = await t.createWorkspace('Browser alerts');
    admin = await member(t, workspace.id, 'admin');
    viewer = await member(t, workspace.id, 'viewer');
  });
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
    expect(errors, 'errors logged by the page').toEqual([]);
    errors = [];
  });
  afterAll(async () => {
    await receiver?.close();
  });

  async function settingsAs(person: Person, width = 1280): Promise<Page> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    open.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = consoleErrors(page);
    await addSession(context, base, person);
    await page.goto(`${base}/settings`);
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    return page;
  }

  /** Runs the alert worker (as every server process does) until the receiver got `count` requests on `path`. */
  async function deliveredTo(path: string, count: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const received = receiver.received.filter((entry) => entry.path === path);
      if (received.length >= count) return received;
      if (Date.now() > deadline) throw new Error(`nothing delivered to ${path}`);
      await t.services.alertWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('C10.1–C10.3: an admin creates a Slack alert, a tracked visitor triggers it, the receiver gets one message and the log shows it', async () => {
    const page = await settingsAs(admin);
    const section = page.getByRole('region', { name: 'Alerts' });
    await section.getByText('No alerts.').waitFor();
    const path = `/slack-${kind}`;
    await section.getByLabel('Alert name').fill('Pricing viewed');
    await section.getByLabel('Trigger').selectOption('page_viewed');
    await section.getByLabel('Page path (glob)').fill('/pricing*');
    await section.getByLabel('Slack webhook URL').fill(`${receiver.url}${path}`);
    await section.getByRole('button', { name: 'Add alert' }).click();
    await section.getByText('Page viewed: /pricing*').waitFor();

    const key = (await createSiteKey(t, workspace)).key;
    const visitor = randomUUID();
    const sent = await postEvents(base, key, [identify(visitor, { email: 'ada@acme.example', name: 'Ada Lovelace' }), pageView(visitor, '/pricing')]);
    expect(sent.status).toBe(202);
    const received = await deliveredTo(path, 1);
    await t.services.alertWorker.runOnce();
    expect(receiver.received.filter((entry) => entry.path === path)).toHaveLength(1);
    const message = JSON.parse(received[0]!.body) as { text: string; blocks: unknown[] };
    expect(message.text).toContain('Ada Lovelace');
    expect(message.blocks.length).toBeGreaterThan(2);

    await section.getByRole('button', { name: 'Deliveries' }).click();
    const log = section.getByRole('table', { name: 'Deliveries of Pricing viewed' });
    await log.getByRole('cell', { name: 'delivered' }).waitFor();
    await expect(log.getByRole('row').count()).resolves.toBe(2);

    await section.getByRole('button', { name: 'Send test' }).click();
    await deliveredTo(path, 2);
    await log.getByRole('cell', { name: 'Test' }).waitFor({ timeout: 10_000 });
    await screenshot(page, `alerts-admin-${kind}`);
  });

  it('C10.1, C10.2: an admin makes an alert to a webhook with filters (known company, countries, minimum score) and a cooldown', async () => {
    const hook = await t.as(workspace, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}/crm-${kind}`, events: ['lead.created'] } });
    expect(hook.statusCode).toBe(201);
    const webhookId = (hook.json() as { data: { id: string } }).data.id;
    const page = await settingsAs(admin);
    const section = page.getByRole('region', { name: 'Alerts' });
    await section.getByLabel('Alert name').fill('Known US companies');
    await section.getByLabel('Trigger').selectOption('conversion');
    await section.getByLabel('Known companies only').check();
    await section.getByLabel('Countries').fill('us, gb');
    await section.getByLabel('Minimum score').fill('50');
    await section.getByLabel('Cooldown (minutes)').fill('30');
    await section.getByLabel('Send to').selectOption('webhook');
    await section.getByRole('combobox', { name: /^Webhook/ }).selectOption(webhookId);
    await section.getByRole('button', { name: 'Add alert' }).click();
    await section.getByText('known companies only · in US, GB · score ≥ 50').waitFor();
    await section.getByText(`Webhook: ${receiver.url}/crm-${kind}`).waitFor();
    const listed = (await t.as(workspace, { method: 'GET', url: '/api/v1/alerts?limit=100' })).json() as { data: Record<string, unknown>[] };
    expect(listed.data.find((alert) => alert.name === 'Known US companies')).toMatchObject({
      trigger: { type: 'conversion' },
      filters: { company_known: true, countries: ['US', 'GB'], min_score: 50 },
      destination: { type: 'webhook', webhook_id: webhookId },
      cooldown_minutes: 30,
    });
    await screenshot(page, `alerts-webhook-${kind}`);
  });

  it('C10.4: a member chooses a weekly email digest for themself; an admin sets the workspace time zone, a bad one is refused', async () => {
    const person = await member(t, workspace.id, 'member');
    const mine = await settingsAs(person);
    const digest = mine.getByRole('region', { name: 'Email digest' });
    await digest.getByText('You get no digest.').waitFor();
    await expect(digest.getByRole('form', { name: 'Workspace time zone' }).count()).resolves.toBe(0);
    await digest.getByRole('combobox', { name: /^Email digest/ }).selectOption('weekly');
    await digest.getByText(/Next digest: .* \(UTC 08:00\)/).waitFor();
    const chosen = await t.services.forWorkspace(workspace.id).digests.get(person.id, 'UTC');
    expect(chosen.digest).toBe('weekly');
    // a Monday, 08:00 UTC
    expect(new Date(chosen.next_at!).getUTCDay()).toBe(1);
    expect(chosen.next_at!.slice(11)).toBe('08:00:00.000Z');
    await screenshot(mine, `digest-member-${kind}`);

    const page = await settingsAs(admin);
    const section = page.getByRole('region', { name: 'Email digest' });
    const zone = section.getByRole('combobox', { name: 'Workspace time zone' });
    await zone.fill('Mars/Olympus_Mons');
    await section.getByRole('button', { name: 'Save time zone' }).click();
    await section.getByRole('alert').getByText(/IANA time zone/).waitFor();
    // the refusal is the one error the browser logs: expected here
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    errors.splice(0);
    await zone.fill('Europe/Berlin');
    await section.getByRole('button', { name: 'Save time zone' }).click();
    await section.getByText(/Next digest|You get no digest/).waitFor();
    await expect.poll(async () => (await t.services.workspaces.get(workspace.id)).time_zone).toBe('Europe/Berlin');
    await mine.reload();
    await mine.getByRole('region', { name: 'Email digest' }).getByText('Workspace time zone: Europe/Berlin').waitFor();
    await mine.getByRole('region', { name: 'Email digest' }).getByText(/\(Europe\/Berlin 08:00\)/).waitFor();
    await screenshot(page, `digest-admin-${kind}`);
    // two people's pages: under 20 s on an idle machine, more on a loaded one
  }, 60_000);

  it('C10.1: a viewer reads the alerts and their deliveries, without controls', async () => {
    const page = await settingsAs(viewer);
    const section = page.getByRole('region', { name: 'Alerts' });
    await section.getByText('Pricing viewed').waitFor();
    await expect(section.getByRole('button', { name: 'Send test' }).count()).resolves.toBe(0);
    await expect(section.getByRole('form', { name: 'Add an alert' }).count()).resolves.toBe(0);
    await section.getByRole('listitem').filter({ hasText: 'Pricing viewed' }).getByRole('button', { name: 'Deliveries' }).click();
    await section.getByRole('table', { name: 'Deliveries of Pricing viewed' }).waitFor();
  });

  it('C9.9: at 390 px wide every control of the Alerts section is inside the viewport', async () => {
    const page = await settingsAs(admin, 390);
    const section = page.getByRole('region', { name: 'Alerts' });
    await section.getByText('Pricing viewed', { exact: true }).first().waitFor();
    const controls = section.locator('button:visible, input:visible, select:visible');
    const count = await controls.count();
    expect(count).toBeGreaterThan(5);
    for (let index = 0; index < count; index += 1) {
      const box = await controls.nth(index).boundingBox();
      expect(box, `control ${index}`).not.toBeNull();
      expect(box!.x, `control ${index}`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `control ${index}`).toBeLessThanOrEqual(390);
    }
    await screenshot(page, `alerts-admin-390-${kind}`);
  });
});
