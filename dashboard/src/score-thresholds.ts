/**
 * The lead score's status thresholds as the scorer applies them, shown
 * beside a lead's score and status (C9.8): the server's own module, so the
 * explanation cannot drift from the rule.
 */
export { ENGAGED_FROM, QUALIFIED_FROM } from '../../src/intelligence/score-thresholds';
