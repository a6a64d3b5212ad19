/**
 * What a batch adds to the overview's traffic counters (C9.5;
 * docs/overview.md), gathered in memory and written in two steps per batch,
 * the markers then the counters (traffic-counts.repository.ts):
 * - a page view counts in its UTC day's page views on its site (the page
 *   URL's host);
 * - a visitor counts once per UTC day and site, at its first page view
 *   there (a visitor_days marker; only markers that were new count), and
 *   once per day over all sites;
 * - a session counts once it has a page view, on the UTC day it started and
 *   the site of its landing page, with its referrer's domain (none when it
 *   is the site itself), UTM campaign, country, device type and browser; it
 *   is a bounce while it has one page view; its length runs from its first
 *   event to its last. A session that grows in a later batch takes back
 *   what it counted before and counts again as it is now, so the counters
 *   always equal the sessions as stored.
 */
import { PendingTraffic, type TrafficCountsRepository, type VisitorDay } from '../../repositories/tenant/traffic-counts.repository.js';
import type { Session } from '../../repositories/tenant/sessions.repository.js';
import { memoize } from './memo.js';
import { agentOf } from './user-agents.js';

/** the breakdowns a session counts in, besides the site's totals */
export const SESSION_DIMENSIONS = ['referrer', 'campaign', 'country', 'device', 'browser'] as const;
export type SessionDimension = (typeof SESSION_DIMENSIONS)[number];

const VALUE_MAX = 200;

/** What one session counts, where. */
export interface SessionCount {
  day: string;
  host: string;
  values: Record<SessionDimension, string>;
  bounce: number;
  duration_ms: number;
}

const parsedHost = memoize((url) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}, 5_000);

/** A URL's host as the URL parser gives it (with a port, if any), lower case; '' when it has none. */
export function hostOf(url: string | null): string {
  return url === null ? '' : parsedHost(url);
}

/** The referrer's domain without `www.`; '' when there is none or it is the landing page's own site. */
export function referrerDomain(referrer: string | null, landingHost: string): string {
  const host = hostOf(referrer);
  if (host === '' || host === landingHost) return '';
  return host.replace(/^www\./, '').slice(0, VALUE_MAX);
}

/** What a session counts as it is; undefined while it has no page view. */
export function sessionCount(session: Pick<Session, 'started_at' | 'last_at' | 'landing_page' | 'referrer' | 'utm' | 'page_views' | 'user_agent' | 'country'>): SessionCount | undefined {
  if (session.page_views < 1) return undefined;
  const host = hostOf(session.landing_page);
  const agent = agentOf(session.user_agent);
  return {
    day: session.started_at.slice(0, 10),
    host,
    values: {
      referrer: referrerDomain(session.referrer, host),
      campaign: (session.utm.utm_campaign ?? '').slice(0, VALUE_MAX),
      country: session.country ?? '',
      device: agent.device,
      browser: agent.browser,
    },
    bounce: session.page_views === 1 ? 1 : 0,
    duration_ms: Math.max(0, Date.parse(session.last_at) - Date.parse(session.started_at)),
  };
}

/** Adds `count` (sign 1) or takes it back (sign -1). */
export function addSession(pending: PendingTraffic, count: SessionCount, sign: 1 | -1): void {
  const delta = { sessions: sign, bounces: sign * count.bounce, duration_ms: sign * count.duration_ms };
  pending.add('', count.day, count.host, '', delta);
  for (const dimension of SESSION_DIMENSIONS) pending.add(dimension, count.day, count.host, count.values[dimension], delta);
}

/** Page views of a visitor on one site and day, as the counters see them. */
export interface PageSeen {
  visitorId: string;
  /** YYYY-MM-DD (UTC) */
  day: string;
  host: string;
  /** how many (a visitor's views in a row on one site and day are counted together) */
  views: number;
}

/**
 * Counts page views, and gives the visitor-day markers to record: one per
 * visitor, day and site, and one per visitor and day for any site (host '').
 * `firstHost` remembers, per visitor and day, the site of its first page
 * view in the batch: the site an all-sites visitor counts on.
 */
export function countPages(pending: PendingTraffic, pages: readonly PageSeen[]): { markers: VisitorDay[]; firstHost: Map<string, string> } {
  const markers = new Map<string, VisitorDay>();
  const firstHost = new Map<string, string>();
  for (const page of pages) {
    pending.add('', page.day, page.host, '', { page_views: page.views });
    const onSite = `${page.day}\u0000${page.host}\u0000${page.visitorId}`;
    if (!markers.has(onSite)) markers.set(onSite, { day: page.day, host: page.host, visitor_id: page.visitorId });
    const anySite = `${page.day}\u0000\u0000${page.visitorId}`;
    if (!markers.has(anySite)) {
      markers.set(anySite, { day: page.day, host: '', visitor_id: page.visitorId });
      firstHost.set(`${page.day}\u0000${page.visitorId}`, page.host);
    }
  }
  return { markers: [...markers.values()], firstHost };
}

/** Counts the visitors whose markers were new. */
export function countVisitors(pending: PendingTraffic, added: readonly VisitorDay[], firstHost: ReadonlyMap<string, string>): void {
  for (const marker of added) {
    if (marker.host !== '') pending.add('', marker.day, marker.host, '', { visitors: 1 });
    else pending.add('', marker.day, firstHost.get(`${marker.day}\u0000${marker.visitor_id}`) ?? '', '', { all_sites_visitors: 1 });
  }
}

/** One visitor's part of a batch: its sessions as the batch left them, what the stored ones counted before, its new events. */
export interface VisitorTraffic {
  visitorId: string;
  sessions: Iterable<Session>;
  /** what each stored session the batch touched counted before it (undefined: nothing) */
  before: ReadonlyMap<string, SessionCount | undefined>;
  logged: readonly { type: string; occurred_at: string; url: string | null }[];
}

/** Counts a batch in the traffic counters: two steps (markers, counters), or one when it has no page view. */
export async function countTraffic(repository: TrafficCountsRepository, visitors: readonly VisitorTraffic[]): Promise<void> {
  const pending = new PendingTraffic();
  const pages: PageSeen[] = [];
  for (const visitor of visitors) {
    for (const session of visitor.sessions) {
      const before = visitor.before.get(session.id);
      if (before !== undefined) addSession(pending, before, -1);
      const now = sessionCount(session);
      if (now !== undefined) addSession(pending, now, 1);
    }
    // a visitor's views in a row on one site and day are counted together: one
    // addition per run rather than per view (issue 24's profile of ingest)
    let last: PageSeen | undefined;
    for (const event of visitor.logged) {
      if (event.type !== 'page' || event.url === null) continue;
      const host = hostOf(event.url);
      if (last !== undefined && last.host === host && event.occurred_at.startsWith(last.day)) last.views += 1;
      else pages.push((last = { visitorId: visitor.visitorId, day: event.occurred_at.slice(0, 10), host, views: 1 }));
    }
  }
  const { markers, firstHost } = countPages(pending, pages);
  if (markers.length > 0) countVisitors(pending, await repository.markVisitorDays(markers), firstHost);
  await repository.add(pending);
}
