/**
 * A real browser for tests: Debian's chromium driven by playwright-core. It
 * must start: a test that needs it fails when it cannot (never skips).
 * Also the dashboard's build, made once when it is missing, and the place
 * screenshots go (test-results/, a test artifact, not committed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './processes.js';

export const CHROMIUM = '/usr/bin/chromium';
export const DASHBOARD_BUILD = path.join(ROOT, 'dist', 'dashboard');
export const SCREENSHOTS = path.join(ROOT, 'test-results', 'dashboard');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Builds the dashboard (as `npm run build` does) when there is no build yet. */
export async function ensureDashboardBuilt(): Promise<void> {
  if (fs.existsSync(path.join(DASHBOARD_BUILD, 'index.html'))) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'dashboard', 'vite.config.ts'), logLevel: 'error' });
}

/** Errors the page logs or throws: a dashboard page shows none. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
