/**
 * A real browser for tests: Debian's chromium driven by playwright-core. It
 * must start: a test that needs it fails when it cannot (never skips).
 * Also the dashboard's build, made once when it is missing, the place
 * screenshots go (test-results/, a test artifact, not committed), and
 * contexts signed in without the form: a session made over HTTP, its cookie
 * put in the context (the form itself is walked in dashboard.test.ts), so a
 * test opens the page it is about at once instead of signing in and waiting
 * for the overview first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { SESSION_COOKIE } from '../../src/http/dashboard/session-cookie.js';
import { signIn } from './dashboard.js';
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

/**
 * One chromium for the whole test file, launched (the dashboard built first)
 * before its tests and closed after them; each test opens its own context
 * from it. Call at the file's top level; the browser is there once the
 * file's tests run.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await ensureDashboardBuilt();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is launched in beforeAll: ask for it in a hook or a test');
    return browser;
  };
}

/** Builds the dashboard (as `npm run build` does) when there is no build yet. */
export async function ensureDashboardBuilt(): Promise<void> {
  if (fs.existsSync(path.join(DASHBOARD_BUILD, 'index.html'))) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'dashboard', 'vite.config.ts'), logLevel: 'error' });
}

/** The session token of each person on each server, signed in once over HTTP (each sign-in verifies an argon2 hash). */
const sessions = new Map<string, Promise<string>>();

/** Signs the context in as `person`: the cookie a sign-in through the form would set (HttpOnly, SameSite=Lax, Path=/). */
export async function addSession(context: BrowserContext, base: string, person: { email: string; password: string }): Promise<void> {
  const key = `${base} ${person.email} ${person.password}`;
  let token = sessions.get(key);
  if (token === undefined) {
    token = signIn(base, person).then((session) => session.cookie.slice(`${SESSION_COOKIE}=`.length));
    sessions.set(key, token);
    token.catch(() => sessions.delete(key));
  }
  await context.addCookies([{ name: SESSION_COOKIE, value: await token, url: base, httpOnly: true, sameSite: 'Lax' }]);
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
