/**
 * What a batch of events becomes (CONTRACT C5.4 to C5.7), in the transaction
 * that appends them to the log, so that a 202 means both are stored: the
 * events are placed in sessions, the visitors' state is brought up to date,
 * identifies upsert identities by email and link visitors to them (with the
 * visitor's events of the previous 30 days back-filled as activity on its
 * first identification), every event of an identified visitor becomes an
 * activity entry, every conversion becomes one lead, and every page view
 * counts in its page's views of the day (page_counts: the overview's top pages),
 * visitors, sessions and their breakdowns count in the overview's traffic
 * counters (traffic.ts),
 * and each visitor names the company its identity or network names, whose
 * last visit moves with it (C6.9).
 *
 * One visitor's events are derived by one transaction at a time: the batch
 * first takes a lock per visitor and per email it identifies (one statement,
 * in sorted order; TenantScope.lock), so two requests for one visitor never
 * interleave and two visitors identified with one new email make one
 * identity. Within a visitor, events are taken in time order.
 */
import { countEvent, emptyAggregates, trimDays, type VisitorAggregates } from '../../intelligence/aggregates.js';
import { NO_RULES, type CompanyRule, type RuleSet } from '../../intelligence/company-rules.js';
import { namesCompany, reverseDnsWorthy, type VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import { PageClassifier } from '../../intelligence/page-kinds.js';
import type { TenantRepositories } from '../../repositories/index.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import type { IdentityChanges } from '../../repositories/tenant/identities.repository.js';
import type { NewLead } from '../../repositories/tenant/leads.repository.js';
import type { NewActivity } from '../../repositories/tenant/activity.repository.js';
import { PendingPageViews } from '../../repositories/tenant/page-counts.repository.js';
import type { Session } from '../../repositories/tenant/sessions.repository.js';
import type { Visitor } from '../../repositories/tenant/visitors.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import type { JsonObject, JsonValue } from '../../schemas/json.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import type { TrackedEvent } from '../../schemas/tracked-events.js';
import { newId } from '../ids.js';
import { companyOfEmail, companyOfNetwork, networkMatch, ruleLink, setIdentityCompany, type CompanyLink } from '../intelligence/companies.js';
import { activityEntry, type ActivityIdentity } from './activity-entries.js';
import { pathOf } from './attribution.js';
import { addToSession, belongsTo, newSession, SESSION_GAP_MS } from './sessions.js';
import { countTraffic, hostOf, sessionCount, type SessionCount } from './traffic.js';
import { emitEvent } from '../webhooks/events.js';
import { fireAlertsOnBatch } from '../alerts/on-events.js';

const DAY_MS = 86_400_000;
/** how far back a visitor's events become activity on its first identification (C5.6) */
export const BACKFILL_MS = 30 * DAY_MS;
/** at most this many of them (the most active visitors' oldest events beyond it are left out) */
const BACKFILL_LIMIT = 10_000;

/** An event accepted for a visitor, at its time after the clock rules (C5.3). */
export interface IncomingEvent {
  event: TrackedEvent;
  at: number;
  /** `at` as text (YYYY-MM-DDTHH:mm:ss.sssZ) */
  occurredAt: string;
  visitorId: string;
}

/** What the request says about where the events come from. */
export interface RequestFacts {
  receivedAt: string;
  /** the client address as IP_STORAGE keeps it */
  ip: string | null;
  city: string | null;
  country: string | null;
  userAgent: string | null;
  /** the network of the client address (C6.1), from the shipped ASN ranges; null when unknown */
  network: VisitorNetwork | null;
  /** the workspace's page kinds (docs/intelligence.md) */
  pages?: PageClassifier;
  /** the workspace's company rules (C6.8), for email domains */
  rules?: RuleSet;
  /** the rule for the request's address and network, if any (C6.8) */
  networkRule?: CompanyRule;
  /** the client address to look up in reverse DNS when the network names no company (C6.6); absent when REVERSE_DNS=off */
  reverseDnsAddress?: string;
}

const DEFAULT_PAGES = new PageClassifier();

interface VisitorWork {
  visitor: Visitor;
  isNew: boolean;
  /** the sessions this batch touched, by id */
  sessions: Map<string, Session>;
  newSessions: Set<string>;
  /** the visitor's new events, in time order */
  logged: LoggedEvent[];
  /** the visitor's network, parsed (visitors.network) */
  network: VisitorNetwork | null;
  /** first seen from a hosting network in this batch */
  newlyHosting: boolean;
  /** what each stored session the batch touched counted in the traffic counters before it (traffic.ts) */
  before: Map<string, SessionCount | undefined>;
}

/** RFC 7396 applied to {}: the patch without its null members, at every depth. */
function withoutNulls(patch: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) continue;
    result[key] = typeof value === 'object' && !Array.isArray(value) ? withoutNulls(value) : value;
  }
  return result;
}

