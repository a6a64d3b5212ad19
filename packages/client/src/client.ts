/**
 * `createClient({ baseUrl, apiKey })`: the Leadlight API grouped by resource
 * (`client.leads.list/get/create/update`, `client.identities…`), every call
 * typed from the OpenAPI document (the method names follow its operationIds:
 * listLeads is `leads.list`), on openapi-fetch, with the retries of retry.ts,
 * the lists of pagination.ts and the errors of errors.ts. A call answers the
 * resource itself (the `data` of the envelope) or throws a LeadlightError.
 * `client.raw` is the typed openapi-fetch client underneath, with the same
 * key and retries, for anything the groups do not name.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import { iterateChanges, type ChangesOptions } from './changes.js';
import { LeadlightError, REQUEST_ID_HEADER } from './errors.js';
import type { paths } from './generated/openapi.js';
import { nextLink, PagedList, type Page } from './pagination.js';
import { IDEMPOTENCY_KEY_HEADER, retryingFetch, type RetryOptions } from './retry.js';
import type {
  Activity,
  ChangeEvent,
  ChangesQuery,
  Alert,
  AlertCreate,
  AlertDelivery,
  AlertUpdate,
  Company,
  CompanyEngagement,
  CompanyEngagementQuery,
  CompanyListQuery,
  CompanyRule,
  CompanyRuleCreate,
  CreatedWebhook,
  ErasureCounts,
  ErasureCreate,
  EventBatch,
  Identity,
  IdentityCreate,
  IdentityListQuery,
  IdentityUpdate,
  Lead,
  LeadCreate,
  LeadListQuery,
  LeadNote,
  LeadNoteCreate,
  LeadNoteListQuery,
  LeadUpdate,
  ListQuery,
  Personality,
  UserListQuery,
  VisitorList,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookReplay,
  WebhookUpdate,
  WorkspaceUser,
  CompanyExportQuery,
  IdentityBatchResult,
  IdentityExportQuery,
  IdentityUpsert,
  LeadBatchOperation,
  LeadBatchResult,
  LeadExportQuery,
  SearchBody,
} from './types.js';
import { exportBody, exportRows } from './export.js';

export const CLIENT_VERSION = '0.1.0';

export interface ClientOptions extends RetryOptions {
  /** where Leadlight answers, e.g. https://leadlight.example.com (paths start with /api/v1) */
  baseUrl: string;
  /** a production (ll_prod_…) or development (ll_dev_…) API key */
  apiKey: string;
  /** a fetch to send requests with (default: the global fetch) */
  fetch?: (request: Request) => Promise<Response>;
  /** headers sent with every request */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface WriteOptions extends CallOptions {
  /**
   * The Idempotency-Key of a POST (CONTRACT C8.2); by default a random UUID
   * per call, kept by its retries. Give your own (for example derived from
   * the record you are syncing) to make the write idempotent across restarts
   * of your process too.
   */
  idempotencyKey?: string;
}

export interface UpdateOptions extends CallOptions {
  /**
   * Send the body as a JSON Merge Patch (application/merge-patch+json,
   * RFC 7396): nested objects merge and a null member removes that key.
   * By default (application/json) an object field present replaces the
   * stored one as a whole.
   */
  mergePatch?: boolean;
}

export interface EventCounts {
  accepted: number;
  duplicates: number;
  ignored: number;
}

type FetchResult<T> = { data?: T; error?: unknown; response: Response };

/** The `data` of an answer, or the LeadlightError it carries. */
async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw LeadlightError.fromResponse(response, error);
  return data;
}

/** An answer without a body (204), or the LeadlightError it carries. */
async function expectEmpty(call: Promise<FetchResult<unknown>>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw LeadlightError.fromResponse(response, error);
}

function callInit(options: CallOptions = {}): { signal?: AbortSignal; headers?: Record<string, string> } {
  return { signal: options.signal, headers: options.headers };
}

function writeInit(options: WriteOptions = {}): { signal?: AbortSignal; headers?: Record<string, string> } {
  const headers = { ...options.headers };
  if (options.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey;
  return { signal: options.signal, headers };
}

function updateInit(options: UpdateOptions = {}): { signal?: AbortSignal; headers?: Record<string, string> } {
  const headers = { ...options.headers };
  if (options.mergePatch === true) headers['content-type'] = 'application/merge-patch+json';
  return { signal: options.signal, headers };
}

/** A page of a list answer. */
async function toPage<T>(call: Promise<FetchResult<{ data: T[]; pagination: Page<T>['pagination'] }>>): Promise<Page<T>> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw LeadlightError.fromResponse(response, error);
  return {
    data: data.data,
    pagination: data.pagination,
    next: nextLink(response.headers.get('link')),
    requestId: response.headers.get(REQUEST_ID_HEADER) ?? undefined,
  };
}

