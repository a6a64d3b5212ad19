/**
 * The isolation matrix: what each route of the application must show about
 * workspace isolation, and the fixtures that let it be shown. Every route the
 * application registers must appear here (as a tenant operation, or as a
 * route that serves no workspace's data, with the reason); planMatrix()
 * reports those that do not, so a route added without coverage fails the
 * test on the day it is added (test/http/isolation-matrix.test.ts).
 *
 * The fixtures give two workspaces the same ids for every resource that can
 * be given an id (ids are unique per workspace only), plus ids that exist in
 * one workspace only, so that a query that forgets its workspace answers
 * with the other workspace's row and is seen.
 */
import { randomUUID } from 'node:crypto';
import type { RegisteredRoute } from '../../src/http/route-table.js';
import type { TestApp, TestWorkspace } from './app.js';
import { Store } from '../../src/repositories/index.js';
import { importRows } from './fixtures.js';

export type Resource = 'leads' | 'identities' | 'activity' | 'personalities' | 'companies' | 'lists' | 'users';
/** what an operation by id can name: a workspace's resource, or one of its API or site keys (operator data, ids unique across workspaces) */
export type Target = Resource | 'keys' | 'site-keys';

export type Operation =
  /** a collection: walked to its end, it holds the caller's items only */
  | { kind: 'list'; resource: Resource }
  /** one item by path id: another workspace's id answers like an unknown id; a shared id answers the caller's item */
  | { kind: 'read'; resource: Resource }
  /** a change by path id: as read, and the other workspace's item never changes; references to its items are refused */
  | { kind: 'update'; resource: Resource; body: Record<string, unknown> }
  /** a creation: references to another workspace's items are refused and create nothing */
  | { kind: 'create'; resource: Resource; body: Record<string, unknown> }
  /** the items of one parent item: another workspace's parent answers like an unknown one; a shared parent lists the caller's items */
  | { kind: 'children'; parent: Resource; child: Resource; paged: boolean }
  /** the workspace's API keys (dashboard settings): exactly the caller's active keys */
  | { kind: 'keys' }
  /** the workspace's site keys (dashboard settings): exactly the caller's, revoked ones included */
  | { kind: 'site-keys' }
  /** the workspace's ideal customer (dashboard settings): each workspace reads and sets its own only */
  | { kind: 'ideal-customer' }
  /** an action on one item by path id (rotate, revoke, reset link, removal): another workspace's id answers like an unknown id and its item is untouched */
  | { kind: 'action'; target: Target; body?: Record<string, unknown> }
  /** a creation that takes no references (a key, a member): it lands in the caller's workspace, never the other's */
  | { kind: 'own-create'; target: 'keys' | 'site-keys' | 'users'; body: () => Record<string, unknown> }
  /** an answer about the caller's workspace as a whole (settings, overview): it describes the caller's workspace only */
  | { kind: 'summary'; of: 'workspace' | 'overview/traffic' | 'tracking-status' }
  /** pointing a dashboard session at a workspace: one the person is not a member of answers 404 and the session stays */
  | { kind: 'switch' }
  /**
   * events sent with a site key (CONTRACT C5.3): they land in the key's
   * workspace only, whatever visitor ids and emails they name, and the other
   * workspace's API key sees nothing of what they derive
   */
  | { kind: 'ingest' }
  /**
   * erasing a person (CONTRACT C8.4) by the email and by the visitor id of
   * the other workspace's own identity: nothing of the caller's matches, so
   * nothing is erased, and the other workspace's identity stays
   */
  | { kind: 'erase' }
  /** a detail of one item by path id that is not an item itself (a list's rule): another workspace's id answers like an unknown id */
  | { kind: 'detail'; resource: Resource }
  /** identities added to a list by id (CONTRACT C6.4): another workspace's list answers like an unknown one; its identities are refused (403) */
  | { kind: 'add-members' }
  /** an identity removed from a list: another workspace's list or identity answers like an unknown one, and its list keeps its members */
  | { kind: 'remove-member' }
  /**
   * a webhook endpoint route (CONTRACT C8.5): the other workspace's endpoint
   * answers like an unknown one (404) and stays as it was; lists and
   * creations hold the caller's endpoints only
   */
  | { kind: 'webhook'; action: 'create' | 'list' | 'read' | 'update' | 'delete' | 'deliveries' | 'test' | 'retry' | 'replay' }
  /**
   * a company rule route (CONTRACT C6.8): the other workspace's rule answers
   * like an unknown one (404) and stays; a rule naming the other workspace's
   * company is refused (403) and nothing is made; lists hold the caller's rules only
   */
  | { kind: 'company-rule'; action: 'create' | 'list' | 'read' | 'delete' }
  /** the dashboard's search (CONTRACT C9.1): a text both workspaces' items hold finds the caller's items only */
  | { kind: 'search' }
  /**
   * the changes feed (CONTRACT C11.1): walked to its end it holds the
   * caller's events only, and the other workspace's cursor is refused (400)
   */
  | { kind: 'changes' }
  /**
   * an alert route (CONTRACT C10.1): the other workspace's alert answers like
   * an unknown one (404) and stays; an alert naming the other workspace's list
   * is refused (403) and nothing is made; lists hold the caller's alerts only
   */
  | { kind: 'alert'; action: 'create' | 'list' | 'read' | 'update' | 'delete' | 'deliveries' | 'test' }
  /**
   * a batch (CONTRACT C11.4): an operation naming the other workspace's item
   * (an update by id, a reference, an identity's email) never reaches it: the
   * lead batch answers 400 and writes nothing, the identity batch creates the
   * caller's own identity; the other workspace's items stay as they were
   */
  | { kind: 'batch'; resource: 'leads' | 'identities' }
  /**
   * a lead's notes (CONTRACT C9.3): the other workspace's lead answers like
   * an unknown one (404) and its notes stay as they were; a shared lead id
   * names the caller's lead, whose notes are the caller's only
   */
  | { kind: 'notes'; action: 'list' | 'create' | 'read' }
  /**
   * digests (CONTRACT C10.4): a member's own `Email digest` and the
   * workspace's time zone, set in the caller's workspace: the other
   * workspace's time zone stays as it was
   */
  | { kind: 'digest'; of: 'choice' | 'time-zone' }
  /** the Live page (CONTRACT C9.2): the caller's visits only */
  | { kind: 'live' }
  /** the Live page's event stream: the caller's visits notify it, the other workspace's never */
  | { kind: 'live-stream' }
  /** a search (CONTRACT C11.3), walked to its end through its cursors: exactly the caller's items, whatever the filter matches elsewhere */
  | { kind: 'record-search'; resource: 'leads' | 'identities' | 'companies' }
  /** an export (CONTRACT C11.5), NDJSON and CSV: exactly the caller's items */
  | { kind: 'export'; resource: 'leads' | 'identities' | 'companies' }
  /** a draft segment rule's match count (CONTRACT C9.6): the caller's people only, whatever the rule names of the other workspace */
  | { kind: 'segment-count' }
  /** the segment builder's suggestions (C9.6): values of the caller's companies and people only */
  | { kind: 'segment-suggestions' };