const emailOf = (event: TrackedEvent) => (event.type === 'identify' && typeof event.traits?.email === 'string' ? event.traits.email : undefined);

function loggedEvent(item: IncomingEvent, session: Session, facts: RequestFacts): LoggedEvent {
  const { event } = item;
  const url = event.url ?? null;
  return {
    id: event.id.toLowerCase(),
    occurred_at: item.occurredAt,
    received_at: facts.receivedAt,
    visitor_id: item.visitorId,
    session_id: session.id,
    type: event.type,
    name: event.name ?? null,
    url,
    path: pathOf(url),
    title: event.title ?? null,
    referrer: event.referrer === undefined || event.referrer === '' ? null : event.referrer,
    code: event.code ?? null,
    data: (event.properties ?? event.traits ?? null) as JsonObject | null,
    ip: facts.ip,
    city: facts.city,
    country: facts.country,
  };
}

function blankVisitor(id: string, first: number, facts: RequestFacts): Visitor {
  const stamp = formatInstant(first);
  return {
    id,
    identity_id: null,
    identified_at: null,
    first_seen: stamp,
    last_seen: stamp,
    session_id: '',
    session_started_at: stamp,
    session_last_at: stamp,
    last_url: null,
    last_ip: null,
    last_city: null,
    last_country: null,
    events: 0,
    page_views: 0,
    sessions: 0,
    created_at: facts.receivedAt,
    aggregates: null,
    network: null,
    company_id: null,
  };
}

/** Places a visitor's new events (time order) in sessions and brings the visitor's state up to date. */
async function placeVisitor(repos: TenantRepositories, visitorId: string, events: IncomingEvent[], facts: RequestFacts): Promise<VisitorWork> {
  const existing = await repos.visitors.find(visitorId);
  const visitor = existing === undefined ? blankVisitor(visitorId, events[0]!.at, facts) : { ...existing };
  const work: VisitorWork = {
    visitor,
    isNew: existing === undefined,
    sessions: new Map(),
    newSessions: new Set(),
    logged: [],
    network: visitor.network === null ? null : (JSON.parse(visitor.network) as VisitorNetwork),
    newlyHosting: false,
    before: new Map(),
  };
  const loaded = (session: Session) => {
    work.sessions.set(session.id, session);
    work.before.set(session.id, sessionCount(session));
  };
  let current = existing === undefined ? undefined : await repos.sessions.find(existing.session_id);
  if (current !== undefined) loaded(current);

  const start = (at: number) => {
    const session = newSession(visitorId, at, facts.userAgent, facts.country);
    work.sessions.set(session.id, session);
    work.newSessions.add(session.id);
    visitor.sessions += 1;
    return session;
  };
  /** an event before the latest session: the earlier session it falls into, or one of its own */
  const earlier = async (at: number) => {
    const touched = [...work.sessions.values()].find((session) => belongsTo(session, at));
    if (touched !== undefined) return touched;
    const stored = await repos.sessions.latestStartedBy(visitorId, formatInstant(at + SESSION_GAP_MS));
    if (stored !== undefined && belongsTo(stored, at)) {
      loaded(stored);
      return stored;
    }
    return start(at);
  };

  for (const item of events) {
    let session = current !== undefined && belongsTo(current, item.at) ? current : undefined;
    if (session === undefined) {
      if (current === undefined || item.at > Date.parse(current.last_at)) {
        session = start(item.at);
        current = session;
      } else {
        session = await earlier(item.at);
      }
    }
    const logged = loggedEvent(item, session, facts);
    addToSession(session, { at: item.at, stamp: logged.occurred_at, type: logged.type, url: logged.url, referrer: logged.referrer });
    if (logged.occurred_at < visitor.first_seen) visitor.first_seen = logged.occurred_at;
    if (logged.occurred_at >= visitor.last_seen) {
      visitor.last_seen = logged.occurred_at;
      visitor.last_ip = facts.ip;
      visitor.last_city = facts.city;
      visitor.last_country = facts.country;
      if (logged.url !== null) visitor.last_url = logged.url;
    }
    visitor.events += 1;
    if (logged.type === 'page') visitor.page_views += 1;
    work.logged.push(logged);
  }
  const latest = current as Session;
  visitor.session_id = latest.id;
  visitor.session_started_at = latest.started_at;
  visitor.session_last_at = latest.last_at;
  await countIntelligence(repos, work, facts);
  return work;
}

