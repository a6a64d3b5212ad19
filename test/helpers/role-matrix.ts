/**
 * The role matrix of the dashboard's API (CONTRACT C7.4, C7.6): for every
 * route under /dashboard/api, the least role that may call it, written here
 * from the contract, independently of the route's own declaration
 * (`config.dashboardAccess`). test/http/role-matrix.test.ts checks that the
 * two agree and that the server answers each role accordingly; a dashboard
 * route this table does not know fails that test, so a route added later
 * must be given its row here (CONTRIBUTING.md says how).
 */
import type { RegisteredRoute } from '../../src/http/route-table.js';

export type Access = 'public' | 'viewer' | 'member' | 'admin';

export const DASHBOARD_PREFIX = '/dashboard/api';

/**
 * C7.4: a viewer reads; a member also edits leads and identities; an admin
 * also manages API keys, site keys, webhooks, members, company rules and the
 * workspace's settings. `public`: answered without a session (signing in, one-time links).
 * A route that needs a session but no more than reading is `viewer`.
 */
export const LEAST_ROLE: Record<string, Access> = {
  'POST /dashboard/api/sign-in': 'public',
  'POST /dashboard/api/sign-out': 'viewer',
  'GET /dashboard/api/session': 'public',
  'GET /dashboard/api/openapi.json': 'public',
  'PUT /dashboard/api/session/workspace': 'viewer',
  'POST /dashboard/api/password-links/inspect': 'public',
  'POST /dashboard/api/password-links/redeem': 'public',
  'PUT /dashboard/api/account/password': 'viewer',
  // C9.5: the overview's traffic figures, every member's
  'GET /dashboard/api/overview/traffic': 'viewer',
  'GET /dashboard/api/tracking-status': 'viewer',
  // C9.1: the search box is in the header of every page, every member's
  'GET /dashboard/api/search': 'viewer',
  // C9.2: the Live page and its stream of notices, every member's
  'GET /dashboard/api/live': 'viewer',
  'GET /dashboard/api/live/stream': 'viewer',
  'GET /dashboard/api/leads': 'viewer',
  // C9.7, C11.5: Export CSV reads what the lists show
  'GET /dashboard/api/leads/export': 'viewer',
  'GET /dashboard/api/identities/export': 'viewer',
  'GET /dashboard/api/companies/export': 'viewer',
  'GET /dashboard/api/leads/:id': 'viewer',
  'PATCH /dashboard/api/leads/:id': 'member',
  // C9.3 with C7.4: notes are part of working a lead; every member reads them, a member (not a viewer) writes them
  'GET /dashboard/api/leads/:id/notes': 'viewer',
  'POST /dashboard/api/leads/:id/notes': 'member',
  'GET /dashboard/api/identities': 'viewer',
  'GET /dashboard/api/identities/:id': 'viewer',
  'PATCH /dashboard/api/identities/:id': 'member',
  'GET /dashboard/api/identities/:id/activity': 'viewer',
  'GET /dashboard/api/identities/:id/personalities': 'viewer',
  'GET /dashboard/api/companies': 'viewer',
  'GET /dashboard/api/companies/:id': 'viewer',
  // C6.9, C9.4: a company as an account (engagement, activity) is read by every member of the workspace
  'GET /dashboard/api/companies/:id/engagement': 'viewer',
  'GET /dashboard/api/companies/:id/activity': 'viewer',
  'GET /dashboard/api/companies/:id/identities': 'viewer',
  'GET /dashboard/api/companies/:id/leads': 'viewer',
  'GET /dashboard/api/lists': 'viewer',
  'GET /dashboard/api/lists/:id': 'viewer',
  'GET /dashboard/api/lists/:id/identities': 'viewer',
  // C9.6 with C7.4: everyone builds a draft and sees its count and suggestions (nothing is written); members and admins save segments
  'POST /dashboard/api/segments/count': 'viewer',
  'GET /dashboard/api/segments/suggestions': 'viewer',
  'POST /dashboard/api/lists': 'member',
  'PATCH /dashboard/api/lists/:id': 'member',
  'GET /dashboard/api/workspace': 'viewer',
  'GET /dashboard/api/keys': 'viewer',
  'POST /dashboard/api/keys': 'admin',
  'POST /dashboard/api/keys/:id/rotate': 'admin',
  'POST /dashboard/api/keys/:id/revoke': 'admin',
  'GET /dashboard/api/members': 'viewer',
  'POST /dashboard/api/members': 'admin',
  'PATCH /dashboard/api/members/:id': 'admin',
  'DELETE /dashboard/api/members/:id': 'admin',
  'POST /dashboard/api/members/:id/reset-link': 'admin',
  'GET /dashboard/api/site-keys': 'viewer',
  'POST /dashboard/api/site-keys': 'admin',
  'POST /dashboard/api/site-keys/:id/revoke': 'admin',
  'GET /dashboard/api/ideal-customer': 'viewer',
  'PUT /dashboard/api/ideal-customer': 'admin',
  'GET /dashboard/api/webhook-events': 'viewer',
  'GET /dashboard/api/webhooks': 'viewer',
  'POST /dashboard/api/webhooks': 'admin',
  'PATCH /dashboard/api/webhooks/:id': 'admin',
  'DELETE /dashboard/api/webhooks/:id': 'admin',
  'POST /dashboard/api/webhooks/:id/test': 'admin',
  'GET /dashboard/api/webhooks/:id/deliveries': 'viewer',
  // C10.1: admins manage alerts, members and viewers read them and their deliveries
  'GET /dashboard/api/alerts': 'viewer',
  'POST /dashboard/api/alerts': 'admin',
  'PATCH /dashboard/api/alerts/:id': 'admin',
  'DELETE /dashboard/api/alerts/:id': 'admin',
  'POST /dashboard/api/alerts/:id/test': 'admin',
  'GET /dashboard/api/alerts/:id/deliveries': 'viewer',
  // C10.4: every member chooses their own email digest; admins set the workspace's time zone
  'GET /dashboard/api/account/digest': 'viewer',
  'PUT /dashboard/api/account/digest': 'viewer',
  'PUT /dashboard/api/workspace/time-zone': 'admin',
  // C6.8: a workspace's admins map networks and domains to companies; everyone reads the rules
  'GET /dashboard/api/company-rules': 'viewer',
  'POST /dashboard/api/company-rules': 'admin',
  'DELETE /dashboard/api/company-rules/:id': 'admin',
};

