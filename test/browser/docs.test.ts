/**
 * C8.1: the reference at /docs renders in a real browser (Debian's chromium)
 * with the network closed: every request the page makes goes to this server
 * (any other is refused and recorded, and there must be none), and the page
 * shows the operations of the document, the tags of the event endpoint,
 * erasures and webhooks, and names the typed client, under its
 * Content-Security-Policy with no violation. C9.9: no hosted-service menus
 * (Share → Upload document, Deploy, the developer tools, AI, MCP), even on
 * a loopback address where Scalar would show them; no axe-core violation
 * of critical or serious impact but the one listed below that is Scalar's
 * own markup, in light and dark mode at 1280 px and at 390 px; at 390 px no
 * control outside the viewport (both checks are test/helpers/page-checks.ts,
 * shared with the dashboard's walk). The document does not depend on the store: SQLite only.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleErrors, launchBrowser, screenshot } from '../helpers/browser.js';
import { axeViolations, offscreen, type AxeOptions } from '../helpers/page-checks.js';

/** What /docs is held to: critical and serious violations, less Scalar's own markup, not ours to configure (with why). */
const DOCS_AXE: AxeOptions = {
  impacts: ['critical', 'serious'],
  notOurs: [
    {
      id: 'button-name',
      html: /scalar-code-copy/,
      why: "the copy buttons of Scalar's code blocks are icons without a label, and no setting gives them one",
    },
  ],
};

/**
 * Content-Security-Policy violations the page reports, but one: Zod (inside
 * Scalar) probes whether `Function('')` is allowed, catches the refusal and
 * validates without compiling, so the page needs no 'unsafe-eval'.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__violations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sourceFile));`);
  return async () =>
    ((await page.evaluate('window.__violations')) as string[]).filter(
      (violation) => !/^script-src eval \S+\/docs\/js\/scalar\.[0-9a-f]{16}\.js$/.test(violation),
    );
}

/** Opens /docs and waits for the reference. */
async function openDocs(context: BrowserContext, base: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/docs`);
  await page.locator('.references-layout, .scalar-app').first().waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: /Leadlight/ }).first().waitFor({ timeout: 30_000 });
  return page;
}

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
    const violations = await watchViolations(page);
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
    expect(local.some((url) => /\/docs\/js\/scalar\.[0-9a-f]{16}\.js$/.test(url))).toBe(true);
    expect(local.some((url) => url.includes('/docs/openapi.json'))).toBe(true);
    expect(elsewhere).toEqual([]);
    expect(errors.filter((error) => !/favicon/i.test(error))).toEqual([]);
    expect(await violations()).toEqual([]);
    await context.close();
  }, 60_000);

  it('C9.9: no hosted-service menus, and no Content-Security-Policy violation while it renders', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const violations = await watchViolations(page);
    await page.goto(`${base}/docs`);
    await page.getByText('List leads').first().waitFor({ timeout: 20_000 });
    // the page is served from 127.0.0.1, where Scalar shows its developer tools unless told not to
    for (const text of ['Developer Tools', 'Share', 'Deploy', 'Upload Document', 'Configure', 'Ask AI', 'Generate MCP', 'Open API Client']) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBe(0);
    }
    expect(await violations()).toEqual([]);
    expect(errors.filter((error) => /content security policy/i.test(error))).toEqual([]);
    await context.close();
  }, 60_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`C9.9: no critical or serious axe-core violation of ours at 1280 px (${colorScheme} mode)`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      const page = await openDocs(context, base);
      await page.getByText('List leads').first().waitFor({ timeout: 20_000 });
      expect(await page.evaluate(`document.body.classList.contains('${colorScheme}-mode')`)).toBe(true);
      expect(await axeViolations(page, DOCS_AXE)).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('C9.9: at 390 px every control is inside the viewport and axe-core finds nothing critical or serious of ours', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await openDocs(context, base);
    await page.waitForTimeout(500);
    // a control inside a horizontally scrolling box (a code sample) is reached by scrolling it
    expect(await offscreen(page, { scrollingBoxesReachable: true })).toEqual({ controls: [], pageScrollsSideways: false });
    await screenshot(page, 'docs-390');
    expect(await axeViolations(page, DOCS_AXE)).toEqual([]);
    await context.close();
  }, 60_000);
});
