/**
 * The segment builder's server side (CONTRACT C9.6): how many people a
 * draft rule matches before it is saved, and the values a condition may
 * choose from. Nothing is written.
 *
 * The count walks the workspace's identities newest first, a page at a time
 * (keyset on the identities' created_at index, their visitors and companies
 * read per page), and asks each the question the worker asks when it keeps
 * a segment's members (segment-subject.ts, evaluate.ts): the same subject,
 * the same evaluation (reading visitors and companies only when the rule
 * asks about them). Its cost is bounded by the number of identities it
 * looks at: at most COUNT_LIMIT (EVENT_DETAIL_LIMIT when the rule has event
 * tests with a page pattern or an event name, which read each visitor's
 * recent events); past the bound the answer says how many it looked at
 * (`complete: false`). Suggestions are the most frequent values among the
 * newest SUGGESTION_SAMPLE identities or companies, top SUGGESTION_LIMIT.
 */
import type { VisitorAggregates } from '../../intelligence/aggregates.js';
import { evaluateRule } from '../../intelligence/segments/evaluate.js';
import { COMPANY_FIELDS, TRAIT_PREFIX } from '../../intelligence/segments/grammar.js';
import type { SegmentRule } from '../../intelligence/segments/rule.js';
import { validateRule } from '../../intelligence/segments/validate-rule.js';
import { PageClassifier } from '../../intelligence/page-kinds.js';
import { scoreLead } from '../../intelligence/scoring.js';
import { resolveSettings, type IntelligenceSettingsInput } from '../../intelligence/settings.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { SegmentField } from '../../repositories/tenant/identities.repository.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import type { Visitor } from '../../repositories/tenant/visitors.repository.js';
import type { Company } from '../../schemas/resources.js';
import { formatInstant } from '../../schemas/instants.js';
import { profileOf } from '../intelligence/refresh-visitor.js';
import {
  EVENT_READ_LIMIT,
  mergeAggregates,
  parseAggregates,
  RECENT_EVENTS_MS,
  segmentSubject,
  subjectCompanyId,
  usesEventDetail,
} from '../intelligence/segment-subject.js';
import type { ResolvedSettings } from '../intelligence/settings-cache.js';
import { invalidFields } from '../errors.js';

export const COUNT_LIMIT = 20_000;
export const EVENT_DETAIL_LIMIT = 2_000;
const PAGE = 500;
const NONE: readonly Visitor[] = [];
export const SUGGESTION_SAMPLE = 2_000;
export const SUGGESTION_LIMIT = 20;

export interface DraftCount {
  /** people (identities) the rule matches among those looked at */
  count: number;
  /** identities looked at, newest first */
  examined: number;
  /** whether every identity of the workspace was looked at */
  complete: boolean;
}

export interface Suggestion {
  value: string;
  /** how many of the sampled identities or companies hold it */
  count: number;
}

interface Needs {
  /** the identity fields the rule asks about (the score also reads the email and country) */
  fields: Set<SegmentField>;
  traits: boolean;
  score: boolean;
  company: boolean;
  events: boolean;
}

const IDENTITY_FIELDS: readonly string[] = ['email', 'name', 'city', 'country', 'is_favorite'] satisfies SegmentField[];

/** What a rule asks about: only that is read for each page of identities. */
function needsOf(rule: SegmentRule): Needs {
  const needs: Needs = { fields: new Set(), traits: false, score: false, company: false, events: false };
  const visit = (node: SegmentRule) => {
    for (const condition of 'all' in node ? node.all : node.any) {
      if ('all' in condition || 'any' in condition) visit(condition);
      else if ('events' in condition) needs.events = true;
      else if (condition.field === 'score' || condition.field === 'status') needs.score = true;
      else if (condition.field.startsWith('company.')) needs.company = true;
      else if (condition.field.startsWith(TRAIT_PREFIX)) needs.traits = true;
      else if (IDENTITY_FIELDS.includes(condition.field)) needs.fields.add(condition.field as SegmentField);
    }
  };
  visit(rule);
  // the score's fit reads the email's kind and the country (profileOf)
  if (needs.score) needs.fields.add('email').add('country');
  return needs;
}

/** The visitor whose score the identity shows: its latest seen with counted events (the worker scores visitors as their events arrive). */
function scoredVisitor(visitors: readonly Visitor[], aggregates: readonly VisitorAggregates[]): number | undefined {
  let best: number | undefined;
  for (const [index, visitor] of visitors.entries()) {
    if (Object.keys(aggregates[index]!.totals).length === 0) continue;
    if (best === undefined || visitor.last_seen > visitors[best]!.last_seen) best = index;
  }
  return best;
}

function top(counts: Map<string, number>): Suggestion[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, SUGGESTION_LIMIT)
    .map(([value, count]) => ({ value, count }));
}

