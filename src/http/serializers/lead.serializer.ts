/**
 * Responses with leads, written by hand rather than by fast-json-stringify:
 * a lead's JSON fields come from the store as text (StoredJson) and are
 * copied into the response as they are, so a list of leads is never parsed
 * into objects only to be serialized again. The fields and their order are
 * those of LeadSchema; every string goes through JSON.stringify. A lead
 * SQLite already rendered as its JSON (LeadText) is copied as it is.
 */
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { LeadText } from '../../repositories/tenant/lead-text.js';
import { StoredJson, type JsonField } from '../../schemas/json.js';
import type { Lead, Pagination } from '../../schemas/resources.js';

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
const json = (value: JsonField | null) =>
  value === null ? 'null' : value instanceof StoredJson ? value.text : JSON.stringify(value);

export function leadJson(lead: Lead | LeadText): string {
  if (lead instanceof LeadText) return lead.json;
  return (
    `{"id":${text(lead.id)},"visitor_id":${text(lead.visitor_id)},"workspace_id":${text(lead.workspace_id)}` +
    `,"code":${text(lead.code)},"source":${text(lead.source)}` +
    `,"created_at":${text(lead.created_at)},"updated_at":${text(lead.updated_at)}` +
    `,"properties":${json(lead.properties)},"location":${json(lead.location)}` +
    `,"identity_id":${text(lead.identity_id)},"session_id":${text(lead.session_id)}` +
    `,"summary":${json(lead.summary)},"company_id":${text(lead.company_id)}}`
  );
}

export function leadEnvelope(payload: { data: Lead | LeadText }): string {
  return `{"data":${leadJson(payload.data)}}`;
}

export function leadListEnvelope(payload: { data: (Lead | LeadText)[]; pagination: Pagination }): string {
  const { limit, offset, total } = payload.pagination;
  let data = '';
  for (const lead of payload.data) data += data === '' ? leadJson(lead) : `,${leadJson(lead)}`;
  return `{"data":[${data}],"pagination":{"limit":${limit},"offset":${offset},"total":${total}}}`;
}

/** The dashboard's page of leads (C9.3): the list, and the people and companies it names by id. */
export function leadListWithLabelsEnvelope(payload: { data: Lead[]; pagination: Pagination; people: unknown; companies: unknown }): string {
  const list = leadListEnvelope(payload);
  return `${list.slice(0, -1)},"people":${JSON.stringify(payload.people)},"companies":${JSON.stringify(payload.companies)}}`;
}

/**
 * A route's serializer compiler: `success` for its 2xx responses; anything
 * else (the error shape) with JSON.stringify, which writes it identically.
 */
export function leadSerializers<T>(success: (payload: T) => string) {
  return <S>({ httpStatus }: FastifyRouteSchemaDef<S>): ((payload: unknown) => string) =>
    (httpStatus ?? '').startsWith('2') ? (success as (payload: unknown) => string) : (payload) => JSON.stringify(payload);
}
