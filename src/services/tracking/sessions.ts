/**
 * Sessions (CONTRACT C5.4): a visitor's run of events with no gap over 30
 * minutes, at most 24 hours long. Events are placed in time order; one that
 * arrives late, before the visitor's latest session, joins the earlier
 * session it falls into, or starts a session of its own.
 */
import type { Session } from '../../repositories/tenant/sessions.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { newId } from '../ids.js';
import { sourceOf, utmOf } from './attribution.js';

export const SESSION_GAP_MS = 30 * 60_000;
export const SESSION_MAX_MS = 24 * 60 * 60_000;

/** Whether an event at `at` (ms) belongs to `session`. */
export function belongsTo(session: Pick<Session, 'started_at' | 'last_at'>, at: number): boolean {
  const start = Date.parse(session.started_at);
  const last = Date.parse(session.last_at);
  if (at < start - SESSION_GAP_MS || at > last + SESSION_GAP_MS) return false;
  return Math.max(last, at) - Math.min(start, at) <= SESSION_MAX_MS;
}

export function newSession(visitorId: string, at: number, userAgent: string | null, country: string | null = null): Session {
  const stamp = formatInstant(at);
  return {
    id: newId(),
    visitor_id: visitorId,
    started_at: stamp,
    last_at: stamp,
    landing_page: null,
    referrer: null,
    utm: {},
    source: 'website',
    events: 0,
    page_views: 0,
    user_agent: userAgent,
    country,
  };
}

export interface PlacedEvent {
  at: number;
  /** `at` as text */
  stamp: string;
  type: string;
  url: string | null;
  referrer: string | null;
}

/** Counts `event` in `session`; the session's first page view becomes its landing page. */
export function addToSession(session: Session, event: PlacedEvent): void {
  const { stamp } = event;
  if (stamp < session.started_at) session.started_at = stamp;
  if (stamp > session.last_at) session.last_at = stamp;
  session.events += 1;
  if (event.type !== 'page') return;
  session.page_views += 1;
  if (session.landing_page === null && event.url !== null) {
    session.landing_page = event.url;
    session.referrer = event.referrer;
    session.utm = utmOf(event.url);
    session.source = sourceOf(session.utm, event.referrer, event.url);
  }
}
