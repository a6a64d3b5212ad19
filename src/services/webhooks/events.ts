/**
 * The webhook events (CONTRACT C8.5) and the one way to fire them:
 * `emitEvent(repos, type, data)` inside the transaction of the change: it
 * writes the event once to the changes feed (C11.1) and fans out its
 * deliveries to the endpoints subscribed, so feed and outbox commit with the
 * change or not at all, and share the event's id (the webhook-id). Payload: the body
 * `{type, timestamp, data}`, where data is the resource as the API shows it
 * (lead.deleted: the lead as it was; identity.identified: `{identity, visitor_id}`,
 * the identity and the visitor just linked to it; list.member_*: {list_id, identity_id}).
 *
 * Where each is fired: lead.* in services/tenant/leads.service.ts and, for
 * the leads of conversions, services/tracking/derive.ts; identity.* in
 * services/tenant/identities.service.ts and derive.ts; list.member_* in
 * services/tenant/lists.service.ts (static lists) and
 * services/intelligence/refresh-visitor.ts (segments filled by their rules);
 * company.created in services/intelligence/companies.ts (a company found from
 * an email, a network or a rule: C6.1, C10.2) and company.updated in
 * services/enrichment/worker.ts (what enrichment wrote: C6.7). `data` of
 * company.* is the company as the API shows it. alert.triggered goes to the
 * webhook an alert names as its destination (C10.2), from the alert outbox
 * (services/alerts/); its `data` is the firing's facts (alerts/model.ts).
 * note.created (C9.3) in
 * services/tenant/lead-notes.service.ts: `data` is the note with its `lead_id`.
 */
import type { TenantRepositories } from '../../repositories/index.js';
import { now } from '../../schemas/instants.js';

export const WEBHOOK_EVENTS = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'identity.created',
  'identity.updated',
  'identity.identified',
  'list.member_added',
  'list.member_removed',
  'company.created',
  'company.updated',
  'alert.triggered',
  'note.created',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** the type of the event POST /webhooks/{id}/test sends */
export const TEST_EVENT = 'webhook.test';

/** Writes the event to the feed and queues its deliveries; answers how many deliveries. */
export async function emitEvent(repos: TenantRepositories, type: WebhookEvent, data: unknown, at: string = now()): Promise<number> {
  const change = await repos.changes.append(type, data, at);
  return repos.webhooks.fanOut({ id: change.id, type, payload: change.payload }, at);
}
