/**
 * What lead intelligence derives for one visitor, from its running
 * aggregates (docs/intelligence.md): the score of its leads (C6.2), a new
 * personality entry when one is due (C6.3), and the rule segments its
 * identity belongs in (C6.4). The worker runs it for visitors marked due;
 * `leadlight recompute` runs it after rebuilding the aggregates from the
 * log, so both paths give the same results. Runs in one transaction that
 * holds the visitor's lock (the one ingestion takes), and answers when the
 * visitor is due again (or null).
 */
import { emitEvent } from '../webhooks/events.js';
import { fireAlerts } from '../alerts/fire.js';
import type { VisitorAggregates } from '../../intelligence/aggregates.js';
import { classifyEmail } from '../../intelligence/email-domain.js';
import type { VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import { entryDue, FIRST_ENTRY_PAGE_VIEWS, readPersonality } from '../../intelligence/personality.js';
import { scoreLead, type FitProfile, type LeadScore } from '../../intelligence/scoring.js';
import { evaluateRule, hasEventTests } from '../../intelligence/segments/evaluate.js';
import type { SegmentRule } from '../../intelligence/segments/rule.js';
import type { TenantRepositories } from '../../repositories/index.js';
import type { Visitor } from '../../repositories/tenant/visitors.repository.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import type { JsonObject, JsonValue } from '../../schemas/json.js';
import { formatInstant } from '../../schemas/instants.js';
import { newId } from '../ids.js';
import { SESSION_GAP_MS } from '../tracking/sessions.js';
import type { ResolvedSettings } from './settings-cache.js';
import { EVENT_READ_LIMIT, parseAggregates, RECENT_EVENTS_MS, segmentSubject, subjectCompanyId, usesEventDetail, type IdentityWithCompany } from './segment-subject.js';

export type RefreshPart = 'scores' | 'personalities' | 'segments';
export const ALL_PARTS: ReadonlySet<RefreshPart> = new Set(['scores', 'personalities', 'segments']);

export interface RuleSegment {
  id: string;
  rule: SegmentRule;
  eventTests: boolean;
}

export interface RefreshContext {
  settings: ResolvedSettings;
  segments: RuleSegment[];
  /** the instant of the computation (YYYY-MM-DDTHH:mm:ss.sssZ) */
  now: string;
  parts: ReadonlySet<RefreshPart>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Whether the aggregates hold any counted event (a visitor seen only from hosting networks holds none). */
function counted(aggregates: VisitorAggregates): boolean {
  return Object.keys(aggregates.totals).length > 0;
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The summary with the score's keys written, except those a client changed since the scorer last wrote them. */
export function scoredSummary(current: JsonObject | null, auto: JsonObject | null, score: LeadScore): { summary: JsonObject; auto: JsonObject } {
  const ours: JsonObject = { score: score.score, score_reasons: score.reasons, status: score.status };
  const summary: JsonObject = { ...(current ?? {}) };
  const written: JsonObject = {};
  for (const [key, value] of Object.entries(ours)) {
    const present = summary[key];
    if (present === undefined || same(present, auto?.[key])) {
      summary[key] = value;
      written[key] = value;
    }
  }
  return { summary, auto: written };
}

async function companyOf(repos: TenantRepositories, identity: IdentityWithCompany | undefined, network: VisitorNetwork | null) {
  const id = identity?.company_id ?? network?.company_id ?? null;
  if (id === null) return null;
  const company = await repos.companies.findById(id);
  return company === undefined ? null : company;
}

/** Writes the score into the visitor's leads; answers the best score they showed before and after (null: no lead shows one). */
async function scoreLeads(repos: TenantRepositories, visitor: Visitor, score: LeadScore, now: string): Promise<{ before: number | null; after: number | null }> {
  let before: number | null = null;
  let after: number | null = null;
  const best = (current: number | null, value: unknown) => (typeof value === 'number' && (current === null || value > current) ? value : current);
  for (const lead of await repos.leads.scoredForVisitor(visitor.id, visitor.identity_id)) {
    before = best(before, lead.summary?.score);
    const next = scoredSummary(lead.summary, lead.auto, score);
    after = best(after, next.summary.score);
    if (same(next.summary, lead.summary ?? undefined) && same(next.auto, lead.auto ?? undefined)) continue;
    await repos.leads.writeScore(lead.id, next.summary, next.auto, lead.updated_at, now);
  }
  return { before, after };
}

/** Whether the visitor's first personality entry may be written: 5 page views, or its first session ended. */
function firstEntryReady(aggregates: VisitorAggregates, now: string): boolean {
  if (aggregates.pageViews >= FIRST_ENTRY_PAGE_VIEWS || aggregates.sessions >= 2) return true;
  const current = aggregates.current;
  return current !== null && Date.parse(now) - Date.parse(current.last) >= SESSION_GAP_MS;
}

/** Writes a personality entry when one is due; answers when to look again (the end of a first session) or null. */
async function learnPersonality(repos: TenantRepositories, visitorId: string, aggregates: VisitorAggregates, now: string): Promise<string | null> {
  const [last] = await repos.personalities.listForVisitor(visitorId, 1);
  if (last === undefined && !firstEntryReady(aggregates, now)) {
    return formatInstant(Date.parse(aggregates.current?.last ?? now) + SESSION_GAP_MS + 1_000);
  }
  const reading = readPersonality(aggregates, last?.learning_percentage ?? 0);
  if (!entryDue(reading, last === undefined ? null : { type: last.personality.type, learning: last.learning_percentage })) return null;
  await repos.personalities.insertMany([
    {
      id: newId(),
      visitor_id: visitorId,
      score: reading.score,
      personality: { type: reading.type, traits: reading.traits },
      features: reading.features,
      learning_percentage: reading.learning,
      created_at: now,
    },
  ]);
  return null;
}

/** Evaluates the rule segments for one identity and writes the changes of its membership; answers whether it is in one with event tests. */
async function placeInSegments(
  repos: TenantRepositories,
  identity: IdentityWithCompany,
  visitors: Visitor[],
  score: LeadScore | null,
  context: RefreshContext,
): Promise<boolean> {
  const companyId = subjectCompanyId(identity, visitors);
  const company = companyId === null ? null : ((await repos.companies.findById(companyId)) ?? null);
  let recent: LoggedEvent[] | undefined;
  if (context.segments.some((segment) => usesEventDetail(segment.rule))) {
    recent = [];
    const since = formatInstant(Date.parse(context.now) - RECENT_EVENTS_MS);
    for (const visitor of visitors) recent.push(...(await repos.events.forVisitor(visitor.id, since, EVENT_READ_LIMIT)));
  }
  const subject = segmentSubject({ identity, company, visitors, score, recent, settings: context.settings, now: context.now });
  const current = new Set(await repos.listMembers.listsOf(identity.id));
  let inTimed = false;
  const joins: string[] = [];
  const leaves: string[] = [];
  for (const segment of context.segments) {
    const member = evaluateRule(segment.rule, subject);
    if (member && segment.eventTests) inTimed = true;
    if (member && !current.has(segment.id)) joins.push(segment.id);
    else if (!member && current.has(segment.id)) leaves.push(segment.id);
  }
  const joined = await repos.listMembers.join(identity.id, identity.created_at, joins, context.now);
  for (const list_id of joined) {
    await emitEvent(repos, 'list.member_added', { list_id, identity_id: identity.id }, context.now);
  }
  // alerts on a segment entered (C10.3), with the membership
  const visitor = visitors[0];
  await fireAlerts(
    repos,
    joined.map((listId) => ({
      kind: 'segment_entered' as const,
      at: context.now,
      visitorId: visitor?.id ?? null,
      identityId: identity.id,
      companyId: company?.id ?? null,
      country: visitor?.last_country ?? identity.country,
      listId,
      ...(score === null ? {} : { score: score.score, reasons: score.reasons }),
      summary: 'entered a segment',
    })),
  );
  for (const list_id of await repos.listMembers.leave(identity.id, leaves)) {
    await emitEvent(repos, 'list.member_removed', { list_id, identity_id: identity.id }, context.now);
  }
  return inTimed;
}

export function ruleSegment(id: string, rule: JsonObject): RuleSegment {
  const parsed = rule as unknown as SegmentRule;
  return { id, rule: parsed, eventTests: hasEventTests(parsed) };
}

export function profileOf(identity: Pick<IdentityWithCompany, 'email'> | undefined, company: FitProfile['company'], country: string | null): FitProfile {
  const email = identity?.email ?? null;
  const classified = email === null ? null : classifyEmail(email);
  return { emailKind: classified?.kind ?? null, emailDomain: classified?.domain ?? null, company, country };
}

/**
 * Brings one visitor's derived data up to date; answers when it is due
 * again: the end of its first session (for a first personality entry), in
 * an hour while its identity is in a segment with event tests (time alone
 * can take it out), in a day while it has events in the 30-day window
 * (decay), else null.
 */
export async function refreshVisitor(repos: TenantRepositories, visitorId: string, context: RefreshContext): Promise<string | null> {
  await repos.visitors.lock([visitorId], []);
  const visitor = await repos.visitors.find(visitorId);
  const { parts, now } = context;
  if (visitor === undefined) {
    // an identity made by the API or the import, without tracked events: its segments only
    if (!parts.has('segments') || context.segments.length === 0) return null;
    const identity = await repos.identities.firstByVisitor(visitorId);
    if (identity === undefined) return null;
    const full = await repos.identities.findWithCompany(identity.id);
    if (full !== undefined) await placeInSegments(repos, full, [], null, context);
    return null;
  }
  const aggregates = parseAggregates(visitor.aggregates);
  const network = visitor.network === null ? null : (JSON.parse(visitor.network) as VisitorNetwork);
  const identity = visitor.identity_id === null ? undefined : await repos.identities.findWithCompany(visitor.identity_id);
  const next: number[] = [];

  let score: LeadScore | null = null;
  if (counted(aggregates)) {
    const company = await companyOf(repos, identity, network);
    score = scoreLead(aggregates, profileOf(identity, company, visitor.last_country ?? identity?.country ?? null), context.settings.ideal, now);
    if (parts.has('scores')) {
      const shown = await scoreLeads(repos, visitor, score, now);
      // alerts on a score reached (C10.3): a lead's best score crossing the alert's, with the write
      if (shown.after !== null && shown.after !== shown.before) {
        await fireAlerts(repos, [
          {
            kind: 'score_reached',
            at: now,
            visitorId: visitor.id,
            identityId: visitor.identity_id,
            companyId: company?.id ?? null,
            country: visitor.last_country ?? identity?.country ?? null,
            score: shown.after,
            previousScore: shown.before,
            reasons: score.reasons,
            summary: `reached a score of ${shown.after}`,
          },
        ]);
      }
    }
    if (parts.has('personalities')) {
      const later = await learnPersonality(repos, visitor.id, aggregates, now);
      if (later !== null) next.push(Date.parse(later));
    }
    if (Object.keys(aggregates.days).length > 0) next.push(Date.parse(now) + DAY_MS);
  }
  if (parts.has('segments') && identity !== undefined && context.segments.length > 0) {
    const visitors = await repos.visitors.forIdentity(identity.id);
    if (!visitors.some((one) => one.id === visitor.id)) visitors.push(visitor);
    if (await placeInSegments(repos, identity, visitors, score, context)) next.push(Date.parse(now) + HOUR_MS);
  }
  return next.length === 0 ? null : formatInstant(Math.min(...next));
}