/** Routes that serve no workspace's data, and why they are safe. */
export const NOT_TENANT: Record<string, string> = {
  'GET /healthz': 'says the process is up; no data',
  'GET /readyz': 'says whether the store answers; no data',
  'GET /metrics': 'operator metrics, behind METRICS_TOKEN; counts by route, no workspace data',
  'GET /api/v1/openapi.json': 'the API description; no data',
  'GET /dashboard/api/openapi.json': 'the dashboard API description (C9.10); no data',
  'GET /': "the dashboard's page (static HTML); data comes through /dashboard/api",
  'GET /assets/*': "the dashboard's static scripts and styles; no data",
  'POST /dashboard/api/sign-in': 'starts a session of a person, in one of their own workspaces (checked by the session tests)',
  'POST /dashboard/api/sign-out': "ends the caller's own session; no workspace data",
  'GET /dashboard/api/session': 'the signed-in person and the workspaces they belong to; no workspace data',
  'POST /dashboard/api/password-links/inspect': "the email a one-time link is for; the link's secret is the credential",
  'POST /dashboard/api/password-links/redeem': 'sets the password a one-time link is for; no workspace data',
  'PUT /dashboard/api/account/password': "the caller's own password; no workspace data",
  'GET /dashboard/api/webhook-events': 'the webhook event types an endpoint can subscribe to, as the API reference documents them; no workspace data',
  'GET /t.js': 'the tracker script: one public file for every site; no data',
  'OPTIONS /e': 'the CORS preflight of the events endpoint: no key, no body, no data',
  'GET /docs': 'the API reference page (static HTML, CONTRACT C8.1); no data',
  'GET /docs/js/scalar.js': "the API reference's script, bundled in its package: redirects to its content address; no data",
  'GET /docs/js/:file': "the API reference's script at its content address, compressed; no data",
  'GET /docs/openapi.json': 'the API description, as the reference reads it; no data',
  'GET /docs/openapi.yaml': 'the API description in YAML; no data',
};