/**
 * Brings the visitor's running aggregates and network up to date (C6;
 * docs/intelligence.md): the batch's events are counted, unless they come
 * from a hosting network, which flags the visitor instead; a business
 * network that names a company is linked to it once.
 */
async function countIntelligence(repos: TenantRepositories, work: VisitorWork, facts: RequestFacts): Promise<void> {
  const { visitor } = work;
  const aggregates: VisitorAggregates = visitor.aggregates === null ? emptyAggregates() : (JSON.parse(visitor.aggregates) as VisitorAggregates);
  const network = facts.network;
  if (network?.class === 'hosting') {
    work.newlyHosting = !aggregates.hosting;
    aggregates.hosting = true;
  } else {
    const pages = facts.pages ?? DEFAULT_PAGES;
    for (const event of work.logged) {
      countEvent(aggregates, { type: event.type, ts: event.occurred_at, session_id: event.session_id, path: event.path, name: event.name }, pages, facts.receivedAt);
    }
  }
  visitor.aggregates = JSON.stringify(trimDays(aggregates, facts.receivedAt));
  const rule = facts.networkRule;
  if ((network !== null || rule !== undefined) && work.logged.some((event) => event.occurred_at === visitor.last_seen)) {
    const known = work.network;
    const seen: VisitorNetwork = network ?? { class: 'business', asn: 0, organization: '', confidence: 0 };
    if (known === null || known.asn !== seen.asn || known.rule_id !== rule?.id) {
      const next: VisitorNetwork = { ...seen };
      if (rule !== undefined) {
        // a rule wins over every automatic source (C6.8)
        next.rule_id = rule.id;
        const link = ruleLink(rule, network === null ? {} : { asn: network.asn, organization: network.organization });
        if (link !== undefined) {
          next.company_id = link.companyId;
          next.match = link.match;
        }
      } else if (namesCompany(network)) {
        next.company_id = await companyOfNetwork(repos, network, facts.receivedAt);
      } else if (facts.reverseDnsAddress !== undefined && reverseDnsWorthy(network)) {
        await repos.reverseDnsDue.enqueue(visitor.id, facts.reverseDnsAddress, facts.receivedAt);
      }
      work.network = next;
      visitor.network = JSON.stringify(next);
    }
  }
}

/** The company a visitor's network names, as a lead's link. */
function networkLink(work: VisitorWork): CompanyLink | undefined {
  const network = work.network;
  return network?.company_id === undefined ? undefined : { companyId: network.company_id, match: networkMatch(network) };
}

