/**
 * What a segment rule may ask about one identity (CONTRACT C6.4), built the
 * same way for the worker that keeps segments' members (refresh-visitor.ts)
 * and for the dashboard's count of a draft rule (C9.6), so that the count
 * before saving is the membership after: the identity's fields and traits,
 * its company (its own, else its visitors' network's), its visitors'
 * aggregates summed, the score, and its recent events for event tests with
 * a page pattern or an event name. Pure: callers read the rows.
 */
import { emptyAggregates, type VisitorAggregates } from '../../intelligence/aggregates.js';
import type { VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import type { SegmentSubject } from '../../intelligence/segments/evaluate.js';
import type { EventTest, SegmentRule } from '../../intelligence/segments/rule.js';
import type { Visitor } from '../../repositories/tenant/visitors.repository.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import type { Company, Identity } from '../../schemas/resources.js';
import { formatInstant } from '../../schemas/instants.js';
import type { ResolvedSettings } from './settings-cache.js';

const DAY_MS = 86_400_000;
/** event tests with a page pattern or an event name read at most this many of a visitor's recent events */
export const EVENT_READ_LIMIT = 10_000;
/** how far back those recent events are read (the longest window a rule may ask about, and a day) */
export const RECENT_EVENTS_MS = 31 * DAY_MS;

export type IdentityWithCompany = Identity & { company_id: string | null };

export const parseAggregates = (text: string | null): VisitorAggregates => (text === null ? emptyAggregates() : (JSON.parse(text) as VisitorAggregates));

/** The aggregates of several visitors of one identity, summed (segment rules ask about the identity). */
export function mergeAggregates(all: VisitorAggregates[]): VisitorAggregates {
  if (all.length === 1) return all[0]!;
  const merged = emptyAggregates();
  const add = (into: Record<string, number | undefined>, from: Record<string, number | undefined>) => {
    for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + (value ?? 0);
  };
  for (const one of all) {
    for (const [day, counts] of Object.entries(one.days)) add((merged.days[day] ??= {}), counts);
    add(merged.totals, one.totals);
    merged.pageViews += one.pageViews;
    merged.sessions += one.sessions;
    merged.hosting ||= one.hosting;
    merged.activeDays = Math.max(merged.activeDays, one.activeDays);
  }
  return merged;
}

/** The company an identity's segments see: its own, else the first of its visitors' networks that names one. */
export function subjectCompanyId(identity: { company_id: string | null }, visitors: readonly Visitor[]): string | null {
  if (identity.company_id !== null) return identity.company_id;
  const network = visitors.find((visitor) => visitor.network !== null)?.network ?? null;
  return network === null ? null : ((JSON.parse(network) as VisitorNetwork).company_id ?? null);
}

function eventKind(event: LoggedEvent, settings: ResolvedSettings): string {
  return event.type === 'page' ? settings.classifier.kindOf(event.path ?? '/') : event.type;
}

/** Whether a rule has event tests with a page pattern or an event name (they read the visitor's recent events). */
export function usesEventDetail(rule: SegmentRule): boolean {
  const list = 'all' in rule ? rule.all : rule.any;
  return list.some((condition) =>
    'all' in condition || 'any' in condition
      ? usesEventDetail(condition)
      : 'events' in condition && (condition.events.path !== undefined || condition.events.name !== undefined),
  );
}

export interface SubjectParts {
  identity: Pick<Identity, 'email' | 'name' | 'city' | 'country' | 'is_favorite' | 'traits'>;
  company: Company | null;
  visitors: readonly Visitor[];
  score: { score: number; status: string } | null;
  /** the visitors' events since RECENT_EVENTS_MS before now (only when a rule needs them) */
  recent: readonly LoggedEvent[] | undefined;
  settings: ResolvedSettings;
  now: string;
  /** the visitors' aggregates already parsed and summed (else parsed here from `visitors`) */
  aggregates?: VisitorAggregates;
}

export function segmentSubject(parts: SubjectParts): SegmentSubject {
  const { identity, company, visitors, score, recent, settings, now } = parts;
  return {
    identity: {
      email: identity.email,
      name: identity.name,
      city: identity.city,
      country: identity.country,
      is_favorite: identity.is_favorite,
      traits: identity.traits,
    },
    company: company === null ? null : { name: company.name, domain: company.domain, employees: company.employees, main_industry: company.main_industry },
    score: score?.score ?? null,
    status: score?.status ?? null,
    aggregates: parts.aggregates ?? (visitors.length === 0 ? emptyAggregates() : mergeAggregates(visitors.map((visitor) => parseAggregates(visitor.aggregates)))),
    now,
    countEvents(test: EventTest['events'], matches) {
      const since = formatInstant(Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`) - (test.within_days - 1) * DAY_MS);
      let count = 0;
      for (const event of recent ?? []) {
        if (event.occurred_at < since) continue;
        const kind = eventKind(event, settings);
        const kindMatches = test.kind === kind || (test.kind === 'page_view' && event.type === 'page');
        if (kindMatches && matches(event.path, event.name)) count += 1;
      }
      return count;
    },
  };
}