let memberCounter = 0;

export const MATRIX: Record<string, Operation> = {
  'GET /api/v1/leads': { kind: 'list', resource: 'leads' },
  'POST /api/v1/leads': { kind: 'create', resource: 'leads', body: { code: 'matrix-create' } },
  'DELETE /api/v1/leads/:id': { kind: 'action', target: 'leads' },
  'POST /api/v1/erasures': { kind: 'erase' },
  'POST /api/v1/webhooks': { kind: 'webhook', action: 'create' },
  'GET /api/v1/webhooks': { kind: 'webhook', action: 'list' },
  'GET /api/v1/webhooks/:id': { kind: 'webhook', action: 'read' },
  'PATCH /api/v1/webhooks/:id': { kind: 'webhook', action: 'update' },
  'DELETE /api/v1/webhooks/:id': { kind: 'webhook', action: 'delete' },
  'GET /api/v1/webhooks/:id/deliveries': { kind: 'webhook', action: 'deliveries' },
  'POST /api/v1/webhooks/:id/test': { kind: 'webhook', action: 'test' },
  'GET /api/v1/changes': { kind: 'changes' },
  'POST /api/v1/webhooks/:id/deliveries/:delivery_id/retry': { kind: 'webhook', action: 'retry' },
  'POST /api/v1/webhooks/:id/replay': { kind: 'webhook', action: 'replay' },
  'POST /api/v1/company-rules': { kind: 'company-rule', action: 'create' },
  'GET /api/v1/company-rules': { kind: 'company-rule', action: 'list' },
  'GET /api/v1/company-rules/:id': { kind: 'company-rule', action: 'read' },
  'DELETE /api/v1/company-rules/:id': { kind: 'company-rule', action: 'delete' },
  'POST /api/v1/alerts': { kind: 'alert', action: 'create' },
  'GET /api/v1/alerts': { kind: 'alert', action: 'list' },
  'GET /api/v1/alerts/:id': { kind: 'alert', action: 'read' },
  'PATCH /api/v1/alerts/:id': { kind: 'alert', action: 'update' },
  'DELETE /api/v1/alerts/:id': { kind: 'alert', action: 'delete' },
  'GET /api/v1/alerts/:id/deliveries': { kind: 'alert', action: 'deliveries' },
  'POST /api/v1/alerts/:id/test': { kind: 'alert', action: 'test' },
  'GET /api/v1/leads/:id': { kind: 'read', resource: 'leads' },
  'PATCH /api/v1/leads/:id': { kind: 'update', resource: 'leads', body: { properties: { changed: true }, summary: { x: 1 } } },
  'GET /api/v1/identities': { kind: 'list', resource: 'identities' },
  'POST /api/v1/identities': { kind: 'create', resource: 'identities', body: { email: 'matrix@example.com' } },
  'GET /api/v1/identities/:id': { kind: 'read', resource: 'identities' },
  'PATCH /api/v1/identities/:id': { kind: 'update', resource: 'identities', body: { name: 'Changed', is_favorite: true } },
  'GET /api/v1/identities/:id/activity': { kind: 'children', parent: 'identities', child: 'activity', paged: true },
  'GET /api/v1/identities/:id/personalities': { kind: 'children', parent: 'identities', child: 'personalities', paged: false },
  'GET /api/v1/companies': { kind: 'list', resource: 'companies' },
  'GET /api/v1/companies/:id': { kind: 'read', resource: 'companies' },
  'GET /api/v1/companies/:id/identities': { kind: 'children', parent: 'companies', child: 'identities', paged: true },
  'GET /api/v1/companies/:id/engagement': { kind: 'detail', resource: 'companies' },
  'GET /api/v1/companies/:id/activity': { kind: 'children', parent: 'companies', child: 'activity', paged: true },
  'GET /api/v1/lists': { kind: 'list', resource: 'lists' },
  'POST /api/v1/lists': { kind: 'create', resource: 'lists', body: { name: 'matrix list' } },
  'GET /api/v1/lists/:id': { kind: 'read', resource: 'lists' },
  'PATCH /api/v1/lists/:id': { kind: 'update', resource: 'lists', body: { description: 'changed', color: '#445566' } },
  'DELETE /api/v1/lists/:id': { kind: 'action', target: 'lists' },
  'GET /api/v1/lists/:id/rule': { kind: 'detail', resource: 'lists' },
  'GET /api/v1/lists/:id/identities': { kind: 'children', parent: 'lists', child: 'identities', paged: true },
  'POST /api/v1/lists/:id/identities': { kind: 'add-members' },
  'DELETE /api/v1/lists/:id/identities/:identity_id': { kind: 'remove-member' },
  'GET /api/v1/users': { kind: 'list', resource: 'users' },
  'GET /api/v1/users/:id': { kind: 'read', resource: 'users' },
  'POST /api/v1/leads/batch': { kind: 'batch', resource: 'leads' },
  'POST /api/v1/identities/batch': { kind: 'batch', resource: 'identities' },
  'POST /api/v1/leads/search': { kind: 'record-search', resource: 'leads' },
  'POST /api/v1/identities/search': { kind: 'record-search', resource: 'identities' },
  'POST /api/v1/companies/search': { kind: 'record-search', resource: 'companies' },
  'GET /api/v1/leads/export': { kind: 'export', resource: 'leads' },
  'GET /api/v1/identities/export': { kind: 'export', resource: 'identities' },
  'GET /api/v1/companies/export': { kind: 'export', resource: 'companies' },
  'GET /dashboard/api/leads/export': { kind: 'export', resource: 'leads' },
  'GET /dashboard/api/identities/export': { kind: 'export', resource: 'identities' },
  'GET /dashboard/api/companies/export': { kind: 'export', resource: 'companies' },
  // the dashboard's endpoints, called with a session of the workspace (never a key)
  'GET /dashboard/api/overview/traffic': { kind: 'summary', of: 'overview/traffic' },
  'GET /dashboard/api/tracking-status': { kind: 'summary', of: 'tracking-status' },
  'GET /dashboard/api/search': { kind: 'search' },
  'GET /dashboard/api/live': { kind: 'live' },
  'GET /dashboard/api/live/stream': { kind: 'live-stream' },
  'GET /dashboard/api/leads': { kind: 'list', resource: 'leads' },
  'GET /api/v1/leads/:id/notes': { kind: 'notes', action: 'list' },
  'POST /api/v1/leads/:id/notes': { kind: 'notes', action: 'create' },
  'GET /api/v1/leads/:id/notes/:note_id': { kind: 'notes', action: 'read' },
  'GET /dashboard/api/leads/:id/notes': { kind: 'notes', action: 'list' },
  'POST /dashboard/api/leads/:id/notes': { kind: 'notes', action: 'create' },
  'GET /dashboard/api/leads/:id': { kind: 'read', resource: 'leads' },
  'PATCH /dashboard/api/leads/:id': { kind: 'update', resource: 'leads', body: { properties: { dashboard: true }, summary: { y: 2 } } },
  'GET /dashboard/api/identities': { kind: 'list', resource: 'identities' },
  'GET /dashboard/api/identities/:id': { kind: 'read', resource: 'identities' },
  'PATCH /dashboard/api/identities/:id': { kind: 'update', resource: 'identities', body: { traits: { dashboard: true }, is_favorite: false } },
  'GET /dashboard/api/identities/:id/activity': { kind: 'children', parent: 'identities', child: 'activity', paged: true },
  'GET /dashboard/api/identities/:id/personalities': { kind: 'children', parent: 'identities', child: 'personalities', paged: false },
  'GET /dashboard/api/companies': { kind: 'list', resource: 'companies' },
  'GET /dashboard/api/companies/:id': { kind: 'read', resource: 'companies' },
  'GET /dashboard/api/companies/:id/engagement': { kind: 'detail', resource: 'companies' },
  'GET /dashboard/api/companies/:id/activity': { kind: 'children', parent: 'companies', child: 'activity', paged: true },
  'GET /dashboard/api/companies/:id/identities': { kind: 'children', parent: 'companies', child: 'identities', paged: true },
  'GET /dashboard/api/companies/:id/leads': { kind: 'children', parent: 'companies', child: 'leads', paged: true },
  'GET /dashboard/api/lists': { kind: 'list', resource: 'lists' },
  'GET /dashboard/api/lists/:id': { kind: 'read', resource: 'lists' },
  'GET /dashboard/api/lists/:id/identities': { kind: 'children', parent: 'lists', child: 'identities', paged: true },
  'POST /dashboard/api/lists': { kind: 'create', resource: 'lists', body: { name: 'dashboard matrix segment', rule: { all: [{ field: 'country', op: 'eq', value: 'NO' }] } } },
  'PATCH /dashboard/api/lists/:id': { kind: 'update', resource: 'lists', body: { description: 'changed in the dashboard' } },
  'POST /dashboard/api/segments/count': { kind: 'segment-count' },
  'GET /dashboard/api/segments/suggestions': { kind: 'segment-suggestions' },
  'GET /dashboard/api/ideal-customer': { kind: 'ideal-customer' },
  'PUT /dashboard/api/ideal-customer': { kind: 'ideal-customer' },
  'GET /dashboard/api/workspace': { kind: 'summary', of: 'workspace' },
  'GET /dashboard/api/keys': { kind: 'keys' },
  'POST /dashboard/api/keys': { kind: 'own-create', target: 'keys', body: () => ({ type: 'development', name: 'matrix key' }) },
  'POST /dashboard/api/keys/:id/rotate': { kind: 'action', target: 'keys' },
  'POST /dashboard/api/keys/:id/revoke': { kind: 'action', target: 'keys' },
  'GET /dashboard/api/site-keys': { kind: 'site-keys' },
  'POST /dashboard/api/site-keys': { kind: 'own-create', target: 'site-keys', body: () => ({ name: 'matrix site', origins: ['https://matrix.example.com'] }) },
  'POST /dashboard/api/site-keys/:id/revoke': { kind: 'action', target: 'site-keys' },
  'GET /dashboard/api/members': { kind: 'list', resource: 'users' },
  'POST /dashboard/api/members': {
    kind: 'own-create',
    target: 'users',
    body: () => ({ email: `matrix.invite.${++memberCounter}@example.com`, role: 'viewer' }),
  },
  'PATCH /dashboard/api/members/:id': { kind: 'update', resource: 'users', body: { role: 'member' } },
  'DELETE /dashboard/api/members/:id': { kind: 'action', target: 'users' },
  'POST /dashboard/api/members/:id/reset-link': { kind: 'action', target: 'users' },
  'PUT /dashboard/api/session/workspace': { kind: 'switch' },
  'GET /dashboard/api/webhooks': { kind: 'webhook', action: 'list' },
  'POST /dashboard/api/webhooks': { kind: 'webhook', action: 'create' },
  'PATCH /dashboard/api/webhooks/:id': { kind: 'webhook', action: 'update' },
  'DELETE /dashboard/api/webhooks/:id': { kind: 'webhook', action: 'delete' },
  'POST /dashboard/api/webhooks/:id/test': { kind: 'webhook', action: 'test' },
  'GET /dashboard/api/webhooks/:id/deliveries': { kind: 'webhook', action: 'deliveries' },
  'GET /dashboard/api/company-rules': { kind: 'company-rule', action: 'list' },
  'POST /dashboard/api/company-rules': { kind: 'company-rule', action: 'create' },
  'DELETE /dashboard/api/company-rules/:id': { kind: 'company-rule', action: 'delete' },
  'GET /dashboard/api/alerts': { kind: 'alert', action: 'list' },
  'POST /dashboard/api/alerts': { kind: 'alert', action: 'create' },
  'PATCH /dashboard/api/alerts/:id': { kind: 'alert', action: 'update' },
  'DELETE /dashboard/api/alerts/:id': { kind: 'alert', action: 'delete' },
  'POST /dashboard/api/alerts/:id/test': { kind: 'alert', action: 'test' },
  'GET /dashboard/api/alerts/:id/deliveries': { kind: 'alert', action: 'deliveries' },
  'GET /dashboard/api/account/digest': { kind: 'digest', of: 'choice' },
  'PUT /dashboard/api/account/digest': { kind: 'digest', of: 'choice' },
  'PUT /dashboard/api/workspace/time-zone': { kind: 'digest', of: 'time-zone' },
  'POST /e': { kind: 'ingest' },
};

