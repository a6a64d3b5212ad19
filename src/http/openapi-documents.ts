/**
 * The two OpenAPI documents cut from the one @fastify/swagger builds from
 * every route schema: the public API's (/api/v1, the events endpoint, its
 * webhooks) served at /api/v1/openapi.json and /docs, and the dashboard's
 * own (/dashboard/api, CONTRACT C9.10) served at /dashboard/api/openapi.json,
 * from which the dashboard's types are generated. Each keeps only the
 * components its paths reach, so neither document carries the other's
 * shapes.
 */
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_API_PREFIX } from './dashboard/session-gate.js';

type Document = Record<string, unknown> & {
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown> | undefined>;
  webhooks?: unknown;
};

const DASHBOARD_DESCRIPTION = `The endpoints the Leadlight dashboard calls, bound to the signed-in person's workspace. They are the dashboard's, not an API to build on (that is /api/v1): they change with the dashboard, and the dashboard's TypeScript types are generated from this document (\`npm run dashboard:types\`).

**Session.** \`POST /dashboard/api/sign-in\` sets the \`leadlight_session\` cookie (HttpOnly, SameSite=Lax) and answers a \`csrf_token\`; every request that changes something sends it back as \`X-CSRF-Token\`. Each route needs a role (viewer, member or admin) of the session's workspace: a lesser role is 403.

**Errors** have the API's shape: \`{"error": code, "message": text, "details"?: object}\`.`;

const isDashboardPath = (path: string) => path.startsWith(`${DASHBOARD_API_PREFIX}/`);

/** Every `#/components/<section>/<name>` a value refers to, followed through the components it reaches. */
function reachableComponents(document: Document, roots: unknown[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/') && !seen.has(child)) {
          seen.add(child);
          const [, , section, name] = child.split('/');
          pending.push(document.components?.[section ?? '']?.[name ?? '']);
        } else pending.push(child);
      }
    }
  }
  return seen;
}

/** The document with only the paths `keep` accepts and the schemas and headers they reach. */
function cut(full: Document, keep: (path: string) => boolean, withWebhooks: boolean): Document {
  const document = structuredClone(full);
  document.paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([path]) => keep(path)));
  if (!withWebhooks) delete document.webhooks;
  const reached = reachableComponents(document, [document.paths, document.webhooks]);
  for (const section of ['schemas', 'headers']) {
    const components = document.components?.[section];
    if (components === undefined) continue;
    for (const name of Object.keys(components)) if (!reached.has(`#/components/${section}/${name}`)) delete components[name];
  }
  return document;
}

/** The public API's document: everything but the dashboard's endpoints. */
export function apiDocument(full: Record<string, unknown>): Record<string, unknown> {
  return cut(full as Document, (path) => !isDashboardPath(path), true);
}

/** The dashboard's document (C9.10): its endpoints only, with the session as its security. */
export function dashboardDocument(full: Record<string, unknown>): Record<string, unknown> {
  const document = cut(full as Document, isDashboardPath, false);
  const info = (document.info ?? {}) as Record<string, unknown>;
  document.info = { ...info, title: 'Leadlight dashboard API', description: DASHBOARD_DESCRIPTION };
  delete document.tags;
  document.components = {
    ...document.components,
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: 'leadlight_session', description: 'The session cookie set by POST /dashboard/api/sign-in.' },
    },
  };
  document.security = [{ session: [] }];
  return document;
}

export interface OpenapiDocuments {
  api: () => Record<string, unknown>;
  dashboard: () => Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    openapiDocuments: OpenapiDocuments;
  }
}

/** Each document built once from the app's routes (they do not change after ready). */
export function documentsOf(app: FastifyInstance): OpenapiDocuments {
  let api: Record<string, unknown> | undefined;
  let dashboard: Record<string, unknown> | undefined;
  const full = () => app.swagger() as unknown as Record<string, unknown>;
  return {
    api: () => (api ??= apiDocument(full())),
    dashboard: () => (dashboard ??= dashboardDocument(full())),
  };
}
