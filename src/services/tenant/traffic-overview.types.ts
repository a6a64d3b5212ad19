/**
 * The overview's traffic answer (CONTRACT C9.5), shared by the server (its
 * service and schema) and the dashboard (which imports these types rather
 * than keeping a copy). No imports: the dashboard's compiler reads it too.
 */

/** a figure of the period and of the previous period of equal length */
export interface Figure {
  value: number | null;
  previous: number | null;
}

export interface TrafficFigures {
  /** visitors counted once per UTC day (a visitor of three days counts three times), summed over the period's days */
  visitors: Figure;
  sessions: Figure;
  page_views: Figure;
  /** single-page sessions over sessions, from 0 to 1; null without sessions */
  bounce_rate: Figure;
  /** the sessions' total length over their number, in seconds; null without sessions */
  average_session_seconds: Figure;
  leads: Figure;
  /** people identified: identities created in the period */
  identities: Figure;
}

export interface TrafficDayPoint {
  day: string;
  visitors: number;
  page_views: number;
  sessions: number;
  leads: number;
  /** the day's leads by source; every source of `lead_sources` is present */
  by_source: Record<string, number>;
  identities: number;
}

export interface BreakdownRow {
  /** '' for none or unknown (a direct visit, no campaign, an unknown country or agent) */
  value: string;
  sessions: number;
  /** from 0 to 1 */
  bounce_rate: number;
}

export interface PageRow {
  host: string;
  path: string;
  /** the page's address (https, the scheme is not counted) */
  url: string;
  views: number;
}

export interface TrafficBreakdowns {
  pages: PageRow[];
  referrers: BreakdownRow[];
  campaigns: BreakdownRow[];
  countries: BreakdownRow[];
  devices: BreakdownRow[];
  browsers: BreakdownRow[];
}

export interface TrafficOverview {
  from: string;
  to: string;
  previous: { from: string; to: string };
  /** the site the figures are limited to; null for every site */
  site: string | null;
  /** the workspace's sites, most viewed first: the site filter's choices */
  sites: string[];
  figures: TrafficFigures;
  /** one point per day of the period, oldest first */
  days: TrafficDayPoint[];
  /** every lead source of the period, most leads first */
  lead_sources: string[];
  breakdowns: TrafficBreakdowns;
}
