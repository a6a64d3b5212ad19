/**
 * The webhooks section of the dashboard's settings in a real browser
 * (Debian chromium through playwright-core) against a real server, on both
 * stores (CONTRACT C7.4, C8.5): an admin adds an endpoint pointing at a real
 * local receiver (WEBHOOK_ALLOW_PRIVATE=1, as a closed network would run),
 * with its events picked from the catalogue; the signing secret is shown
 * once and verifies the delivery the receiver gets; a test event is sent and
 * its delivery appears in the endpoint's table (status, response code,
 * duration, attempts); the endpoint is disabled and deleted after
 * confirming. A viewer sees the endpoints without any control. No page logs
 * an error; screenshots go under test-results/dashboard/.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturesAhead } from '../helpers/ahead.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { addSession, browserForFile, consoleErrors, screenshot } from '../helpers/browser.js';
import { member, type Person } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** Each store's server, started at the file's start: PostgreSQL's (a cloned database) is made while the SQLite tests run. */
const testApp = fixturesAhead(storeKinds(), (kind) => createTestApp(kind, { webhooks: { allowPrivate: true } }), (t) => t.close());

/** One browser for the file's two stores (each test opens its own context). */
const browser = browserForFile();

describe.each(storeKinds())('webhooks in the dashboard in a browser, on %s', (kind) => {
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
    workspace = await t.createWorkspace('Browser webhooks');
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
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.mouse.move(0, 0);
    return page;
  }

  /** Runs the delivery worker (as every server process does) until the receiver got a request on `path`. */
  async function deliveredTo(path: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const received = receiver.received.filter((entry) => entry.path === path);
      if (received.length > 0) return received;
      if (Date.now() > deadline) throw new Error(`nothing delivered to ${path}`);
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('C8.5, C7.4: an admin adds an endpoint (secret once), sends a test event and sees its delivery, disables and deletes it', async () => {
    const page = await settingsAs(admin);
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhook endpoints yet').waitFor();

    const url = `${receiver.url}/browser-${kind}`;
    await section.getByLabel('Endpoint URL').fill(url);
    await section.getByLabel('Description').fill('Browser CRM');
    // the checkboxes are the catalogue the API documents
    await expect(section.getByRole('checkbox').count()).resolves.toBe(12);
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await section.getByText('Choose at least one event.').waitFor();
    await section.getByRole('checkbox', { name: /lead\.created/ }).check();
    await section.getByRole('checkbox', { name: /identity\.identified/ }).check();
    await section.getByRole('button', { name: 'Add endpoint' }).click();

    const secret = (await section.getByLabel('Signing secret', { exact: true }).textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await section.getByRole('button', { name: 'Copy secret' }).waitFor();
    await section.getByText('shown only this once').waitFor();
    const [endpoint] = (await t.services.forWorkspace(workspace.id).webhooks.list({ limit: 10, offset: 0 })).items;
    expect(endpoint).toMatchObject({ url, events: ['lead.created', 'identity.identified'], description: 'Browser CRM', enabled: true });
    const item = section.locator(`li.webhook[data-webhook-id="${endpoint!.id}"]`);
    await item.getByText('Enabled').waitFor();
    await item.getByText('identity.identified').waitFor();

    await item.getByRole('button', { name: 'Send test event' }).click();
    await section.getByText('Test event queued').waitFor();
    const [received] = await deliveredTo(`/browser-${kind}`);
    // the secret shown is the one that signs the deliveries
    const payload = new Webhook(secret).verify(received!.body, received!.headers) as { type: string; data: { webhook_id: string } };
    expect(payload).toMatchObject({ type: 'webhook.test', data: { webhook_id: endpoint!.id } });

    const row = item.getByRole('table', { name: 'Recent deliveries' }).locator('tbody tr');
    // the table refreshes itself every 2 s while a delivery is pending; a loaded CI machine can take several turns
    await row.filter({ hasText: 'delivered' }).waitFor({ timeout: 30_000 });
    await expect(row.count()).resolves.toBe(1);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['webhook.test', 'delivered', '200']);
    expect(cells[3]).toMatch(/^\d+ ms$/);
    expect(cells[4]).toBe('1');
    expect(cells[5]).toMatch(/just now|minute/);
    await screenshot(page, `${kind}-settings-webhooks-1280`);
    const narrow = await settingsAs(admin, 390);
    await narrow.getByRole('region', { name: 'Webhooks' }).getByRole('button', { name: 'Send test event' }).waitFor();
    await screenshot(narrow, `${kind}-settings-webhooks-390`);

    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await item.waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);

    await item.getByRole('button', { name: 'Disable' }).click();
    await item.getByText('Disabled', { exact: true }).waitFor();
    expect((await t.services.forWorkspace(workspace.id).webhooks.get(endpoint!.id)).enabled).toBe(false);
    await item.getByRole('button', { name: 'Enable' }).waitFor();

    await item.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(item.count()).resolves.toBe(1);
    await item.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await section.getByText('No webhook endpoints yet').waitFor();
    expect((await t.services.forWorkspace(workspace.id).webhooks.list({ limit: 10, offset: 0 })).total).toBe(0);
  });

  it('C7.4: a viewer sees the endpoints and their deliveries, without any control', async () => {
    const endpoint = await t.services.forWorkspace(workspace.id).webhooks.create({ url: `${receiver.url}/viewer`, events: ['lead.updated'] });
    const page = await settingsAs(viewer);
    const section = page.getByRole('region', { name: 'Webhooks' });
    const item = section.locator(`li.webhook[data-webhook-id="${endpoint.id}"]`);
    await item.getByText('lead.updated').waitFor();
    await item.getByText('Recent deliveries').click();
    await item.getByText('No deliveries yet').waitFor();
    for (const name of ['Add endpoint', 'Send test event', 'Disable', 'Enable', 'Delete']) {
      await expect(section.getByRole('button', { name }).count(), name).resolves.toBe(0);
    }
    await expect(section.getByLabel('Endpoint URL').count()).resolves.toBe(0);
    await screenshot(page, `${kind}-settings-webhooks-viewer-1280`);
  });
});