/** A conversion's lead (C5.7). */
function conversionLead(event: LoggedEvent, work: VisitorWork, facts: RequestFacts, company: CompanyLink | undefined): NewLead {
  const session = work.sessions.get(event.session_id);
  const derived: JsonObject = { ...(session?.utm ?? {}) };
  const add = (key: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) derived[key] = value;
  };
  add('landing_page', session?.landing_page);
  add('referrer', session?.referrer);
  add('page', event.url ?? work.visitor.last_url);
  const location: JsonObject = {};
  if (facts.city !== null) location.city = facts.city;
  if (facts.country !== null) location.country = facts.country;
  return {
    id: newId(),
    visitor_id: work.visitor.id,
    code: event.code ?? event.name,
    source: session?.source ?? 'website',
    created_at: event.occurred_at,
    updated_at: event.occurred_at,
    // the event's own properties win over the session's of the same name
    properties: { ...derived, ...(event.data ?? {}), ...(company === undefined ? {} : { company_match: company.match }) },
    location,
    identity_id: work.visitor.identity_id,
    session_id: event.session_id,
    summary: null,
    company_id: company?.companyId ?? null,
  };
}

/** Identities, activity and leads of one visitor's new events (time order). */
async function identifyAndConvert(
  repos: TenantRepositories,
  work: VisitorWork,
  facts: RequestFacts,
  activity: NewActivity[],
  leads: NewLead[],
): Promise<void> {
  const { visitor } = work;
  let identity: ActivityIdentity | undefined;
  if (visitor.identity_id !== null) {
    const linked = await repos.identities.findById(visitor.identity_id);
    if (linked !== undefined) identity = { id: linked.id, name: linked.name, email: linked.email };
  }
  let createdHere: string | undefined;
  const rules = facts.rules ?? NO_RULES;
  const visitorLeads: NewLead[] = [];
  /** the identity's company (C6.1): undefined until needed, then the link or null */
  let company: CompanyLink | null | undefined;
  const companyNow = async (): Promise<CompanyLink | null> => {
    if (company !== undefined) return company;
    company = null;
    const network = networkLink(work);
    // a rule wins over every automatic source (C6.8)
    if (network?.match.source === 'rule') return (company = network);
    if (identity !== undefined) {
      const linked = await repos.identities.companyOf(identity.id);
      if (linked !== null) {
        const fromEmail = identity.email === null ? undefined : await companyOfEmail(repos, identity.email, facts.receivedAt, rules);
        company = fromEmail?.companyId === linked ? fromEmail : { companyId: linked, match: network?.match ?? { source: 'network' } };
      }
    }
    company ??= network ?? null;
    return company;
  };

  for (const [index, event] of work.logged.entries()) {
    if (event.type === 'identify') {
      const { email, name, ...others } = (event.data ?? {}) as Record<string, JsonValue>;
      const changes: IdentityChanges = {};
      if (name !== undefined) changes.name = name as string | null;
      if (Object.keys(others).length > 0) changes.traits = { mode: 'merge', patch: others as JsonObject };
      if (typeof email === 'string') {
        let found = await repos.identities.findByEmail(email);
        if (found === undefined) {
          found = await repos.identities.insert({
            id: newId(),
            visitor_id: visitor.id,
            email,
            name: typeof name === 'string' ? name : null,
            traits: withoutNulls(others as JsonObject),
            first_seen: visitor.first_seen,
            last_seen: visitor.last_seen,
            ip: visitor.last_ip,
            city: visitor.last_city,
            country: visitor.last_country,
            is_favorite: false,
            created_at: event.occurred_at,
          });
          createdHere = found.id;
          await emitEvent(repos, 'identity.created', found, facts.receivedAt);
        } else if (Object.keys(changes).length > 0) {
          found = (await repos.identities.update(found.id, changes)) ?? found;
          await emitEvent(repos, 'identity.updated', found, facts.receivedAt);
        }
        identity = { id: found.id, name: found.name, email: found.email };
        company = undefined;
        const byEmail = await companyOfEmail(repos, email, event.occurred_at, rules);
        if (byEmail !== undefined && (await repos.identities.companyOf(found.id)) !== byEmail.companyId) {
          // an email's company wins over a network's (C6.1)
          await setIdentityCompany(repos, found.id, byEmail.companyId);
        }
        if (visitor.identity_id !== found.id) {
          const first = visitor.identity_id === null;
          visitor.identity_id = found.id;
          visitor.identified_at ??= event.occurred_at;
          await repos.leads.identifyVisitor(visitor.id, found.id, facts.receivedAt);
          await emitEvent(repos, 'identity.identified', { identity: found, visitor_id: visitor.id }, facts.receivedAt);
          for (const lead of visitorLeads) lead.identity_id ??= found.id;
          if (first) {
            // its earlier events become activity; this one and the batch's later ones follow below
            const later = new Set(work.logged.slice(index).map((next) => next.id));
            const since = formatInstant(Date.parse(event.occurred_at) - BACKFILL_MS);
            for (const past of await repos.events.forVisitor(visitor.id, since, BACKFILL_LIMIT)) {
              if (!later.has(past.id)) activity.push(activityEntry(past, identity));
            }
          }
        }
      } else if (identity !== undefined && Object.keys(changes).length > 0) {
        const updated = await repos.identities.update(identity.id, changes);
        if (updated !== undefined) {
          identity = { id: updated.id, name: updated.name, email: updated.email };
          await emitEvent(repos, 'identity.updated', updated, facts.receivedAt);
        }
      }
    }
    if (identity !== undefined) activity.push(activityEntry(event, identity));
    if (event.type === 'conversion') visitorLeads.push(conversionLead(event, work, facts, (await companyNow()) ?? undefined));
  }
  if (identity !== undefined) await linkIdentityCompany(repos, work, identity.id, visitorLeads, await companyNow());
  await placeVisitorCompany(repos, work, identity?.id);
  leads.push(...visitorLeads);
  if (visitor.identity_id !== null && visitor.identity_id !== createdHere) {
    await repos.identities.recordSeen(visitor.identity_id, {
      first: visitor.first_seen,
      last: visitor.last_seen,
      ip: visitor.last_ip,
      city: visitor.last_city,
      country: visitor.last_country,
    });
  }
}

