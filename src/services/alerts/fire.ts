/**
 * Firing alerts (CONTRACT C10.1, C10.3), called inside the transaction of
 * the change that is the fact (an event derived, a score or a segment
 * written, a person added to a list), so the firing commits with the change
 * or not at all. For each enabled alert whose trigger the occurrence meets
 * and whose filters it passes, the cooldown of (alert, subject) is taken by
 * one conditional upsert (alerts.repository.ts, takeCooldown) and, when
 * taken, a delivery is written to the alert outbox with the facts a message
 * is made from. Costs one read (the enabled alerts, once per transaction)
 * when the workspace has none.
 */
import type { TenantRepositories } from '../../repositories/index.js';
import type { AlertRow } from '../../repositories/tenant/alerts.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { newId } from '../ids.js';
import { pathMatches, type AlertFacts } from './model.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** pages shown in a message */
const PAGES_SHOWN = 5;

/** One fact that may meet alerts' triggers. */
export interface Occurrence {
  kind: AlertRow['trigger']['type'];
  /** the instant of the fact: the cooldown is measured from it */
  at: string;
  visitorId: string | null;
  identityId: string | null;
  companyId: string | null;
  country: string | null;
  /** page_viewed: the page's path */
  path?: string;
  /** segment_entered: the list joined */
  listId?: string;
  /** score_reached: the score now, and before (null: unknown) */
  score?: number;
  previousScore?: number | null;
  reasons?: string[];
  /** company_returned: how long the company was away */
  awayMs?: number;
  /** one line: what happened */
  summary: string;
}

function meets(alert: AlertRow, occurrence: Occurrence): boolean {
  const trigger = alert.trigger;
  if (trigger.type !== occurrence.kind) return false;
  switch (trigger.type) {
    case 'segment_entered':
      return occurrence.listId === trigger.list_id;
    case 'score_reached':
      return (occurrence.score ?? 0) >= trigger.score && (occurrence.previousScore === null || occurrence.previousScore === undefined || occurrence.previousScore < trigger.score);
    case 'page_viewed':
      return occurrence.path !== undefined && (occurrence.identityId !== null || occurrence.companyId !== null) && pathMatches(trigger.path, occurrence.path);
    case 'company_returned':
      return occurrence.companyId !== null && (occurrence.awayMs ?? 0) >= trigger.after_days * DAY_MS;
    case 'conversion':
      return true;
  }
}

/** Who a firing is about: the company for company_returned, else the person, else the company, else the visitor. */
export function subjectOf(kind: Occurrence['kind'], occurrence: Pick<Occurrence, 'identityId' | 'companyId' | 'visitorId'>): string | null {
  if (kind === 'company_returned') return occurrence.companyId === null ? null : `company:${occurrence.companyId}`;
  if (occurrence.identityId !== null) return `identity:${occurrence.identityId}`;
  if (occurrence.companyId !== null) return `company:${occurrence.companyId}`;
  return occurrence.visitorId === null ? null : `visitor:${occurrence.visitorId}`;
}

/** The best score among the leads of the visitor (or person), with its reasons; null when none is scored. */
async function scoreOf(repos: TenantRepositories, occurrence: Occurrence): Promise<{ score: number; reasons: string[] } | null> {
  if (occurrence.score !== undefined) return { score: occurrence.score, reasons: occurrence.reasons ?? [] };
  if (occurrence.visitorId === null) return null;
  let best: { score: number; reasons: string[] } | null = null;
  for (const lead of await repos.leads.scoredForVisitor(occurrence.visitorId, occurrence.identityId)) {
    const score = lead.summary?.score;
    if (typeof score !== 'number' || (best !== null && best.score >= score)) continue;
    const reasons = lead.summary?.score_reasons;
    best = { score, reasons: Array.isArray(reasons) ? reasons.filter((reason): reason is string => typeof reason === 'string') : [] };
  }
  return best;
}

async function passes(alert: AlertRow, occurrence: Occurrence, score: () => Promise<{ score: number } | null>): Promise<boolean> {
  const { filters } = alert;
  if (filters.company_known === true && occurrence.companyId === null) return false;
  if (filters.company_known === false && occurrence.companyId !== null) return false;
  if (filters.countries !== undefined && filters.countries.length > 0 && !filters.countries.includes((occurrence.country ?? '').toUpperCase())) return false;
  if (filters.min_score !== undefined && ((await score())?.score ?? 0) < filters.min_score) return false;
  return true;
}

/** The facts of a firing: who, which company, the score and its reasons, the latest pages. */
export async function factsOf(repos: TenantRepositories, alert: AlertRow, occurrence: Occurrence, subject: string, test: boolean): Promise<AlertFacts> {
  const identity = occurrence.identityId === null ? undefined : await repos.identities.findWithCompany(occurrence.identityId);
  const companyId = occurrence.companyId ?? identity?.company_id ?? null;
  const company = companyId === null ? undefined : await repos.companies.findById(companyId);
  const scored = await scoreOf(repos, occurrence);
  const pages: string[] = [];
  if (occurrence.visitorId !== null) {
    const since = formatInstant(Date.parse(occurrence.at) - DAY_MS);
    const events = await repos.events.forVisitor(occurrence.visitorId, since, 1_000);
    for (const event of events.reverse()) {
      if (event.type !== 'page' || event.path === null || pages.includes(event.path)) continue;
      pages.push(event.path);
      if (pages.length === PAGES_SHOWN) break;
    }
  }
  return {
    alert: { id: alert.id, name: alert.name },
    trigger: alert.trigger,
    subject,
    summary: occurrence.summary,
    person: identity === undefined ? null : { id: identity.id, name: identity.name ?? null, email: identity.email ?? null },
    company: company === undefined ? null : { id: company.id, name: company.name, domain: company.domain ?? null },
    visitor_id: occurrence.visitorId,
    country: occurrence.country,
    score: scored?.score ?? null,
    reasons: scored?.reasons ?? [],
    pages,
    link: null,
    occurred_at: occurrence.at,
    test,
  };
}

/** Fires the alerts the occurrences meet; answers how many deliveries were written. */
export async function fireAlerts(repos: TenantRepositories, occurrences: readonly Occurrence[]): Promise<number> {
  if (occurrences.length === 0) return 0;
  const alerts = await repos.alerts.enabled();
  if (alerts.length === 0) return 0;
  let fired = 0;
  for (const occurrence of occurrences) {
    let score: Promise<{ score: number; reasons: string[] } | null> | undefined;
    for (const alert of alerts) {
      if (!meets(alert, occurrence)) continue;
      const subject = subjectOf(alert.trigger.type, occurrence);
      if (subject === null) continue;
      if (!(await passes(alert, occurrence, () => (score ??= scoreOf(repos, occurrence))))) continue;
      const edge = formatInstant(Date.parse(occurrence.at) - alert.cooldown_minutes * MINUTE_MS);
      if (!(await repos.alerts.takeCooldown(alert.id, subject, occurrence.at, edge))) continue;
      const facts = await factsOf(repos, alert, occurrence, subject, false);
      await repos.alerts.enqueue({ id: newId(), alert_id: alert.id, subject, destination: alert.destination, payload: facts, test: false, at: occurrence.at });
      fired += 1;
    }
  }
  return fired;
}