export type LeadlightClient = ReturnType<typeof createClient>;

export function createClient(options: ClientOptions) {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('createClient: baseUrl is required');
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('createClient: apiKey is required');
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const api: Client<paths> = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(send, options),
    headers: {
      ...options.headers,
      authorization: `Bearer ${options.apiKey}`,
      'user-agent': `leadlight-client/${CLIENT_VERSION}`,
    },
  });

  /** A list that follows its Link cursors; `query` untyped here, typed by each method. */
  const list = <T>(fetchPage: (query: Record<string, unknown>) => Promise<Page<T>>, query: object | undefined) =>
    new PagedList<T>(fetchPage, { ...query });

  return {
    raw: api,

    leads: {
      /** listLeads: `await` it for the first page, `for await` it for every lead */
      list: (query?: LeadListQuery, call?: CallOptions) =>
        list<Lead>((q) => toPage(api.GET('/api/v1/leads', { params: { query: q as LeadListQuery }, ...callInit(call) })), query),
      /** getLead */
      get: (id: string, call?: CallOptions): Promise<Lead> =>
        unwrap(api.GET('/api/v1/leads/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** createLead: retried safely with an Idempotency-Key */
      create: (body: LeadCreate = {}, call?: WriteOptions): Promise<Lead> =>
        unwrap(api.POST('/api/v1/leads', { body, ...writeInit(call) })).then((answer) => answer.data),
      /** updateLead: only the fields present change */
      update: (id: string, body: LeadUpdate, call?: UpdateOptions): Promise<Lead> =>
        unwrap(api.PATCH('/api/v1/leads/{id}', { params: { path: { id } }, body, ...updateInit(call) })).then((answer) => answer.data),
      /** deleteLead: resolves once the lead is gone (a second delete is a not_found LeadlightError) */
      delete: (id: string, call?: CallOptions): Promise<void> =>
        expectEmpty(api.DELETE('/api/v1/leads/{id}', { params: { path: { id } }, ...callInit(call) })),
      notes: {
        /** listLeadNotes: a lead's notes, newest first; `for await` it for every note */
        list: (leadId: string, query?: LeadNoteListQuery, call?: CallOptions) =>
          list<LeadNote>(
            (q) => toPage(api.GET('/api/v1/leads/{id}/notes', { params: { path: { id: leadId }, query: q as LeadNoteListQuery }, ...callInit(call) })),
            query,
          ),
        /** getLeadNote */
        get: (leadId: string, noteId: string, call?: CallOptions): Promise<LeadNote> =>
          unwrap(api.GET('/api/v1/leads/{id}/notes/{note_id}', { params: { path: { id: leadId, note_id: noteId } }, ...callInit(call) })).then((body) => body.data),
        /** createLeadNote: the calling key is its author */
        create: (leadId: string, body: LeadNoteCreate, call?: WriteOptions): Promise<LeadNote> =>
          unwrap(api.POST('/api/v1/leads/{id}/notes', { params: { path: { id: leadId } }, body, ...writeInit(call) })).then((answer) => answer.data),
      },
      /** searchLeads: `await` it for the first page, `for await` it for every lead found (C11.3) */
      search: (body: SearchBody = {}, call?: CallOptions) =>
        list<Lead>((q) => toPage(api.POST('/api/v1/leads/search', { params: { query: q }, body, ...callInit(call) })), {}),
      /** batchLeads: 1 to 100 creates and updates, all or nothing; the results in order (C11.4) */
      batch: (operations: LeadBatchOperation[], call?: WriteOptions): Promise<LeadBatchResult[]> =>
        unwrap(api.POST('/api/v1/leads/batch', { body: { operations }, ...writeInit(call) })).then((answer) => answer.data),
      /** exportLeads: every lead matching the filters, read as the answer streams (C11.5) */
      export: (query: LeadExportQuery = {}, call?: CallOptions): AsyncIterable<Lead> =>
        exportRows<Lead>(() => exportBody(api.GET('/api/v1/leads/export', { params: { query: { ...query, format: 'ndjson' } }, parseAs: 'stream', ...callInit(call) }))),
      /** exportLeads as CSV: the body as a byte stream (UTF-8, a header row) */
      exportCsv: (query: LeadExportQuery = {}, call?: CallOptions): Promise<ReadableStream<Uint8Array>> =>
        exportBody(api.GET('/api/v1/leads/export', { params: { query: { ...query, format: 'csv' } }, parseAs: 'stream', ...callInit(call) })),
    },

    identities: {
      /** listIdentities */
      list: (query?: IdentityListQuery, call?: CallOptions) =>
        list<Identity>(
          (q) => toPage(api.GET('/api/v1/identities', { params: { query: q as IdentityListQuery }, ...callInit(call) })),
          query,
        ),
      /** getIdentity */
      get: (id: string, call?: CallOptions): Promise<Identity> =>
        unwrap(api.GET('/api/v1/identities/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** createIdentity */
      create: (body: IdentityCreate = {}, call?: WriteOptions): Promise<Identity> =>
        unwrap(api.POST('/api/v1/identities', { body, ...writeInit(call) })).then((answer) => answer.data),
      /** updateIdentity */
      update: (id: string, body: IdentityUpdate, call?: UpdateOptions): Promise<Identity> =>
        unwrap(api.PATCH('/api/v1/identities/{id}', { params: { path: { id } }, body, ...updateInit(call) })).then(
          (answer) => answer.data,
        ),
      /** listIdentityActivity */
      activity: (id: string, query?: ListQuery<'listIdentityActivity'>, call?: CallOptions) =>
        list<Activity>(
          (q) =>
            toPage(
              api.GET('/api/v1/identities/{id}/activity', {
                params: { path: { id }, query: q as ListQuery<'listIdentityActivity'> },
                ...callInit(call),
              }),
            ),
          query,
        ),
      /** searchIdentities (C11.3) */
      search: (body: SearchBody = {}, call?: CallOptions) =>
        list<Identity>((q) => toPage(api.POST('/api/v1/identities/search', { params: { query: q }, body, ...callInit(call) })), {}),
      /** batchIdentities: 1 to 100 identities upserted by email, traits merged (RFC 7396); the results in order (C11.4) */
      batch: (identities: IdentityUpsert[], call?: WriteOptions): Promise<IdentityBatchResult[]> =>
        unwrap(api.POST('/api/v1/identities/batch', { body: { identities }, ...writeInit(call) })).then((answer) => answer.data),
      /** exportIdentities (C11.5) */
      export: (query: IdentityExportQuery = {}, call?: CallOptions): AsyncIterable<Identity> =>
        exportRows<Identity>(() =>
          exportBody(api.GET('/api/v1/identities/export', { params: { query: { ...query, format: 'ndjson' } }, parseAs: 'stream', ...callInit(call) })),
        ),
      /** listIdentityPersonalities: every one, newest first (not paged) */
      personalities: (id: string, call?: CallOptions): Promise<Personality[]> =>
        unwrap(api.GET('/api/v1/identities/{id}/personalities', { params: { path: { id } }, ...callInit(call) })).then(
          (body) => body.data,
        ),
    },

    companies: {
      /** listCompanies */
      list: (query?: CompanyListQuery, call?: CallOptions) =>
        list<Company>((q) => toPage(api.GET('/api/v1/companies', { params: { query: q as CompanyListQuery }, ...callInit(call) })), query),
      /** getCompany */
      get: (id: string, call?: CallOptions): Promise<Company> =>
        unwrap(api.GET('/api/v1/companies/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** searchCompanies (C11.3) */
      search: (body: SearchBody = {}, call?: CallOptions) =>
        list<Company>((q) => toPage(api.POST('/api/v1/companies/search', { params: { query: q }, body, ...callInit(call) })), {}),
      /** exportCompanies (C11.5) */
      export: (query: CompanyExportQuery = {}, call?: CallOptions): AsyncIterable<Company> =>
        exportRows<Company>(() =>
          exportBody(api.GET('/api/v1/companies/export', { params: { query: { ...query, format: 'ndjson' } }, parseAs: 'stream', ...callInit(call) })),
        ),
      /** getCompanyEngagement: its visitors, sessions, page views, top pages and account score over the last `days` days (CONTRACT C6.9) */
      engagement: (id: string, query?: CompanyEngagementQuery, call?: CallOptions): Promise<CompanyEngagement> =>
        unwrap(api.GET('/api/v1/companies/{id}/engagement', { params: { path: { id }, query }, ...callInit(call) })).then((body) => body.data),
      /** listCompanyActivity: its identities' activity and its anonymous visitors' page views, newest first */
      activity: (id: string, query?: ListQuery<'listCompanyActivity'>, call?: CallOptions) =>
        list<Activity>(
          (q) =>
            toPage(
              api.GET('/api/v1/companies/{id}/activity', {
                params: { path: { id }, query: q as ListQuery<'listCompanyActivity'> },
                ...callInit(call),
              }),
            ),
          query,
        ),
    },

    lists: {
      /** listLists */
      list: (query?: ListQuery<'listLists'>, call?: CallOptions) =>
        list<VisitorList>(
          (q) => toPage(api.GET('/api/v1/lists', { params: { query: q as ListQuery<'listLists'> }, ...callInit(call) })),
          query,
        ),
    },

    users: {
      /** listUsers */
      list: (query?: UserListQuery, call?: CallOptions) =>
        list<WorkspaceUser>((q) => toPage(api.GET('/api/v1/users', { params: { query: q as UserListQuery }, ...callInit(call) })), query),
      /** getUser */
      get: (id: string, call?: CallOptions): Promise<WorkspaceUser> =>
        unwrap(api.GET('/api/v1/users/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
    },

    erasures: {
      /**
       * createErasure: erases a person, by `email` or by `visitor_id`, with
       * everything of theirs (CONTRACT C8.4); answers the counts erased
       */
      create: (body: ErasureCreate, call?: WriteOptions): Promise<ErasureCounts> =>
        unwrap(api.POST('/api/v1/erasures', { body, ...writeInit(call) })).then((answer) => answer.data),
    },

    webhooks: {
      /** createWebhook: answers the endpoint with its `secret` (whsec_…), this once */
      create: (body: WebhookCreate, call?: WriteOptions): Promise<CreatedWebhook> =>
        unwrap(api.POST('/api/v1/webhooks', { body, ...writeInit(call) })).then((answer) => answer.data),
      /** listWebhooks */
      list: (query?: ListQuery<'listWebhooks'>, call?: CallOptions) =>
        list<Webhook>(
          (q) => toPage(api.GET('/api/v1/webhooks', { params: { query: q as ListQuery<'listWebhooks'> }, ...callInit(call) })),
          query,
        ),
      /** getWebhook */
      get: (id: string, call?: CallOptions): Promise<Webhook> =>
        unwrap(api.GET('/api/v1/webhooks/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** updateWebhook */
      update: (id: string, body: WebhookUpdate, call?: CallOptions): Promise<Webhook> =>
        unwrap(api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body, ...callInit(call) })).then((answer) => answer.data),
      /** deleteWebhook */
      delete: (id: string, call?: CallOptions): Promise<void> =>
        expectEmpty(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } }, ...callInit(call) })),
      /** listWebhookDeliveries: the delivery log of an endpoint, newest first */
      deliveries: (id: string, query?: ListQuery<'listWebhookDeliveries'>, call?: CallOptions) =>
        list<WebhookDelivery>(
          (q) =>
            toPage(
              api.GET('/api/v1/webhooks/{id}/deliveries', {
                params: { path: { id }, query: q as ListQuery<'listWebhookDeliveries'> },
                ...callInit(call),
              }),
            ),
          query,
        ),
      /** testWebhook: queues a webhook.test event for the endpoint */
      test: (id: string, call?: WriteOptions): Promise<{ queued: number }> =>
        unwrap(api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id } }, ...writeInit(call) })).then((answer) => answer.data),
      /** retryWebhookDelivery: sends one delivery again at once, same webhook-id (CONTRACT C11.2) */
      retryDelivery: (id: string, deliveryId: string, call?: WriteOptions): Promise<WebhookDelivery> =>
        unwrap(
          api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id, delivery_id: deliveryId } }, ...writeInit(call) }),
        ).then((answer) => answer.data),
      /** replayWebhook: re-sends every event since `since` (at most 30 days ago) the endpoint subscribes to, each with its webhook-id */
      replay: (id: string, body: WebhookReplay, call?: WriteOptions): Promise<{ queued: number }> =>
        unwrap(api.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id } }, body, ...writeInit(call) })).then((answer) => answer.data),
    },

    /**
     * listChanges as an async iterator (CONTRACT C11.1): every change, oldest
     * first, then new ones as they come (polling every `pollIntervalMs`)
     * until `signal` aborts; `onCursor` gives the cursor to store and pass
     * back as `cursor` to resume (changes.ts)
     */
    changes: (options: ChangesOptions & CallOptions = {}): AsyncGenerator<ChangeEvent, void, undefined> =>
      iterateChanges<ChangeEvent>(async (query, signal) => {
        const { data, error, response } = await api.GET('/api/v1/changes', {
          params: { query: query as ChangesQuery },
          signal,
          headers: options.headers,
        });
        if (!response.ok || data === undefined) throw LeadlightError.fromResponse(response, error);
        return { data: data.data, link: response.headers.get('link') };
      }, options),

    companyRules: {
      /** createCompanyRule: an AS number, CIDR range or domain mapped to a company, or to no company (wins over every automatic source) */
      create: (body: CompanyRuleCreate, call?: WriteOptions): Promise<CompanyRule> =>
        unwrap(api.POST('/api/v1/company-rules', { body, ...writeInit(call) })).then((answer) => answer.data),
      /** listCompanyRules */
      list: (query?: ListQuery<'listCompanyRules'>, call?: CallOptions) =>
        list<CompanyRule>(
          (q) => toPage(api.GET('/api/v1/company-rules', { params: { query: q as ListQuery<'listCompanyRules'> }, ...callInit(call) })),
          query,
        ),
      /** getCompanyRule */
      get: (id: string, call?: CallOptions): Promise<CompanyRule> =>
        unwrap(api.GET('/api/v1/company-rules/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** deleteCompanyRule */
      delete: (id: string, call?: CallOptions): Promise<void> =>
        expectEmpty(api.DELETE('/api/v1/company-rules/{id}', { params: { path: { id } }, ...callInit(call) })),
    },

    alerts: {
      /** createAlert: a trigger, optional filters, a destination and a cooldown (C10.1) */
      create: (body: AlertCreate, call?: WriteOptions): Promise<Alert> =>
        unwrap(api.POST('/api/v1/alerts', { body, ...writeInit(call) })).then((answer) => answer.data),
      /** listAlerts */
      list: (query?: ListQuery<'listAlerts'>, call?: CallOptions) =>
        list<Alert>((q) => toPage(api.GET('/api/v1/alerts', { params: { query: q as ListQuery<'listAlerts'> }, ...callInit(call) })), query),
      /** getAlert */
      get: (id: string, call?: CallOptions): Promise<Alert> =>
        unwrap(api.GET('/api/v1/alerts/{id}', { params: { path: { id } }, ...callInit(call) })).then((body) => body.data),
      /** updateAlert */
      update: (id: string, body: AlertUpdate, call?: CallOptions): Promise<Alert> =>
        unwrap(api.PATCH('/api/v1/alerts/{id}', { params: { path: { id } }, body, ...callInit(call) })).then((answer) => answer.data),
      /** deleteAlert */
      delete: (id: string, call?: CallOptions): Promise<void> => expectEmpty(api.DELETE('/api/v1/alerts/{id}', { params: { path: { id } }, ...callInit(call) })),
      /** listAlertDeliveries: the alert's firings and tests, newest first */
      deliveries: (id: string, query?: ListQuery<'listAlertDeliveries'>, call?: CallOptions) =>
        list<AlertDelivery>(
          (q) => toPage(api.GET('/api/v1/alerts/{id}/deliveries', { params: { path: { id }, query: q as ListQuery<'listAlertDeliveries'> }, ...callInit(call) })),
          query,
        ),
      /** testAlert: queues a sample message to the alert's destination */
      test: (id: string, call?: WriteOptions): Promise<{ queued: number; delivery_id: string }> =>
        unwrap(api.POST('/api/v1/alerts/{id}/test', { params: { path: { id } }, ...writeInit(call) })).then((answer) => answer.data),
    },

    events: {
      /**
       * sendEvents: what the browser tracker sends, from a server (a batch of
       * 1 to 100 events with a site key; retried safely: an event id already
       * received is counted as a duplicate)
       */
      send: (batch: EventBatch, call?: CallOptions): Promise<EventCounts> =>
        unwrap(api.POST('/e', { body: batch, ...callInit(call) })).then((answer) => answer.data),
    },
  };
}