function tally(counts: Map<string, number>, value: unknown): void {
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  if (typeof value !== 'string' || value === '') return;
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

export class SegmentDraftService {
  constructor(private readonly store: WorkspaceStore) {}

  async count(rule: unknown): Promise<DraftCount> {
    const problems = validateRule(rule);
    if (Object.keys(problems).length > 0) throw invalidFields(problems);
    const parsed = rule as SegmentRule;
    const repos = this.store.repos;
    const settings = await this.settings();
    const now = formatInstant(Date.now());
    const detail = usesEventDetail(parsed);
    const needs = needsOf(parsed);
    // visitors hold the aggregates (events, score) and the network's company; a rule on the identity's own fields reads neither
    const readVisitors = needs.events || needs.score || needs.company;
    const limit = detail ? EVENT_DETAIL_LIMIT : COUNT_LIMIT;
    // a network's company comes from the visitors (subjectCompanyId); the identity's own from its row
    const columns = { fields: [...needs.fields], traits: needs.traits, company: needs.company || needs.score };
    let count = 0;
    let examined = 0;
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const want = Math.min(PAGE, limit - examined);
      const identities = await repos.identities.newestForSegments(after, want, columns);
      const visitors = readVisitors ? await repos.visitors.forIdentities(identities.map((identity) => identity.id)) : [];
      const byIdentity = new Map<string, Visitor[]>();
      for (const visitor of visitors) {
        const own = byIdentity.get(visitor.identity_id!);
        if (own === undefined) byIdentity.set(visitor.identity_id!, [visitor]);
        else own.push(visitor);
      }
      // each visitor's aggregates parsed once, for the score and for the subject
      const parsedAggregates = identities.map((identity) => (byIdentity.get(identity.id) ?? NONE).map((visitor) => parseAggregates(visitor.aggregates)));
      const scored = identities.map((identity, index) => (needs.score ? scoredVisitor(byIdentity.get(identity.id) ?? NONE, parsedAggregates[index]!) : undefined));
      // the company: asked by the rule, or needed by a score's fit (only where there is a score)
      const companyIds = identities.map((identity, index) =>
        needs.company || scored[index] !== undefined ? subjectCompanyId(identity, byIdentity.get(identity.id) ?? NONE) : null,
      );
      const companies = new Map<string, Company>();
      const wanted = [...new Set(companyIds.filter((id): id is string => id !== null))];
      if (wanted.length > 0) for (const company of await repos.companies.findByIds(wanted)) companies.set(company.id, company);
      for (const [index, identity] of identities.entries()) {
        const own = byIdentity.get(identity.id) ?? NONE;
        const companyId = companyIds[index]!;
        const company = companyId === null ? null : (companies.get(companyId) ?? null);
        let recent: LoggedEvent[] | undefined;
        if (detail) {
          recent = [];
          const since = formatInstant(Date.parse(now) - RECENT_EVENTS_MS);
          for (const visitor of own) recent.push(...(await repos.events.forVisitor(visitor.id, since, EVENT_READ_LIMIT)));
        }
        const parsedOwn = parsedAggregates[index]!;
        const at = scored[index];
        const score = at === undefined ? null : scoreLead(parsedOwn[at]!, profileOf(identity, company, own[at]!.last_country ?? identity.country), settings.ideal, now);
        const aggregates = own.length === 0 ? undefined : mergeAggregates(parsedOwn);
        if (evaluateRule(parsed, segmentSubject({ identity, company, visitors: own, aggregates, score, recent, settings, now }))) count += 1;
      }
      examined += identities.length;
      const last = identities[identities.length - 1];
      if (last === undefined || identities.length < want) return { count, examined, complete: true };
      if (examined >= limit) {
        const more = await repos.identities.newestForSegments({ at: last.created_at, id: last.id }, 1, { fields: [], traits: false, company: false });
        return { count, examined, complete: more.length === 0 };
      }
      after = { at: last.created_at, id: last.id };
    }
  }

  /**
   * Values a condition may choose from: `traits` (the trait keys), `trait.<key>`,
   * `country`, `city`, or `company.<field>`; the most frequent first.
   */
  async suggestions(of: string): Promise<Suggestion[]> {
    const counts = new Map<string, number>();
    if ((COMPANY_FIELDS as readonly string[]).includes(of)) {
      const field = of.slice('company.'.length) as 'name' | 'domain' | 'employees' | 'main_industry';
      for (const company of await this.store.repos.companies.newest(SUGGESTION_SAMPLE)) tally(counts, company[field]);
      return top(counts);
    }
    for (const identity of await this.store.repos.identities.newestDetails(SUGGESTION_SAMPLE)) {
      if (of === 'traits') for (const key of Object.keys(identity.traits)) tally(counts, key);
      else if (of === 'country' || of === 'city') tally(counts, identity[of]);
      else if (of.startsWith(TRAIT_PREFIX)) tally(counts, identity.traits[of.slice(TRAIT_PREFIX.length)]);
    }
    return top(counts);
  }

  private async settings(): Promise<ResolvedSettings> {
    const stored = await this.store.repos.settings.intelligence();
    const resolved = resolveSettings(stored as IntelligenceSettingsInput | null);
    return { ...resolved, classifier: new PageClassifier(resolved.pages) };
  }
}