/** Routes whose success ends the caller's session: the matrix calls them with a session of their own. */
export const ENDS_SESSION = new Set(['POST /dashboard/api/sign-out']);

export interface RoleOperation {
  key: string;
  route: RegisteredRoute;
  /** what the contract says (LEAST_ROLE) */
  least: Access;
  /** what the route declares (config.dashboardAccess; unset is viewer, as the session gate reads it) */
  declared: string;
}

export interface RolePlan {
  operations: RoleOperation[];
  /** dashboard routes LEAST_ROLE does not know: each one fails the test */
  uncovered: string[];
  /** rows of LEAST_ROLE that name no route: each one fails the test too */
  stale: string[];
}

export function routeKey(route: Pick<RegisteredRoute, 'method' | 'url'>): string {
  return `${route.method} ${route.url.replace(/\/$/, '')}`;
}

export function planRoleMatrix(routes: readonly RegisteredRoute[]): RolePlan {
  const operations: RoleOperation[] = [];
  const uncovered: string[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    // HEAD answers as GET does (Fastify adds it to every GET route)
    if (route.method === 'HEAD' || !(route.url === DASHBOARD_PREFIX || route.url.startsWith(`${DASHBOARD_PREFIX}/`))) continue;
    const key = routeKey(route);
    if (seen.has(key)) continue;
    seen.add(key);
    const least = LEAST_ROLE[key];
    if (least === undefined) uncovered.push(key);
    else operations.push({ key, route, least, declared: route.dashboardAccess ?? 'viewer' });
  }
  const stale = Object.keys(LEAST_ROLE).filter((key) => !seen.has(key));
  return { operations, uncovered, stale };
}

const RANK: Record<Exclude<Access, 'public'>, number> = { viewer: 0, member: 1, admin: 2 };

/** Whether a session of `role` may call a route that needs `least`. */
export function roleMayCall(role: Exclude<Access, 'public'>, least: Access): boolean {
  return least === 'public' || RANK[role] >= RANK[least];
}
