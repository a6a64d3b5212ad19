/**
 * C9.9 in a real browser: the overview does not shift as its data and its
 * chart arrive (cumulative layout shift ≤ 0.1, from Chromium's 'layout-shift'
 * entries, with the overview's JSON and the chart's chunk held back so the
 * loading states are on screen first), and a page opened first loads the
 * entry and its own chunks only: the other pages' code, and the chart library
 * anywhere but the overview, stay unloaded. Which chunk belongs to which page
 * comes from the build's manifest (dist/dashboard/.vite/manifest.json).
 * Performance figures themselves are measured in `npm run bench:lighthouse`,
 * never asserted here.
 *
 * SQLite only: what is measured is the built dashboard in the browser; the
 * store changes neither the overview's JSON nor the chunks served (both
 * stores' answers are checked by the overview's own tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/http/dashboard/session-cookie.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleErrors, DASHBOARD_BUILD, ensureDashboardBuilt, launchBrowser, screenshot } from '../helpers/browser.js';
import { member, signIn } from '../helpers/dashboard.js';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The files a chunk needs before it runs: itself and its static imports, transitively. */
function chunkFiles(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (chunk === undefined) throw new Error(`the manifest has no chunk ${key}`);
  if (into.has(`/${chunk.file}`)) return into;
  into.add(`/${chunk.file}`);
  for (const imported of chunk.imports ?? []) chunkFiles(manifest, imported, into);
  return into;
}

const sorted = (files: Iterable<string>) => [...files].sort();

describe('C9.9: the overview loads only its own code and does not shift, on SQLite', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let cookie: string;
  let manifest: Record<string, ManifestChunk>;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    manifest = JSON.parse(fs.readFileSync(path.join(DASHBOARD_BUILD, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    browser = await launchBrowser();
    t = await createTestApp('sqlite');
    base = await t.listen();
    const workspace = await t.createWorkspace('Performance');
    await t.services.seed.seedDemo(workspace.id);
    cookie = (await signIn(base, await member(t, workspace.id, 'admin'))).cookie;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A signed-in browser context that records the scripts it fetches. */
  async function signedIn(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; scripts: Set<string> }> {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie.slice(SESSION_COOKIE.length + 1), url: base }]);
    const scripts = new Set<string>();
    context.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    return { context, scripts };
  }

  // Lighthouse's screens: desktop, and the phone of its mobile run
  for (const { width, height } of [
    { width: 1350, height: 940 },
    { width: 412, height: 823 },
  ]) {
    it(`at ${width} × ${height}, the overview's layout shifts by at most 0.1 in all while its data and chart load`, async () => {
      const { context } = await signedIn({ width, height });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      // every shift the page makes, with what moved (a sum of all of them: at least the CLS of any window)
      await page.addInitScript(`
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.hadRecentInput) continue;
            window.__shifts.push({ value: entry.value, at: entry.startTime, moved: entry.sources.map((source) =>
              (source.node ? source.node.nodeName + '.' + (source.node.className || '') : '?') + ' ' + source.previousRect.y + '→' + source.currentRect.y) });
          }
        }).observe({ type: 'layout-shift', buffered: true });`);
      // the data and the chart arrive late, as on a slow network: each loading state is drawn first
      // (the chart's chunk is small, so it is held until the data has come and then some, or it could win the race)
      const chart = `/${manifest['src/components/leads-chart.tsx']!.file}`;
      await context.route(/\/dashboard\/api\/overview\?/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      // the chart's code is held until its loading state has been seen (a fixed delay let the data arrive after the code on a busy machine)
      let releaseChart = () => {};
      const chartHeld = new Promise<void>((resolve) => {
        releaseChart = resolve;
      });
      await context.route((url) => url.pathname === chart, async (route) => {
        await chartHeld;
        await route.continue();
      });
      await page.goto(`${base}/`);
      await page.getByRole('region', { name: /Leads per day by source/ }).getByText('Drawing the chart…').waitFor();
      const chartPending = (await page.evaluate('performance.now()')) as number;
      releaseChart();
      await page.locator('figure[aria-label="New identities per day"] svg').first().waitFor();
      await page.getByRole('heading', { name: 'Pages', exact: true }).waitFor();
      await page.waitForTimeout(500);
      const shifts = (await page.evaluate('window.__shifts')) as { value: number; at: number; moved: string[] }[];
      await screenshot(page, `performance-overview-${width}`);
      const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
      expect(total, JSON.stringify(shifts, null, 1)).toBeLessThanOrEqual(0.1);
      // and none at all once the chart's place is drawn (issue 21: no layout shift as charts load)
      expect(shifts.filter((shift) => shift.at >= chartPending)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('a page opened first fetches the entry and its own chunks only: the chart library only on the overview', async () => {
    const entry = chunkFiles(manifest, 'index.html');
    const overview = new Set([
      ...entry,
      ...chunkFiles(manifest, 'src/pages/overview.tsx'),
      ...chunkFiles(manifest, 'src/components/leads-chart.tsx'),
      ...chunkFiles(manifest, 'src/components/traffic-chart.tsx'),
    ]);
    const leads = new Set([...entry, ...chunkFiles(manifest, 'src/pages/leads.tsx')]);
    // the leads page's and the chart's own files are not the entry's
    expect(entry.has(`/${manifest['src/pages/leads.tsx']!.file}`)).toBe(false);
    expect(entry.has(`/${manifest['src/components/leads-chart.tsx']!.file}`)).toBe(false);

    const first = await signedIn({ width: 1280, height: 900 });
    const page = await first.context.newPage();
    await page.goto(`${base}/`);
    await page.locator('figure[aria-label="New identities per day"] svg').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(sorted(first.scripts)).toEqual(sorted(overview));
    // the leads page's code arrives when it is opened, not before
    first.scripts.clear();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    expect(first.scripts.has(`/${manifest['src/pages/leads.tsx']!.file}`)).toBe(true);
    await first.context.close();

    const second = await signedIn({ width: 1280, height: 900 });
    const leadsPage = await second.context.newPage();
    await leadsPage.goto(`${base}/leads`);
    await leadsPage.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    await leadsPage.waitForLoadState('networkidle');
    expect(sorted(second.scripts)).toEqual(sorted(leads));
    await second.context.close();
  }, 60_000);
});
