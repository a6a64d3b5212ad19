/**
 * The lead score (CONTRACT C6.2; docs/intelligence.md, "Lead score"): fit
 * (0–50, who the visitor is) plus engagement (0–50, what they did in the
 * last 30 days, with daily caps and a 7-day half-life), the status it gives,
 * and the reasons a salesperson can read. Pure: the same aggregates, profile
 * and day give the same score.
 */
import { ageInDays, type ActivityKind, type VisitorAggregates } from './aggregates.js';
import type { EmailDomainKind } from './email-domain.js';
import { ENGAGED_FROM, QUALIFIED_FROM } from './score-thresholds.js';

export interface ScoreRule {
  weight: number;
  dailyCap: number;
}

export const ENGAGEMENT_RULES: Record<ActivityKind, ScoreRule> = {
  pricing: { weight: 5, dailyCap: 3 },
  comparison: { weight: 4, dailyCap: 3 },
  docs: { weight: 2, dailyCap: 5 },
  security: { weight: 2, dailyCap: 3 },
  other: { weight: 1, dailyCap: 10 },
  blog: { weight: 1, dailyCap: 5 },
  careers: { weight: 0, dailyCap: 0 },
  track: { weight: 2, dailyCap: 5 },
  identify: { weight: 3, dailyCap: 1 },
  conversion: { weight: 10, dailyCap: 2 },
};

export const HALF_LIFE_DAYS = 7;
/** points at which engagement is half of its 50 */
export const HALF_ENGAGEMENT_POINTS = 20;
const MAX_REASONS = 5;

/** The workspace's ideal customer: empty lists give no points. */
export interface IdealCustomer {
  industries: string[];
  employeeRanges: string[];
  countries: string[];
}

export interface FitProfile {
  emailKind: EmailDomainKind | null;
  emailDomain: string | null;
  company: { name: string; domain: string | null; employees: string | null; main_industry: string | null } | null;
  country: string | null;
}

export type LeadStatus = 'new' | 'engaged' | 'qualified';

export interface LeadScore {
  score: number;
  fit: number;
  engagement: number;
  status: LeadStatus;
  reasons: string[];
}

/** A reason and the points behind it (the strongest are shown). */
export interface Reason {
  points: number;
  text: string;
}

const same = (a: string | null | undefined, list: readonly string[]) =>
  a !== null && a !== undefined && a !== '' && list.some((entry) => entry.toLowerCase() === a.toLowerCase());

const times = (count: number) => (count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`);
const days = (count: number) => (count === 1 ? '1 day' : `${count} days`);

/** The engagement points of the last 30 days (before they are turned into 0–50) and their reasons. */
export function engagementPoints(aggregates: VisitorAggregates, now: string): { points: number; reasons: Reason[] } {
  let points = 0;
  /** days in the window with events: a day kept in the aggregates but older than the window is not a day the visitor came back */
  let activeDays = 0;
  const perKind = new Map<ActivityKind, { points: number; count: number; days: number; week: number }>();
  for (const [day, counts] of Object.entries(aggregates.days)) {
    const age = ageInDays(day, now);
    if (age < 0 || age >= 30) continue;
    activeDays += 1;
    const decay = 0.5 ** (age / HALF_LIFE_DAYS);
    for (const [kind, count] of Object.entries(counts) as [ActivityKind, number][]) {
      const rule = ENGAGEMENT_RULES[kind];
      const counted = Math.min(count, rule.dailyCap) * rule.weight * decay;
      points += counted;
      const entry = perKind.get(kind) ?? { points: 0, count: 0, days: 0, week: 0 };
      entry.points += counted;
      entry.count += count;
      entry.days += 1;
      if (age < 7) entry.week += count;
      perKind.set(kind, entry);
    }
  }
  const reasons: Reason[] = [];
  for (const [kind, entry] of perKind) {
    if (entry.points <= 0) continue;
    let text: string;
    if (kind === 'pricing') text = entry.week > 0 ? `visited pricing ${times(entry.week)} this week` : `visited pricing ${times(entry.count)} this month`;
    else if (kind === 'conversion') text = `converted${aggregates.firstConversionName === null ? '' : `: ${aggregates.firstConversionName}`}`;
    else if (kind === 'docs') text = `read the docs on ${days(entry.days)}`;
    else if (kind === 'comparison') text = `compared alternatives ${times(entry.count)}`;
    else if (kind === 'security') text = `checked security and terms ${times(entry.count)}`;
    else if (kind === 'blog') text = `read the blog ${times(entry.count)}`;
    else if (kind === 'track') text = `used the product's tracked features ${times(entry.count)}`;
    else if (kind === 'identify') text = 'identified themselves';
    else text = `viewed ${entry.count} ${entry.count === 1 ? 'page' : 'pages'} this month`;
    reasons.push({ points: entry.points, text });
  }
  if (activeDays >= 3) reasons.push({ points: activeDays, text: `came back on ${days(activeDays)}` });
  return { points, reasons };
}

/** Engagement points as 0–50: `half` points give 25, and 50 is approached, never reached. */
export function engagementValue(points: number, half = HALF_ENGAGEMENT_POINTS): number {
  return Math.round((50 * points) / (points + half));
}

function engagement(aggregates: VisitorAggregates, now: string): { value: number; reasons: Reason[] } {
  const { points, reasons } = engagementPoints(aggregates, now);
  return { value: engagementValue(points), reasons };
}

/** The fit points of one person (0–50) and their reasons. */
export function fit(profile: FitProfile, ideal: IdealCustomer): { value: number; reasons: Reason[] } {
  const reasons: Reason[] = [];
  let value = 0;
  const company = profile.company;
  if (profile.emailKind === 'business') {
    value += 15;
    const size = company?.employees ? ` at a ${company.employees} company` : profile.emailDomain === null ? '' : ` at ${profile.emailDomain}`;
    reasons.push({ points: 15, text: `business email${size}` });
  }
  if (company !== null) {
    value += 10;
    if (profile.emailKind !== 'business') reasons.push({ points: 10, text: `works at ${company.name}` });
    if (same(company.main_industry, ideal.industries)) {
      value += 10;
      reasons.push({ points: 10, text: `in an ideal industry (${company.main_industry})` });
    }
    if (same(company.employees, ideal.employeeRanges)) {
      value += 10;
      reasons.push({ points: 10, text: `an ideal company size (${company.employees})` });
    }
  }
  if (same(profile.country, ideal.countries)) {
    value += 5;
    reasons.push({ points: 5, text: `from an ideal country (${profile.country})` });
  }
  return { value, reasons };
}

export function statusOf(score: number): LeadStatus {
  return score >= QUALIFIED_FROM ? 'qualified' : score >= ENGAGED_FROM ? 'engaged' : 'new';
}

export function scoreLead(aggregates: VisitorAggregates, profile: FitProfile, ideal: IdealCustomer, now: string): LeadScore {
  const engaged = engagement(aggregates, now);
  const fitted = fit(profile, ideal);
  const score = engaged.value + fitted.value;
  return { score, fit: fitted.value, engagement: engaged.value, status: statusOf(score), reasons: strongest([...engaged.reasons, ...fitted.reasons]) };
}

/** The texts of the strongest reasons, at most five, strongest first. */
export function strongest(reasons: readonly Reason[]): string[] {
  return [...reasons]
    .sort((a, b) => b.points - a.points || a.text.localeCompare(b.text))
    .slice(0, MAX_REASONS)
    .map((reason) => reason.text);
}
