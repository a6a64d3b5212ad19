/**
 * C8.1: the reference at /docs renders in a real browser (Debian's chromium)
 * with the network closed: every request the page makes goes to this server
 * (any other is refused and recorded, and there must be none), and the page
 * shows the operations of the document, the tags of the event endpoint,
 * erasures and webhooks, and names the typed client. The document does not depend on the store: SQLite only.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleErrors, launchBrowser } from '../helpers/browser.js';

describe('C8.1: /docs in a browser without network', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.listen();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the operations from this server alone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const elsewhere: string[] = [];
    const local: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:') || url.startsWith('blob:')) {
        local.push(url);
        return route.continue();
      }
      elsewhere.push(url);
      return route.abort('internetdisconnected');
    });
    await page.goto(`${base}/docs`);
    await page.getByText('List leads').first().waitFor({ timeout: 20_000 });
    // the leads tag is open; the others show their names (collapsed); the introduction names the typed client
    for (const text of ['Create a lead', 'Update a lead', 'tracking', 'erasures', 'webhooks', '@leadlight/client']) {
      expect(await page.getByText(text).count(), text).toBeGreaterThan(0);
    }
    expect(local.some((url) => url.endsWith('/docs/js/scalar.js'))).toBe(true);
    expect(local.some((url) => url.includes('/docs/openapi.json'))).toBe(true);
    expect(elsewhere).toEqual([]);
    expect(errors.filter((error) => !/favicon/i.test(error))).toEqual([]);
    await context.close();
  }, 60_000);
});
