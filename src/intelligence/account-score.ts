/**
 * The account score of a company (CONTRACT C6.9; docs/intelligence.md,
 * "Accounts"): the best fit of its people (0–50, the lead score's fit of
 * the best-fitting person) plus the engagement of all of them (0–50: the
 * lead score's engagement points of each visitor of the last 30 days,
 * summed, with the daily caps applied per visitor, and turned into 0–50
 * with a half point of 40, twice a lead's, so one engaged person makes a
 * warm account and several make a hot one). Pure: the same visitors,
 * people and day give the same score.
 */
import type { VisitorAggregates } from './aggregates.js';
import { emptyAggregates } from './aggregates.js';
import { engagementPoints, engagementValue, fit, strongest, type FitProfile, type IdealCustomer, type Reason } from './scoring.js';

/** engagement points at which an account's engagement is half of its 50 */
export const ACCOUNT_HALF_POINTS = 40;

export interface AccountScore {
  score: number;
  fit: number;
  engagement: number;
  reasons: string[];
}

/** The days of several visitors' aggregates, summed: what the reasons describe. */
function mergedDays(all: readonly VisitorAggregates[]): VisitorAggregates {
  const merged = emptyAggregates();
  for (const one of all) {
    for (const [day, counts] of Object.entries(one.days)) {
      const into = (merged.days[day] ??= {});
      for (const [kind, count] of Object.entries(counts) as [keyof typeof counts, number][]) into[kind] = (into[kind] ?? 0) + count;
    }
    merged.firstConversionName ??= one.firstConversionName;
  }
  return merged;
}

/**
 * Scores an account from its visitors' aggregates (those seen in the last
 * 30 days) and the profiles of its people (its identities and its
 * anonymous visitors, each as the lead score sees a person).
 */
export function scoreAccount(visitors: readonly VisitorAggregates[], people: readonly FitProfile[], ideal: IdealCustomer, now: string): AccountScore {
  let points = 0;
  let engaged = 0;
  for (const aggregates of visitors) {
    const visitor = engagementPoints(aggregates, now).points;
    points += visitor;
    if (visitor > 0) engaged += 1;
  }
  const reasons: Reason[] = engagementPoints(mergedDays(visitors), now).reasons;
  if (engaged >= 2) reasons.push({ points: engaged * 5, text: `${engaged} people visited in the last 30 days` });
  let best: { value: number; reasons: Reason[] } = { value: 0, reasons: [] };
  for (const profile of people) {
    const person = fit(profile, ideal);
    if (person.value > best.value) best = person;
  }
  const engagement = engagementValue(points, ACCOUNT_HALF_POINTS);
  return { score: best.value + engagement, fit: best.value, engagement, reasons: strongest([...reasons, ...best.reasons]) };
}