/** Changes run after every read, so that reads see the fixtures as seeded. */
export function matrixOrder(keys: readonly string[]): string[] {
  const changes = (key: string) =>
    ['update', 'create', 'own-create', 'action', 'switch', 'erase', 'add-members', 'remove-member', 'batch'].includes(MATRIX[key]?.kind ?? '') ? 1 : 0;
  return [...keys].sort((a, b) => changes(a) - changes(b));
}

/** A dashboard session: its cookie and CSRF token. */
export interface MatrixSession {
  cookie: string;
  csrf: string;
}

/** The admin of one workspace only, who signs in to the dashboard for the matrix. */
export const matrixAdmin = (tag: string) => ({ email: `${tag.toLowerCase()}.admin@example.com`, password: `matrix-${tag}-password` });

/** Body fields that name another resource of the workspace (CONTRACT C3.7). */
export const REFERENCE_FIELDS: Record<string, Resource> = { identity_id: 'identities', company_id: 'companies' };
/** Body fields that are ids but name no resource (C3.7: free UUIDs). */
export const FREE_ID_FIELDS = new Set(['visitor_id', 'session_id']);

export interface PlannedOperation {
  key: string;
  route: RegisteredRoute;
  operation: Operation;
  /** the body's reference fields, read from the route's schema */
  references: string[];
}

