/**
 * The dashboard's overview of a workspace: leads per UTC day by source over
 * the last N days (or a range of days), read from the per-day counters that keep lead totals
 * exact (lead_counts), new identities per day, and the most viewed pages
 * of the period (from the per-day page counters the ingest keeps,
 * page_counts). Days without any are filled with zeros, so a chart has one
 * point per day.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import { ALL_LEADS } from '../../repositories/tenant/lead-counts.repository.js';
import type { TopPage } from '../../repositories/tenant/page-counts.repository.js';
import { lastDays, rangeDays, type DayRange } from './traffic-overview.service.js';

const DAY_MS = 86_400_000;
/** how many of the most viewed pages the overview shows */
export const TOP_PAGES = 10;

export interface OverviewDay {
  day: string;
  leads: number;
  /** leads by source; sources absent on a day are 0 */
  by_source: Record<string, number>;
  identities: number;
}

export interface Overview {
  days: OverviewDay[];
  /** every source seen in the period, most leads first */
  sources: string[];
  totals: { leads: number; identities: number };
  /** the most viewed pages of the period, most views first */
  top_pages: TopPage[];
}

/** Whether tracking has started (C9.8): the first-run page waits for this to turn true. */
export interface TrackingStatus {
  received_events: boolean;
}

export class OverviewService {
  constructor(private readonly store: WorkspaceStore) {}

  /** One indexed probe (a visitor row is written with a workspace's first accepted event), cheap enough to poll. */
  async trackingStatus(): Promise<TrackingStatus> {
    return { received_events: await this.store.repos.visitors.any() };
  }

  /** The last `days` days, today (UTC) included. */
  async summary(days: number, at: number = Date.now()): Promise<Overview> {
    return this.summaryOf(lastDays(days, at));
  }

  /** From `range.from` to `range.to`, both included (UTC days); at most MAX_RANGE_DAYS (the caller checks). */
  async summaryOf(range: DayRange): Promise<Overview> {
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const first = range.from;
    const [counts, identities, topPages] = await Promise.all([
      this.store.repos.leadCounts.range(first, range.to),
      this.store.repos.identities.countByDay(first),
      this.store.repos.pageCounts.top(first, range.to, TOP_PAGES),
    ]);
    const byDay = new Map<string, OverviewDay>();
    const start = Date.parse(`${first}T00:00:00.000Z`);
    for (let index = 0; index < rangeDays(range); index += 1) {
      const day = dayOf(start + index * DAY_MS);
      byDay.set(day, { day, leads: 0, by_source: {}, identities: 0 });
    }
    const sourceTotals = new Map<string, number>();
    for (const row of counts) {
      const entry = byDay.get(row.day);
      if (entry === undefined) continue;
      if (row.bucket === ALL_LEADS) entry.leads += row.count;
      else {
        const source = row.bucket.slice(1);
        entry.by_source[source] = (entry.by_source[source] ?? 0) + row.count;
        sourceTotals.set(source, (sourceTotals.get(source) ?? 0) + row.count);
      }
    }
    for (const row of identities) {
      const entry = byDay.get(row.day);
      if (entry !== undefined) entry.identities += row.count;
    }
    const sources = [...sourceTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([source]) => source);
    const list = [...byDay.values()];
    for (const entry of list) for (const source of sources) entry.by_source[source] ??= 0;
    return {
      days: list,
      sources,
      totals: { leads: list.reduce((sum, entry) => sum + entry.leads, 0), identities: list.reduce((sum, entry) => sum + entry.identities, 0) },
      top_pages: topPages,
    };
  }
}
