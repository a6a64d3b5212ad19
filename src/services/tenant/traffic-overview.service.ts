/**
 * The overview's traffic (CONTRACT C9.5): for a range of UTC days and an
 * optional site, the figures of the period and of the previous period of
 * equal length, one point per day (with its leads by source), and the breakdowns, all read from
 * counters kept as events arrive (traffic_counts, page_counts, lead_counts)
 * and the identities' creation index: never the event log. Visitors are
 * counted once per day (docs/overview.md), so a period's visitors are the
 * sum of its days'. Leads and people identified are the workspace's, whatever
 * the site filter (a lead names no site).
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import { ALL_LEADS } from '../../repositories/tenant/lead-counts.repository.js';
import type { TrafficDay, TrafficValue } from '../../repositories/tenant/traffic-counts.repository.js';
import type { BreakdownRow, Figure, TrafficBreakdowns, TrafficDayPoint, TrafficFigures, TrafficOverview } from './traffic-overview.types.js';

const DAY_MS = 86_400_000;
/** the longest range the overview answers, in days */
export const MAX_RANGE_DAYS = 366;
/** rows per breakdown */
export const BREAKDOWN_ROWS = 10;
/** choices in the site filter */
const MAX_SITES = 100;

export interface DayRange {
  /** YYYY-MM-DD (UTC), inclusive */
  from: string;
  to: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** How many days the range holds, both ends included. */
export const rangeDays = (range: DayRange): number => Math.round((msOf(range.to) - msOf(range.from)) / DAY_MS) + 1;

/** The period of equal length that ends the day before `range` starts. */
export function previousRange(range: DayRange): DayRange {
  const days = rangeDays(range);
  return { from: dayOf(msOf(range.from) - days * DAY_MS), to: dayOf(msOf(range.from) - DAY_MS) };
}

/** The last `days` days ending today (UTC), today included. */
export function lastDays(days: number, at: number = Date.now()): DayRange {
  const today = msOf(dayOf(at));
  return { from: dayOf(today - (days - 1) * DAY_MS), to: dayOf(today) };
}

interface Totals {
  visitors: number;
  sessions: number;
  page_views: number;
  bounces: number;
  duration_ms: number;
  leads: number;
  identities: number;
}

const breakdown = (rows: TrafficValue[]): BreakdownRow[] =>
  rows.map((row) => ({ value: row.value, sessions: row.sessions, bounce_rate: row.sessions === 0 ? 0 : row.bounces / row.sessions }));

export class TrafficOverviewService {
  constructor(private readonly store: WorkspaceStore) {}

  async traffic(range: DayRange, site?: string): Promise<TrafficOverview> {
    const previous = previousRange(range);
    const repos = this.store.repos;
    const traffic = repos.trafficCounts;
    const [days, leadRows, identityRows, sites, pages, referrers, campaigns, countries, devices, browsers] = await Promise.all([
      traffic.days(previous.from, range.to, site),
      repos.leadCounts.range(previous.from, range.to),
      repos.identities.countByDay(previous.from),
      traffic.sites(MAX_SITES),
      repos.pageCounts.top(range.from, range.to, BREAKDOWN_ROWS, site),
      traffic.top('referrer', range.from, range.to, site, BREAKDOWN_ROWS),
      traffic.top('campaign', range.from, range.to, site, BREAKDOWN_ROWS, true),
      traffic.top('country', range.from, range.to, site, BREAKDOWN_ROWS),
      traffic.top('device', range.from, range.to, site, BREAKDOWN_ROWS),
      traffic.top('browser', range.from, range.to, site, BREAKDOWN_ROWS),
    ]);
    const points = new Map<string, TrafficDayPoint>();
    for (let ms = msOf(previous.from); ms <= msOf(range.to); ms += DAY_MS) {
      const day = dayOf(ms);
      points.set(day, { day, visitors: 0, page_views: 0, sessions: 0, leads: 0, by_source: {}, identities: 0 });
    }
    const extra = new Map<string, { bounces: number; duration_ms: number }>();
    for (const row of days) {
      const point = points.get(row.day);
      if (point === undefined) continue;
      point.visitors = visitorsOf(row, site);
      point.page_views = row.page_views;
      point.sessions = row.sessions;
      extra.set(row.day, { bounces: row.bounces, duration_ms: row.duration_ms });
    }
    const sourceTotals = new Map<string, number>();
    for (const row of leadRows) {
      const point = points.get(row.day);
      if (point === undefined) continue;
      if (row.bucket === ALL_LEADS) point.leads += row.count;
      else if (point.day >= range.from) {
        const source = row.bucket.slice(1);
        point.by_source[source] = (point.by_source[source] ?? 0) + row.count;
        sourceTotals.set(source, (sourceTotals.get(source) ?? 0) + row.count);
      }
    }
    const leadSources = [...sourceTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([source]) => source);
    const shown = [...points.values()].filter((point) => point.day >= range.from);
    for (const point of shown) for (const source of leadSources) point.by_source[source] ??= 0;
    for (const row of identityRows) {
      const point = points.get(row.day);
      if (point !== undefined) point.identities += row.count;
    }
    const total = (from: string, to: string): Totals => {
      const sum: Totals = { visitors: 0, sessions: 0, page_views: 0, bounces: 0, duration_ms: 0, leads: 0, identities: 0 };
      for (const point of points.values()) {
        if (point.day < from || point.day > to) continue;
        sum.visitors += point.visitors;
        sum.sessions += point.sessions;
        sum.page_views += point.page_views;
        sum.leads += point.leads;
        sum.identities += point.identities;
        sum.bounces += extra.get(point.day)?.bounces ?? 0;
        sum.duration_ms += extra.get(point.day)?.duration_ms ?? 0;
      }
      return sum;
    };
    const now = total(range.from, range.to);
    const before = total(previous.from, previous.to);
    const breakdowns: TrafficBreakdowns = {
      pages: pages.map((page) => ({ ...page, url: `https://${page.host}${page.path}` })),
      referrers: breakdown(referrers),
      campaigns: breakdown(campaigns),
      countries: breakdown(countries),
      devices: breakdown(devices),
      browsers: breakdown(browsers),
    };
    return {
      from: range.from,
      to: range.to,
      previous,
      site: site ?? null,
      sites,
      figures: figures(now, before),
      days: shown,
      lead_sources: leadSources,
      breakdowns,
    };
  }
}

/** A site's visitors of a day, or every site's (each visitor once a day). */
const visitorsOf = (row: TrafficDay, site: string | undefined) => (site === undefined ? row.all_sites_visitors : row.visitors);

function figures(now: Totals, before: Totals): TrafficFigures {
  const pair = (read: (totals: Totals) => number | null): Figure => ({ value: read(now), previous: read(before) });
  return {
    visitors: pair((t) => t.visitors),
    sessions: pair((t) => t.sessions),
    page_views: pair((t) => t.page_views),
    bounce_rate: pair((t) => (t.sessions === 0 ? null : t.bounces / t.sessions)),
    average_session_seconds: pair((t) => (t.sessions === 0 ? null : t.duration_ms / t.sessions / 1000)),
    leads: pair((t) => t.leads),
    identities: pair((t) => t.identities),
  };
}
