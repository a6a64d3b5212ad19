/**
 * The colours of /docs (CONTRACT C9.9): Scalar's default theme with every
 * text colour that failed WCAG AA contrast (4.5:1, measured by axe-core)
 * replaced by the same hue darkened (light mode) or lightened (dark mode)
 * until it passes on each of the theme's backgrounds (#fff, #fbfbfb,
 * #f6f6f6, #e7e7e7; dark: #0f0f0f, #1a1a1a, #272727). `!important`: Scalar
 * injects its own stylesheet after this one, with wide-gamut variants of
 * the same variables. Also one layout rule (ENDPOINT_LISTS).
 */
const LIGHT = {
  '--scalar-color-2': '#5c5c5c',
  '--scalar-color-3': '#666666',
  '--scalar-color-accent': '#006ab0',
  '--scalar-color-blue': '#006bab',
  '--scalar-color-green': '#05754f',
  '--scalar-color-red': '#d00005',
  '--scalar-color-yellow': '#7b6311',
  '--scalar-color-orange': '#b53e00',
  '--scalar-color-query': '#007277',
};

const DARK = {
  '--scalar-color-3': '#909090',
  '--scalar-color-red': '#e86665',
};

const rule = (selector: string, variables: Record<string, string>) =>
  `${selector} {\n${Object.entries(variables)
    .map(([name, value]) => `  ${name}: ${value} !important;`)
    .join('\n')}\n}`;

/**
 * A tag's list of endpoints at the top of its section grows with the API and
 * becomes a box that scrolls (the list, and the card around it), which a keyboard cannot reach (axe:
 * scrollable-region-focusable, seen at 390 px once the leads had a dozen
 * operations): it is shown whole instead.
 */
const ENDPOINT_LISTS = [
  // repeated class: more specific than Scalar's own scoped rule, which is !important too
  'ul.endpoints.endpoints.endpoints,\n.scalar-card-content.scalar-card-content.custom-scroll:has(> ul.endpoints) {\n  max-height: none !important;\n  overflow: visible !important;\n}',
  'ul.endpoints.endpoints.endpoints * {\n  overflow-wrap: anywhere;\n  min-width: 0;\n  flex-wrap: wrap;\n}',
].join('\n');

export const REFERENCE_CSS = [rule('.light-mode', LIGHT), rule('.dark-mode', DARK), ENDPOINT_LISTS].join('\n');
