/**
 * The alert triggers that tracked events meet (CONTRACT C10.1), found in
 * the transaction that derives a batch (services/tracking/derive.ts):
 * pages viewed by a person or by a visitor whose company is known,
 * conversions, and companies seen again after days away. Runs before the
 * batch moves its companies' last_seen, so the return is measured from the
 * visit before it.
 */
import type { TenantRepositories } from '../../repositories/index.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import type { NewLead } from '../../repositories/tenant/leads.repository.js';
import type { Visitor } from '../../repositories/tenant/visitors.repository.js';
import { fireAlerts, type Occurrence } from './fire.js';

export interface BatchFacts {
  /** each visitor of the batch as it is now, with its new events */
  visitors: { visitor: Visitor; logged: LoggedEvent[] }[];
  /** the leads the batch's conversions made */
  leads: NewLead[];
  /** when each company was seen in this batch */
  companiesSeen: ReadonlyMap<string, string>;
  /** the server's instant of the batch (the cooldown's clock) */
  receivedAt: string;
  /** the request's country */
  country: string | null;
}

export async function fireAlertsOnBatch(repos: TenantRepositories, batch: BatchFacts): Promise<number> {
  const alerts = await repos.alerts.enabled();
  if (alerts.length === 0) return 0;
  const kinds = new Set(alerts.map((alert) => alert.trigger.type));
  const at = batch.receivedAt;
  const occurrences: Occurrence[] = [];
  const byVisitor = new Map(batch.visitors.map((entry) => [entry.visitor.id, entry.visitor]));
  if (kinds.has('page_viewed')) {
    for (const { visitor, logged } of batch.visitors) {
      for (const event of logged) {
        if (event.type !== 'page' || event.path === null) continue;
        occurrences.push({
          kind: 'page_viewed',
          at,
          visitorId: visitor.id,
          identityId: visitor.identity_id,
          companyId: visitor.company_id,
          country: event.country ?? visitor.last_country,
          path: event.path,
          summary: `viewed ${event.path}`,
        });
      }
    }
  }
  if (kinds.has('conversion')) {
    for (const lead of batch.leads) {
      const visitor = byVisitor.get(lead.visitor_id ?? '');
      occurrences.push({
        kind: 'conversion',
        at,
        visitorId: lead.visitor_id,
        identityId: lead.identity_id,
        companyId: lead.company_id ?? visitor?.company_id ?? null,
        country: batch.country ?? visitor?.last_country ?? null,
        summary: `converted: ${lead.code}`,
      });
    }
  }
  if (kinds.has('company_returned') && batch.companiesSeen.size > 0) {
    const before = await repos.companies.lastSeen([...batch.companiesSeen.keys()]);
    for (const [companyId, seenAt] of batch.companiesSeen) {
      const previous = before.get(companyId);
      if (previous === null || previous === undefined) continue;
      const awayMs = Date.parse(seenAt) - Date.parse(previous);
      const visitor = batch.visitors.find((entry) => entry.visitor.company_id === companyId)?.visitor;
      occurrences.push({
        kind: 'company_returned',
        at,
        visitorId: visitor?.id ?? null,
        identityId: null,
        companyId,
        country: visitor?.last_country ?? batch.country,
        awayMs,
        summary: `came back after ${Math.floor(awayMs / 86_400_000)} days away`,
      });
    }
  }
  return fireAlerts(repos, occurrences);
}
