/**
 * Checks every dashboard page must pass (CONTRACT C9.9), shared by the
 * browser tests: axe-core's violations of any impact (axe-core is MPL-2.0:
 * a test tool, a devDependency, never shipped) and the visible controls that
 * lie outside the viewport (one inside a horizontally scrolling box is
 * reached by scrolling that box, so it counts as inside).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  html: string;
}

/** Every axe-core violation on the page as it is now, one entry per element. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  // evaluated as strings: the tests compile without the DOM's types
  const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as {
    id: string;
    impact: string | null;
    nodes: { html: string }[];
  }[];
  return violations.flatMap((violation) => violation.nodes.map((node) => ({ id: violation.id, impact: violation.impact, html: node.html.slice(0, 200) })));
}

/** The outer HTML of each visible control outside [0, viewport width], and whether the page itself scrolls sideways. */
export async function offscreen(page: Page): Promise<{ controls: string[]; pageScrollsSideways: boolean }> {
  const controls = (await page.evaluate(`
    [...document.querySelectorAll('a, button, input, select, textarea, summary, [role="button"], [tabindex]')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') return false;
        if (element.closest('.visually-hidden, .skip-link') !== null) return false;
        for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
          const overflow = getComputedStyle(parent).overflowX;
          if ((overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth) return false;
        }
        return box.left < 0 || box.right > window.innerWidth;
      })
      .map((element) => element.outerHTML.slice(0, 160))`)) as string[];
  const pageScrollsSideways = (await page.evaluate('document.documentElement.scrollWidth > window.innerWidth')) as boolean;
  return { controls, pageScrollsSideways };
}
