/**
 * Erasing a person (CONTRACT C8.4): given an email or a visitor id, the
 * person is every identity with that email (or that the visitor is, or is
 * linked to) and every visitor of those identities. In one transaction:
 * their leads (uncounted from the lead totals), activity, personalities,
 * tracked events, sessions and visitor records, list memberships, and the
 * identities themselves. Answers what was erased, by kind.
 * Their visitors' due marks for lead intelligence go too, and every copy
 * of them kept as text: webhook deliveries whose payload names one of their
 * ids or emails (delivered, failed or still pending: none is sent after the
 * erasure) and stored idempotent answers that name them (the key is
 * forgotten: a retry with it runs as a new request). Nothing that names the
 * person is left in any table; the counts answered are the contract's, the
 * copies scrubbed are told apart for the audit line.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Person } from '../../repositories/tenant/erasure.repository.js';
import { InvalidRequestError } from '../errors.js';
import { canonicalId } from '../ids.js';

export interface ErasureRequest {
  email?: string;
  visitor_id?: string;
}

export interface ErasureCounts {
  identities: number;
  activity: number;
  personalities: number;
  events: number;
  list_memberships: number;
  leads: number;
}

/** Copies of the person kept as text, deleted with them (not part of the contract's answer; the audit line tells them). */
export interface Scrubbed {
  webhook_deliveries: number;
  idempotency_keys: number;
  /** events of the changes feed (C11.1) */
  changes: number;
  /** alert deliveries whose facts name them (C10.3) */
  alert_deliveries: number;
}

export class ErasureService {
  constructor(private readonly store: WorkspaceStore) {}

  erase(request: ErasureRequest): Promise<ErasureCounts & { person: Person; scrubbed: Scrubbed }> {
    const byEmail = request.email !== undefined;
    if (byEmail === (request.visitor_id !== undefined)) {
      throw new InvalidRequestError('give exactly one of email and visitor_id', { fields: { email: 'or visitor_id, exactly one' } });
    }
    return this.store.transaction(async (repos) => {
      const erasure = repos.erasure;
      const person =
        request.email !== undefined
          ? await erasure.personByEmail(request.email)
          : await erasure.personByVisitor(canonicalId(request.visitor_id as string));
      const emails = await erasure.emailsOf(person.identityIds);
      if (request.email !== undefined) emails.push(request.email.toLowerCase());
      const named = [...person.identityIds, ...person.visitorIds, ...emails];
      const leads = await repos.leads.deleteWhere({ visitorIds: person.visitorIds, identityIds: person.identityIds });
      const listMemberships = await repos.listMembers.removeIdentities(person.identityIds);
      await repos.intelligenceDue.forget(person.visitorIds);
      await repos.reverseDnsDue.forget(person.visitorIds);
      const activity = await erasure.deleteActivity(person.identityIds);
      const personalities = await erasure.deletePersonalities(person.visitorIds);
      const events = await erasure.deleteEvents(person.visitorIds);
      await erasure.deleteVisitors(person.visitorIds, person.identityIds);
      const identities = await erasure.deleteIdentities(person.identityIds);
      // events about their leads (a note.created names only its lead) go with them too
      const namedWithLeads = [...named, ...leads.map((lead) => lead.id)];
      const scrubbed = {
        webhook_deliveries: await erasure.deleteDeliveriesNaming(namedWithLeads),
        idempotency_keys: await erasure.deleteAnswersNaming(named),
        changes: await erasure.deleteChangesNaming(namedWithLeads),
        alert_deliveries: await erasure.deleteAlertDeliveriesNaming(named, [
          ...person.identityIds.map((id) => `identity:${id}`),
          ...person.visitorIds.map((id) => `visitor:${id}`),
        ]),
      };
      return { identities, activity, personalities, events, list_memberships: listMemberships, leads: leads.length, person, scrubbed };
    });
  }
}
