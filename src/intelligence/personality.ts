/**
 * The buyer style of a visitor (CONTRACT C6.3; docs/intelligence.md,
 * "Personalities"): features computed from the visitor's aggregates, four
 * types with the evidence for each, the model's confidence, and how much of
 * the evidence it needs it has seen. Pure.
 */
import { sessionTotals, type ActivityKind, type VisitorAggregates } from './aggregates.js';

export const PERSONALITY_TYPES = {
  Analytical: ['data-driven', 'thorough', 'compares options'],
  Decisive: ['fast-moving', 'goal-oriented', 'price-aware'],
  Explorer: ['curious', 'broad reader', 'content-driven'],
  Cautious: ['risk-aware', 'returns often', 'checks the fine print'],
} as const;

export type PersonalityType = keyof typeof PERSONALITY_TYPES;

/** page views and sessions a visitor needs before the model has all the evidence it wants */
export const EVIDENCE_NEEDED = 50;
export const SESSION_EVIDENCE = 5;
/** learning steps at which a new entry is written */
export const LEARNING_STEPS = [0.25, 0.5, 0.75, 1];
/** page views after which a visitor's first entry is written */
export const FIRST_ENTRY_PAGE_VIEWS = 5;

export type PersonalityFeatures = Record<string, number>;

export interface PersonalityReading {
  type: PersonalityType;
  traits: string[];
  /** confidence, 0–1 */
  score: number;
  learning: number;
  features: PersonalityFeatures;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const capped = (value: number, scale: number) => Math.min(value / scale, 1);

export function features(aggregates: VisitorAggregates): PersonalityFeatures {
  const views = aggregates.pageViews;
  const share = (kind: ActivityKind) => (views === 0 ? 0 : (aggregates.totals[kind] ?? 0) / views);
  const sessions = Math.max(aggregates.sessions, 1);
  const totals = sessionTotals(aggregates);
  const result: PersonalityFeatures = {
    page_views: views,
    sessions: aggregates.sessions,
    pages_per_session: round(totals.pages / sessions),
    avg_session_seconds: round(totals.seconds / sessions, 0),
    return_days: Math.max(0, aggregates.activeDays - 1),
    share_pricing: round(share('pricing')),
    share_docs: round(share('docs')),
    share_blog: round(share('blog')),
    share_careers: round(share('careers')),
    share_security: round(share('security')),
    share_comparison: round(share('comparison')),
    converted: aggregates.firstConversionAt === null ? 0 : 1,
  };
  if (aggregates.firstConversionAt !== null && aggregates.firstSeen !== null) {
    result.hours_to_convert = round((Date.parse(aggregates.firstConversionAt) - Date.parse(aggregates.firstSeen)) / 3_600_000, 1);
  }
  return result;
}

function evidence(f: PersonalityFeatures): Record<PersonalityType, number> {
  const get = (name: string) => f[name] ?? 0;
  const quickness = f.hours_to_convert === undefined ? 0 : 1 - capped(f.hours_to_convert, 48);
  return {
    Analytical: get('share_docs') + get('share_comparison') + capped(get('avg_session_seconds'), 600),
    Decisive: get('share_pricing') + get('converted') * quickness + (1 - capped(get('pages_per_session'), 10)) * 0.5,
    Explorer: get('share_blog') + capped(get('pages_per_session'), 10) + capped(get('page_views'), 40) * 0.5,
    Cautious: get('share_security') + capped(get('return_days'), 6) + get('share_careers') * 0.5,
  };
}

/** The reading of a visitor's aggregates; `previousLearning` keeps learning from going down. */
export function readPersonality(aggregates: VisitorAggregates, previousLearning = 0): PersonalityReading {
  const f = features(aggregates);
  const weights = evidence(f);
  const ranked = (Object.keys(PERSONALITY_TYPES) as PersonalityType[])
    .map((type, order) => ({ type, weight: weights[type], order }))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  const [winner, runnerUp] = ranked as [(typeof ranked)[number], (typeof ranked)[number]];
  const score = winner.weight <= 0 ? 0 : round((winner.weight - runnerUp.weight) / winner.weight);
  const learning = Math.max(previousLearning, round(Math.min(1, (aggregates.pageViews + SESSION_EVIDENCE * aggregates.sessions) / EVIDENCE_NEEDED)));
  return { type: winner.type, traits: [...PERSONALITY_TYPES[winner.type]], score, learning, features: f };
}

/** Whether a new entry is due: the type changed, or learning crossed a step since the last entry. */
export function entryDue(reading: PersonalityReading, last: { type: string; learning: number } | null): boolean {
  if (last === null) return true;
  if (last.type !== reading.type) return true;
  return LEARNING_STEPS.some((step) => last.learning < step && reading.learning >= step);
}
