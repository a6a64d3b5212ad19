/**
 * Running aggregates of one visitor (docs/intelligence.md, "Running
 * aggregates per visitor"): what scoring, personalities and segment rules
 * need, updated event by event, so that nothing rereads a visitor's history
 * when a new event arrives. Stored as JSON beside the visitor; pure
 * functions here, no I/O.
 */
import type { PageClassifier, PageKind } from './page-kinds.js';

/** What an event counts as: a page of some kind, or one of the other event types. */
export type ActivityKind = PageKind | 'track' | 'identify' | 'conversion';

export const WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface VisitorAggregates {
  /** events per kind for each of the last WINDOW_DAYS UTC days (YYYY-MM-DD) */
  days: Record<string, Partial<Record<ActivityKind, number>>>;
  /** lifetime events per kind */
  totals: Partial<Record<ActivityKind, number>>;
  pageViews: number;
  /** distinct UTC days with events, and the latest one */
  activeDays: number;
  lastDay: string | null;
  sessions: number;
  /** summed length (s) and page views of the sessions that ended */
  endedSeconds: number;
  endedPages: number;
  /** the session in progress */
  current: { id: string; start: string; last: string; pages: number } | null;
  firstSeen: string | null;
  firstConversionAt: string | null;
  firstConversionName: string | null;
  /** seen from a hosting network: kept out of scoring and personalities */
  hosting: boolean;
}

export interface IntelligenceEvent {
  type: 'page' | 'track' | 'identify' | 'conversion';
  /** canonical instant */
  ts: string;
  session_id: string;
  path?: string | null;
  name?: string | null;
}

export function emptyAggregates(): VisitorAggregates {
  return {
    days: {},
    totals: {},
    pageViews: 0,
    activeDays: 0,
    lastDay: null,
    sessions: 0,
    endedSeconds: 0,
    endedPages: 0,
    current: null,
    firstSeen: null,
    firstConversionAt: null,
    firstConversionName: null,
    hosting: false,
  };
}

export function kindOf(event: IntelligenceEvent, pages: PageClassifier): ActivityKind {
  return event.type === 'page' ? pages.kindOf(event.path ?? '/') : event.type;
}

const seconds = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

/** The aggregates with `event` counted (a new object; `aggregates` is not changed). */
export function addEvent(aggregates: VisitorAggregates, event: IntelligenceEvent, pages: PageClassifier, now: string): VisitorAggregates {
  const next: VisitorAggregates = structuredClone(aggregates);
  countEvent(next, event, pages, now);
  return trimDays(next, now);
}

/**
 * Counts `event` into `next` itself (no copy, no trimming: the ingest path
 * counts a batch's events into one copy and trims once, trimDays).
 */
export function countEvent(next: VisitorAggregates, event: IntelligenceEvent, pages: PageClassifier, now: string): void {
  const kind = kindOf(event, pages);
  const day = event.ts.slice(0, 10);
  next.totals[kind] = (next.totals[kind] ?? 0) + 1;
  if (Date.parse(now) - Date.parse(`${day}T00:00:00.000Z`) < WINDOW_DAYS * DAY_MS) {
    if (next.days[day] === undefined) {
      next.days[day] = {};
      next.activeDays += 1;
    }
    const counts = next.days[day];
    counts[kind] = (counts[kind] ?? 0) + 1;
  } else if (next.lastDay !== day) {
    next.activeDays += 1;
  }
  if (next.lastDay === null || day > next.lastDay) next.lastDay = day;
  if (event.type === 'page') next.pageViews += 1;
  if (next.firstSeen === null || event.ts < next.firstSeen) next.firstSeen = event.ts;
  if (event.type === 'conversion' && (next.firstConversionAt === null || event.ts < next.firstConversionAt)) {
    next.firstConversionAt = event.ts;
    next.firstConversionName = event.name ?? null;
  }
  if (next.current === null || next.current.id !== event.session_id) {
    if (next.current !== null) {
      next.endedSeconds += seconds(next.current.start, next.current.last);
      next.endedPages += next.current.pages;
    }
    next.sessions += 1;
    next.current = { id: event.session_id, start: event.ts, last: event.ts, pages: 0 };
  }
  if (event.ts > next.current.last) next.current.last = event.ts;
  if (event.ts < next.current.start) next.current.start = event.ts;
  if (event.type === 'page') next.current.pages += 1;
}

/** The aggregates without the days that left the window. */
export function trimDays(aggregates: VisitorAggregates, now: string): VisitorAggregates {
  const oldest = new Date(Date.parse(now) - (WINDOW_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  for (const day of Object.keys(aggregates.days)) if (day < oldest) delete aggregates.days[day];
  return aggregates;
}

/** Whole days between a UTC day and `now`'s day. */
export function ageInDays(day: string, now: string): number {
  return Math.round((Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`) - Date.parse(`${day}T00:00:00.000Z`)) / DAY_MS);
}

/** Length (s) and page views of every session so far, the one in progress included. */
export function sessionTotals(aggregates: VisitorAggregates): { seconds: number; pages: number } {
  const current = aggregates.current;
  return {
    seconds: aggregates.endedSeconds + (current === null ? 0 : seconds(current.start, current.last)),
    pages: aggregates.endedPages + (current?.pages ?? 0),
  };
}
