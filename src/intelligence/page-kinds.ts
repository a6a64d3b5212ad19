/**
 * Which kind of page a path is (docs/intelligence.md, "Page kinds"): the
 * first of the workspace's patterns that matches, or `other`. Scores,
 * personalities and segment rules count page views by these kinds.
 */

export const PAGE_KINDS = ['pricing', 'docs', 'blog', 'careers', 'security', 'comparison'] as const;
export type PageKind = (typeof PAGE_KINDS)[number] | 'other';

/** A workspace's patterns: `*` matches any run of characters, compared case-insensitively. */
export type PagePatterns = Partial<Record<(typeof PAGE_KINDS)[number], string[]>>;

export const DEFAULT_PAGE_PATTERNS: Required<PagePatterns> = {
  pricing: ['/pricing*', '/plans*', '*/pricing*'],
  docs: ['/docs*', '/documentation*', '/api*', '/guides*', '/help*'],
  blog: ['/blog*', '/articles*', '/news*', '/resources*'],
  careers: ['/careers*', '/jobs*'],
  security: ['/security*', '/trust*', '/privacy*', '/terms*', '/legal*', '/compliance*'],
  comparison: ['*/vs/*', '*-vs-*', '/compare*', '/alternatives*'],
};

/** A glob as an anchored, case-insensitive regular expression. */
export function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i');
}

export class PageClassifier {
  readonly #rules: [PageKind, RegExp][];

  constructor(patterns: PagePatterns = DEFAULT_PAGE_PATTERNS) {
    this.#rules = PAGE_KINDS.flatMap((kind) =>
      (patterns[kind] ?? DEFAULT_PAGE_PATTERNS[kind]).map((pattern) => [kind, patternRegExp(pattern)] as [PageKind, RegExp]),
    );
  }

  kindOf(path: string): PageKind {
    for (const [kind, pattern] of this.#rules) if (pattern.test(path)) return kind;
    return 'other';
  }
}
