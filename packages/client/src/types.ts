/**
 * Names for the types of the generated OpenAPI types
 * (generated/openapi.ts): the resources, the bodies and the queries of the
 * operations, by operationId, so a caller can write `Lead` or `LeadCreate`
 * rather than reach into `components` and `operations`.
 */
import type { components, operations, webhooks } from './generated/openapi.js';

export type { components, operations, paths, webhooks } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Lead = Schemas['Lead'];
export type Identity = Schemas['Identity'];
export type Activity = Schemas['Activity'];
export type Personality = Schemas['Personality'];
export type Company = Schemas['Company'];
export type VisitorList = Schemas['VisitorList'];
export type WorkspaceUser = Schemas['WorkspaceUser'];
export type ErrorBody = Schemas['Error'];
/** a note on a lead (C9.3) */
export type LeadNote = Schemas['LeadNote'];

/** The query parameters of an operation. */
export type QueryOf<K extends keyof operations> = operations[K]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
/** The JSON body of an operation. */
export type BodyOf<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;

/** A list's query without the paging cursor (the iteration follows the Link cursors itself). */
export type ListQuery<K extends keyof operations> = Omit<QueryOf<K>, 'cursor'>;

export type LeadCreate = BodyOf<'createLead'>;
export type LeadUpdate = BodyOf<'updateLead'>;
export type LeadListQuery = ListQuery<'listLeads'>;
export type LeadNoteCreate = BodyOf<'createLeadNote'>;
export type LeadNoteListQuery = ListQuery<'listLeadNotes'>;
export type IdentityCreate = BodyOf<'createIdentity'>;
export type IdentityUpdate = BodyOf<'updateIdentity'>;
export type IdentityListQuery = ListQuery<'listIdentities'>;
export type CompanyListQuery = ListQuery<'listCompanies'>;
/** a company as an account: its engagement over a window, and its account score (CONTRACT C6.9) */
export type CompanyEngagement = operations['getCompanyEngagement']['responses'][200]['content']['application/json']['data'];
export type CompanyEngagementQuery = QueryOf<'getCompanyEngagement'>;
export type UserListQuery = ListQuery<'listUsers'>;
export type ErasureCreate = BodyOf<'createErasure'>;
export type ErasureCounts = operations['createErasure']['responses'][200]['content']['application/json']['data'];
export type WebhookCreate = BodyOf<'createWebhook'>;
export type WebhookUpdate = BodyOf<'updateWebhook'>;
/** a webhook endpoint as created: with its signing secret (whsec_…), answered this once */
export type CreatedWebhook = operations['createWebhook']['responses'][201]['content']['application/json']['data'];
export type Webhook = operations['getWebhook']['responses'][200]['content']['application/json']['data'];
export type WebhookDelivery = operations['listWebhookDeliveries']['responses'][200]['content']['application/json']['data'][number];
/** the body of a replay (C11.2): `{since}` */
export type WebhookReplay = BodyOf<'replayWebhook'>;
/** an event of the changes feed (C11.1): `{id, type, timestamp, data}`, `id` the webhook-id of its deliveries */
export type ChangeEvent = operations['listChanges']['responses'][200]['content']['application/json']['data'][number];
export type ChangesQuery = QueryOf<'listChanges'>;
/** a company rule (C6.8): a match (asn, cidr or domain) and its company, or not_a_company */
export type CompanyRule = operations['getCompanyRule']['responses'][200]['content']['application/json']['data'];
export type CompanyRuleCreate = BodyOf<'createCompanyRule'>;
/** an alert (C10.1): a trigger, filters, a destination (slack, email or webhook) and a cooldown */
export type Alert = operations['getAlert']['responses'][200]['content']['application/json']['data'];
export type AlertCreate = BodyOf<'createAlert'>;
export type AlertUpdate = BodyOf<'updateAlert'>;
export type AlertDelivery = operations['listAlertDeliveries']['responses'][200]['content']['application/json']['data'][number];
export type EventBatch = BodyOf<'sendEvents'>;
export type TrackedEvent = EventBatch['events'][number];

/** The body Leadlight POSTs to a webhook endpoint, by event type. */
export type WebhookPayload<T extends keyof webhooks = keyof webhooks> = {
  [K in T]: webhooks[K]['post'] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
}[T];
export type WebhookEventType = keyof webhooks;

/** a search's filter, sort and page size (CONTRACT C11.3); the cursor is followed by the iteration */
export type SearchBody = Omit<BodyOf<'searchLeads'>, 'cursor'>;
/** the operations of a lead batch and their results, in order (C11.4) */
export type LeadBatchOperation = BodyOf<'batchLeads'>['operations'][number];
export type LeadBatchResult = operations['batchLeads']['responses'][200]['content']['application/json']['data'][number];
/** an identity of an identity batch, upserted by email, and its result (C11.4) */
export type IdentityUpsert = BodyOf<'batchIdentities'>['identities'][number];
export type IdentityBatchResult = operations['batchIdentities']['responses'][200]['content']['application/json']['data'][number];
/** the filters of an export (C11.5): those of the list, without its paging */
export type LeadExportQuery = Omit<QueryOf<'exportLeads'>, 'format'>;
export type IdentityExportQuery = Omit<QueryOf<'exportIdentities'>, 'format'>;
export type CompanyExportQuery = Omit<QueryOf<'exportCompanies'>, 'format'>;