export interface Plan {
  operations: PlannedOperation[];
  /** routes the matrix says nothing about: each one fails the test */
  uncovered: string[];
}

function bodyIdFields(route: RegisteredRoute): string[] {
  const body = (route.schema as { body?: { properties?: Record<string, { format?: string; type?: unknown }> } } | undefined)?.body;
  return Object.entries(body?.properties ?? {})
    .filter(([name]) => name.endsWith('_id'))
    .map(([name]) => name);
}

export function planMatrix(routes: readonly RegisteredRoute[]): Plan {
  const operations: PlannedOperation[] = [];
  const uncovered: string[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    // HEAD answers as GET does (Fastify adds it to every GET route)
    if (route.method === 'HEAD') continue;
    const key = `${route.method} ${route.url === '/' ? '/' : route.url.replace(/\/$/, '')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (NOT_TENANT[key] !== undefined) continue;
    const operation = MATRIX[key];
    if (operation === undefined) {
      uncovered.push(key);
      continue;
    }
    if (operation.kind === 'switch') {
      // its workspace_id is the target itself, checked as such
      operations.push({ key, route, operation, references: [] });
      continue;
    }
    const ids = bodyIdFields(route).filter((name) => !FREE_ID_FIELDS.has(name));
    const unknown = ids.filter((name) => REFERENCE_FIELDS[name] === undefined);
    if (unknown.length > 0) uncovered.push(`${key} (body reference ${unknown.join(', ')} names no fixture resource)`);
    operations.push({ key, route, operation, references: ids.filter((name) => REFERENCE_FIELDS[name] !== undefined) });
  }
  return { operations, uncovered };
}

/** What one workspace holds, by resource. */
export interface Holdings {
  workspace: TestWorkspace;
  tag: string;
  /** the workspace's admin's dashboard session (set once the app listens) */
  session?: MatrixSession;
  /** every id of the resource in this workspace */
  ids: Record<Resource, Set<string>>;
  /** an id of the resource that exists in this workspace only */
  only: Record<Resource, string>;
  /** the children of each parent, by child resource */
  children: Record<string, Record<string, Set<string>>>;
}

/** Ids both workspaces use for their own, different, items. */
export interface SharedIds {
  leads: string;
  identities: string;
  activity: string;
  personalities: string;
  companies: string;
  lists: string;
  users: string;
  visitor: string;
}

export function sharedIds(): SharedIds {
  return {
    leads: randomUUID(),
    identities: randomUUID(),
    activity: randomUUID(),
    personalities: randomUUID(),
    companies: randomUUID(),
    lists: randomUUID(),
    users: randomUUID(),
    visitor: randomUUID(),
  };
}

/** The value of a field that tells the two workspaces' items with a shared id apart. */
export const MARKER: Record<Resource, (tag: string) => [string, unknown]> = {
  leads: (tag) => ['code', `${tag}-shared`],
  identities: (tag) => ['name', `${tag} Shared`],
  activity: (tag) => ['what', `${tag} shared activity`],
  personalities: (tag) => ['personality', { type: tag, traits: [tag] }],
  companies: (tag) => ['name', `${tag} Shared Company`],
  lists: (tag) => ['name', `${tag} shared list`],
  users: (tag) => ['workspace_role', tag === 'A' ? 'admin' : 'viewer'],
};

const set = (...ids: string[]) => new Set(ids);

/** Fills a workspace with one shared and one own item of every resource, through the import. */
export async function seedHoldings(t: TestApp, workspace: TestWorkspace, tag: string, shared: SharedIds): Promise<Holdings> {
  const own = sharedIds();
  const lower = tag.toLowerCase();
  const ws = workspace.id;
  await importRows(t, ws, 'companies', [
    { id: shared.companies, name: `${tag} Shared Company`, domain: `${lower}-shared.example` },
    { id: own.companies, name: `${tag} Own Company`, domain: `${lower}-own.example` },
  ]);
  await importRows(t, ws, 'lists', [
    { id: shared.lists, name: `${tag} shared list`, color: '#112233' },
    { id: own.lists, name: `${tag} own list` },
  ]);
  await importRows(t, ws, 'identities', [
    { id: shared.identities, visitor_id: shared.visitor, email: `${lower}.shared@example.com`, name: `${tag} Shared` },
    { id: own.identities, visitor_id: own.visitor, email: `${lower}.own@example.com`, name: `${tag} Own`, is_favorite: true },
  ]);
  const extraActivity = randomUUID();
  await importRows(t, ws, 'activity', [
    { id: shared.activity, identity_id: shared.identities, type: 'page_view', what: `${tag} shared activity`, source: 'web' },
    { id: own.activity, identity_id: shared.identities, type: 'event', what: `${tag} own activity`, source: 'web' },
    { id: extraActivity, identity_id: own.identities, type: 'page_view', what: `${tag} other`, source: 'web' },
  ]);
  await importRows(t, ws, 'personalities', [
    { id: shared.personalities, visitor_id: shared.visitor, score: 0.5, personality: { type: tag, traits: [tag] }, learning_percentage: 0.5 },
    { id: own.personalities, visitor_id: own.visitor, score: 0.25, personality: { type: `${tag}2`, traits: [] }, learning_percentage: 0.25 },
  ]);
  // the shared identity works at the shared company (C6.1) and is in the shared list (C6.4)
  const repos = new Store(t.db.database).forWorkspace(ws).repos;
  await repos.identities.setCompany(shared.identities, shared.companies);
  const sharedIdentity = await repos.identities.findById(shared.identities);
  await repos.listMembers.add(shared.lists, [{ identity_id: shared.identities, identity_created_at: sharedIdentity!.created_at }], new Date().toISOString());
  await importRows(t, ws, 'leads', [
    { id: shared.leads, code: `${tag}-shared`, source: `${lower}-source`, identity_id: shared.identities, company_id: shared.companies },
    { id: own.leads, code: `${tag}-own`, source: `${lower}-source`, visitor_id: own.visitor },
  ]);
  // a note on each lead, its body marked by the workspace (C9.3)
  for (const leadId of [shared.leads, own.leads]) {
    await repos.leadNotes.insert({
      id: randomUUID(),
      lead_id: leadId,
      body: `${tag} note`,
      author_type: 'api_key',
      author_id: workspace.production.id,
      author_name: `${tag} key`,
      created_at: new Date().toISOString(),
    });
  }
  const admin = randomUUID();
  await importRows(t, ws, 'users', [
    { id: shared.users, email: 'shared.person@example.com', name: 'Shared Person', workspace_role: MARKER.users(tag)[1] as string },
    { id: own.users, email: `${lower}.member@example.com`, name: `${tag} Member`, workspace_role: 'member' },
    { id: admin, email: matrixAdmin(tag).email, name: `${tag} Admin`, workspace_role: 'admin' },
  ]);
  await t.services.accounts.setPassword(admin, matrixAdmin(tag).password);
  return {
    workspace,
    tag,
    ids: {
      leads: set(shared.leads, own.leads),
      identities: set(shared.identities, own.identities),
      activity: set(shared.activity, own.activity, extraActivity),
      personalities: set(shared.personalities, own.personalities),
      companies: set(shared.companies, own.companies),
      lists: set(shared.lists, own.lists),
      users: set(shared.users, own.users, admin),
    },
    only: {
      leads: own.leads,
      identities: own.identities,
      activity: own.activity,
      personalities: own.personalities,
      companies: own.companies,
      lists: own.lists,
      users: own.users,
    },
    children: {
      // a company's activity (C6.9) is its identities': the shared company's is the shared identity's
      activity: { [shared.identities]: set(shared.activity, own.activity), [own.identities]: set(extraActivity), [shared.companies]: set(shared.activity, own.activity) },
      personalities: { [shared.identities]: set(shared.personalities), [own.identities]: set(own.personalities) },
      identities: { [shared.companies]: set(shared.identities), [shared.lists]: set(shared.identities) },
      // a company's leads (C9.4): the shared lead names the shared company
      leads: { [shared.companies]: set(shared.leads) },
    },
  };
}