/** Each page view counts once in its page's views of its UTC day. */
function pageViews(works: readonly VisitorWork[]): PendingPageViews {
  const pending = new PendingPageViews();
  for (const work of works) {
    for (const event of work.logged) {
      if (event.type === 'page' && event.path !== null) pending.add(event.occurred_at.slice(0, 10), hostOf(event.url), event.path);
    }
  }
  return pending;
}

/**
 * The identity's leads, present and future, carry its company (C6.1): those
 * without one are linked; an identity without a company takes its network's;
 * an identity first seen from a hosting network is flagged in traits.network.
 */
async function linkIdentityCompany(
  repos: TenantRepositories,
  work: VisitorWork,
  identityId: string,
  batchLeads: NewLead[],
  company: CompanyLink | null,
): Promise<void> {
  if (work.newlyHosting && work.network !== null) {
    const { asn, organization } = work.network;
    await repos.identities.update(identityId, { traits: { mode: 'merge', patch: { network: { class: 'hosting', asn, organization } } } });
  }
  if (company === null) return;
  if (company.match.source !== 'email' && (await repos.identities.companyOf(identityId)) === null) {
    await setIdentityCompany(repos, identityId, company.companyId);
  }
  if (work.logged.some((event) => event.type === 'identify')) await repos.leads.linkCompany(identityId, company.companyId, company.match);
  for (const lead of batchLeads) {
    if (lead.company_id !== null) continue;
    lead.company_id = company.companyId;
    lead.properties = { ...lead.properties, company_match: company.match };
  }
}

/**
 * The company the visitor's visits name (C6.9): its identity's, else its
 * network's; written with its own statement when it changed (a new
 * visitor is written with it).
 */
async function placeVisitorCompany(repos: TenantRepositories, work: VisitorWork, identityId: string | undefined): Promise<void> {
  const identityCompany = identityId === undefined ? null : await repos.identities.companyOf(identityId);
  const target = identityCompany ?? work.network?.company_id ?? null;
  if (target === work.visitor.company_id) return;
  if (!work.isNew) await repos.visitors.setCompany(work.visitor.id, target);
  work.visitor.company_id = target;
}

