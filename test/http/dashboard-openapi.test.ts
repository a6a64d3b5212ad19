/**
 * CONTRACT C9.10: /dashboard/api is described in its own OpenAPI document,
 * served at /dashboard/api/openapi.json, and the dashboard's types are
 * generated from it (dashboard/src/generated/dashboard-api.ts; stale types
 * fail here and in `npm run check`). The public document and the
 * dashboard's do not carry each other's paths or shapes.
 */
import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_TYPES, dashboardTypes } from '../../scripts/dashboard-types-generate.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
  webhooks?: unknown;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** every `$ref` a value holds */
function refsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.add(child);
      else refsIn(child, into);
    }
  }
  return into;
}

/** `/dashboard/api/leads/:id` → `/dashboard/api/leads/{id}` */
const openapiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

describe('the dashboard API document (C9.10)', () => {
  let t: TestApp;
  let dashboard: Document;
  let api: Document;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const served = await t.app.inject({ method: 'GET', url: '/dashboard/api/openapi.json' });
    expect(served.statusCode).toBe(200);
    dashboard = served.json();
    api = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t?.close());

  it('is served without a session and is a valid OpenAPI 3.1 document', async () => {
    expect(dashboard.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await new Validator().validate(structuredClone(dashboard) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(dashboard.components.securitySchemes?.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'leadlight_session' });
  });

  it('describes every route of /dashboard/api, by its method, and nothing else', () => {
    const routes = t.app.routeTable
      .routes()
      .filter((route) => route.url.startsWith('/dashboard/api/') && route.url !== '/dashboard/api/openapi.json' && route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      expect(dashboard.paths[openapiPath(route.url)]?.[route.method.toLowerCase()], `${route.method} ${route.url}`).toBeDefined();
    }
    const documented = Object.entries(dashboard.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => METHODS.includes(key)).map((method) => `${method} ${path}`));
    expect(documented).toHaveLength(routes.length);
    expect(dashboard.webhooks).toBeUndefined();
  });

  it('keeps the two documents apart: no dashboard path in the public one, no API path in the dashboard one', () => {
    expect(Object.keys(api.paths).filter((path) => path.startsWith('/dashboard/'))).toEqual([]);
    expect(Object.keys(dashboard.paths).filter((path) => !path.startsWith('/dashboard/api/'))).toEqual([]);
  });

  it.each(['dashboard', 'api'] as const)('the %s document holds every schema it refers to and no other', (which) => {
    const document = which === 'dashboard' ? dashboard : api;
    const refs = refsIn(document);
    for (const ref of refs) {
      const [, , section, name] = ref.split('/');
      expect((document.components as Record<string, Record<string, unknown>>)[section ?? '']?.[name ?? ''], ref).toBeDefined();
    }
    for (const name of Object.keys(document.components.schemas)) expect(refs.has(`#/components/schemas/${name}`), name).toBe(true);
  });

  it("shares the resource schemas with the public document (one shape for a lead on both)", () => {
    expect(dashboard.components.schemas.Lead).toEqual(api.components.schemas.Lead);
  });

  it('is what the dashboard types were generated from: the checked-in file is not stale', async () => {
    expect(fs.readFileSync(DASHBOARD_TYPES, 'utf8')).toBe(await dashboardTypes());
  }, 60_000);
});
