/**
 * The colours of /docs (CONTRACT C9.9): Scalar's default theme with every
 * text colour that failed WCAG AA contrast (4.5:1, measured by axe-core)
 * replaced by the same hue darkened (light mode) or lightened (dark mode)
 * until it passes on each of the theme's backgrounds (#fff, #fbfbfb,
 * #f6f6f6, #e7e7e7; dark: #0f0f0f, #1a1a1a, #272727). `!important`: Scalar
 * injects its own stylesheet after this one, with wide-gamut variants of
 * the same variables.
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

export const REFERENCE_CSS = [rule('.light-mode', LIGHT), rule('.dark-mode', DARK)].join('\n');