/** The latest visit of each company the batch's visitors name (C6.9). */
function companiesSeen(works: readonly VisitorWork[]): Map<string, string> {
  const seen = new Map<string, string>();
  for (const { visitor } of works) {
    if (visitor.company_id === null) continue;
    const known = seen.get(visitor.company_id);
    if (known === undefined || known < visitor.last_seen) seen.set(visitor.company_id, visitor.last_seen);
  }
  return seen;
}

async function writeState(repos: TenantRepositories, works: VisitorWork[]): Promise<void> {
  const created: Session[] = [];
  for (const work of works) {
    for (const session of work.sessions.values()) {
      if (work.newSessions.has(session.id)) created.push(session);
      else await repos.sessions.update(session);
    }
  }
  await repos.sessions.insert(created);
  await repos.visitors.insert(works.filter((work) => work.isNew).map((work) => work.visitor));
  for (const work of works) if (!work.isNew) await repos.visitors.update(work.visitor);
}

/**
 * Appends the batch's new events to the log and derives what they become;
 * returns the ids that were new (the others were received before: C5.3).
 * Runs inside one transaction of the workspace.
 */
export async function deriveBatch(repos: TenantRepositories, incoming: IncomingEvent[], facts: RequestFacts): Promise<Set<string>> {
  const visitorIds = [...new Set(incoming.map((item) => item.visitorId))].sort();
  const emails = incoming.map((item) => emailOf(item.event)).filter((email): email is string => email !== undefined);
  await repos.visitors.lock(visitorIds, emails.map(normalizeEmail));
  const claimed = await repos.events.claimIds(
    incoming.map((item) => ({ id: item.event.id.toLowerCase(), occurred_at: item.occurredAt })),
  );
  if (claimed.size === 0) return claimed;

  const works: VisitorWork[] = [];
  for (const visitorId of visitorIds) {
    const events = incoming.filter((item) => item.visitorId === visitorId && claimed.has(item.event.id.toLowerCase()));
    // a stable sort: events of one instant keep the order they were sent in
    events.sort((a, b) => a.at - b.at);
    if (events.length > 0) works.push(await placeVisitor(repos, visitorId, events, facts));
  }
  await repos.events.append(works.flatMap((work) => work.logged));

  const activity: NewActivity[] = [];
  const leads: NewLead[] = [];
  for (const work of works) await identifyAndConvert(repos, work, facts, activity, leads);
  await writeState(repos, works);
  await repos.activity.record(activity);
  if (leads.length > 0) {
    await repos.leads.insertMany(leads);
    for (const lead of leads) await emitEvent(repos, 'lead.created', { ...lead, workspace_id: repos.webhooks.workspaceId }, facts.receivedAt);
  }
  const seen = companiesSeen(works);
  // alerts the batch meets (C10.3), before last_seen moves: a company's return is measured from its visit before
  await fireAlertsOnBatch(repos, { visitors: works, leads, companiesSeen: seen, receivedAt: facts.receivedAt, country: facts.country });
  await repos.companies.recordSeen(seen);
  // scores, personalities and segments of these visitors are due (the intelligence worker)
  await repos.intelligenceDue.markDue(works.map((work) => work.visitor.id), facts.receivedAt);
  // The shared counters last: every batch of the workspace bumps the same rows
  // (today's totals, a popular page's count), and on PostgreSQL a row bumped is
  // locked until COMMIT. Bumped earlier, each transaction held them through
  // the rest of its derivation, so concurrent batches queued behind one
  // another with their pooled connections held, until the pool's queue timed
  // out (503) and the alert worker's claims waited behind it (BENCHMARKS.md,
  // "Alerts: event to delivery").
  await repos.pageCounts.add(pageViews(works));
  await countTraffic(
    repos.trafficCounts,
    works.map((work) => ({ visitorId: work.visitor.id, sessions: work.sessions.values(), before: work.before, logged: work.logged })),
  );
  return claimed;
}
