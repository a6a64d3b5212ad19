/**
 * The lead score's status thresholds (CONTRACT C6.2; docs/intelligence.md):
 * a score from ENGAGED_FROM is engaged, from QUALIFIED_FROM qualified. A
 * module of its own, without imports, so that the dashboard shows the very
 * numbers the scorer applies (C9.8).
 */
export const QUALIFIED_FROM = 60;
export const ENGAGED_FROM = 30;
