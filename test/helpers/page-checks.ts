/**
 * Checks every page must pass (CONTRACT C9.9), shared by the browser tests
 * of the dashboard and of /docs, so there is one implementation: axe-core's
 * violations (axe-core is MPL-2.0: a test tool, a devDependency, never
 * shipped), of any impact unless told which, less markup a test lists as not
 * ours with why; the visible controls that lie outside the viewport (also
 * those a table would show only by scrolling it sideways: at 390 px a row's
 * actions must be on screen; /docs lets a code sample's box be scrolled);
 * and, when the page itself scrolls sideways, what makes it wider.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  html: string;
}

export interface AxeOptions {
  /** only violations of these impacts (default: any) */
  impacts?: readonly ('minor' | 'moderate' | 'serious' | 'critical')[];
  /** violations that are a third party's markup, not ours to fix: the rule, the elements it may name, and why */
  notOurs?: readonly { id: string; html: RegExp; why: string }[];
}

/** Every axe-core violation on the page as it is now, one entry per element. */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<Violation[]> {
  await page.evaluate(AXE);
  // evaluated as strings: the tests compile without the DOM's types
  const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as {
    id: string;
    impact: Violation['impact'];
    nodes: { html: string }[];
  }[];
  const notOurs = options.notOurs ?? [];
  return violations
    .filter((violation) => options.impacts === undefined || (options.impacts as readonly (string | null)[]).includes(violation.impact))
    .flatMap((violation) =>
      violation.nodes
        .filter((node) => !notOurs.some((other) => other.id === violation.id && other.html.test(node.html)))
        .map((node) => ({ id: violation.id, impact: violation.impact, html: node.html.slice(0, 200) })),
    );
}

export interface OffscreenOptions {
  /** a control inside a box that scrolls sideways counts as reachable (/docs: Scalar's code samples); default: off-screen */
  scrollingBoxesReachable?: boolean;
}

/** The outer HTML of each visible control outside [0, viewport width], and whether the page itself scrolls sideways. */
export async function offscreen(page: Page, options: OffscreenOptions = {}): Promise<{ controls: string[]; pageScrollsSideways: boolean; wider?: string[] }> {
  const controls = (await page.evaluate(`
    [...document.querySelectorAll('a, button, input, select, textarea, summary, [role="button"], [tabindex]')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') return false;
        if (element.closest('.visually-hidden, .skip-link') !== null) return false;
        if (${options.scrollingBoxesReachable === true}) {
          for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
            const overflow = getComputedStyle(parent).overflowX;
            if ((overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth) return false;
          }
        }
        // a control reached only by scrolling a box sideways counts as off-screen too (C9.9), except
        // the focusable code and JSON boxes themselves, whose left edge is on screen
        return box.left < 0 || (box.right > window.innerWidth + 0.5 && !(element.tagName === 'PRE' && box.left < window.innerWidth));
      })
      .map((element) => element.outerHTML.slice(0, 160))`)) as string[];
  const pageScrollsSideways = (await page.evaluate('document.documentElement.scrollWidth > window.innerWidth')) as boolean;
  if (!pageScrollsSideways) return { controls, pageScrollsSideways };
  // what makes the page wider than the viewport: the elements reaching furthest right, outside any scrolling box
  const wider = (await page.evaluate(`
    [...document.body.querySelectorAll('*')]
      .filter((element) => {
        for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
          const overflow = getComputedStyle(parent).overflowX;
          if (overflow === 'auto' || overflow === 'scroll') return false;
        }
        return true;
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        return [Math.round(Math.max(box.right, box.left + element.scrollWidth)), element.outerHTML.slice(0, 120)];
      })
      .filter(([right]) => right > window.innerWidth)
      .sort((a, b) => b[0] - a[0])
      .slice(0, 5)
      .map(([right, html]) => right + ' ' + html)`)) as string[];
  return { controls, pageScrollsSideways, wider };
}
