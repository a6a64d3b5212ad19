/**
 * The OpenAPI document (issue requirement: "OpenAPI 3.1 generated from the
 * route schemas"): served without a key at GET /api/v1/openapi.json, valid
 * OpenAPI 3.1, describing every path and method, the resources exactly as the
 * spec lists their fields, both ways of sending the key, and each operation's
 * success status, body, parameters and error responses (CONTRACT C3.5, C3.8).
 * The document does not depend on the store, so this runs on SQLite only.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, string>> };
  security?: Record<string, string[]>[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The spec's 14 endpoints plus GET /identities/{id} (C4.5). */
const ENDPOINTS: Record<string, string[]> = {
  '/api/v1/leads': ['get', 'post'],
  '/api/v1/leads/{id}': ['get', 'patch'],
  '/api/v1/identities': ['get', 'post'],
  '/api/v1/identities/{id}': ['get', 'patch'],
  '/api/v1/identities/{id}/activity': ['get'],
  '/api/v1/identities/{id}/personalities': ['get'],
  '/api/v1/companies': ['get'],
  '/api/v1/companies/{id}': ['get'],
  '/api/v1/lists': ['get'],
  '/api/v1/users': ['get'],
  '/api/v1/users/{id}': ['get'],
};

/** The spec's field tables, and the error body of C3.5. */
const RESOURCE_FIELDS: Record<string, string[]> = {
  Lead: ['id', 'visitor_id', 'workspace_id', 'code', 'source', 'created_at', 'updated_at', 'properties', 'location',
    'identity_id', 'session_id', 'summary', 'company_id'],
  Identity: ['id', 'workspace_id', 'visitor_id', 'email', 'name', 'traits', 'first_seen', 'last_seen', 'ip', 'city',
    'country', 'is_favorite', 'created_at'],
  Activity: ['id', 'type', 'who', 'what', 'source', 'created_at'],
  Personality: ['id', 'visitor_id', 'score', 'personality', 'features', 'learning_percentage', 'created_at'],
  Company: ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'],
  VisitorList: ['id', 'name', 'description', 'color', 'created_at'],
  WorkspaceUser: ['id', 'email', 'name', 'avatar', 'username', 'language', 'created_at', 'workspace_role', 'joined_at'],
  Pagination: ['limit', 'offset', 'total'],
  Error: ['error', 'message', 'details'],
};

/** What each operation returns in `data`, and whether it is a paginated list. */
const RESULTS: [string, string, string, 'one' | 'list' | 'array'][] = [
  ['get', '/api/v1/leads', 'Lead', 'list'],
  ['post', '/api/v1/leads', 'Lead', 'one'],
  ['get', '/api/v1/leads/{id}', 'Lead', 'one'],
  ['patch', '/api/v1/leads/{id}', 'Lead', 'one'],
  ['get', '/api/v1/identities', 'Identity', 'list'],
  ['post', '/api/v1/identities', 'Identity', 'one'],
  ['get', '/api/v1/identities/{id}', 'Identity', 'one'],
  ['patch', '/api/v1/identities/{id}', 'Identity', 'one'],
  ['get', '/api/v1/identities/{id}/activity', 'Activity', 'list'],
  ['get', '/api/v1/identities/{id}/personalities', 'Personality', 'array'],
  ['get', '/api/v1/companies', 'Company', 'list'],
  ['get', '/api/v1/companies/{id}', 'Company', 'one'],
  ['get', '/api/v1/lists', 'VisitorList', 'list'],
  ['get', '/api/v1/users', 'WorkspaceUser', 'list'],
  ['get', '/api/v1/users/{id}', 'WorkspaceUser', 'one'],
];

/** The body fields of each write: the spec's, with C4.1's summary and C4.3's visitor_id. */
const BODY_FIELDS: [string, string, string[]][] = [
  ['post', '/api/v1/leads', ['visitor_id', 'code', 'source', 'properties', 'location', 'identity_id', 'session_id',
    'company_id', 'summary']],
  ['patch', '/api/v1/leads/{id}', ['properties', 'location', 'summary', 'company_id']],
  ['post', '/api/v1/identities', ['email', 'name', 'traits', 'visitor_id']],
  ['patch', '/api/v1/identities/{id}', ['name', 'traits', 'is_favorite']],
];

/** The query parameters of each list (spec: Endpoints; C3.9). */
const QUERY_PARAMETERS: [string, string[]][] = [
  ['/api/v1/leads', ['limit', 'offset', 'source', 'code', 'created_after', 'created_before']],
  ['/api/v1/identities', ['limit', 'offset', 'email', 'visitor_id', 'is_favorite', 'created_after', 'created_before']],
  ['/api/v1/identities/{id}/activity', ['limit', 'offset']],
  ['/api/v1/companies', ['limit', 'offset', 'name', 'domain']],
  ['/api/v1/lists', ['limit', 'offset']],
  ['/api/v1/users', ['limit', 'offset', 'role']],
];

const ref = (name: string) => `#/components/schemas/${name}`;

function operations(doc: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]): [string, string, Operation] => [method, path, operation]),
  );
}

function collectRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else collectRefs(child, found);
    }
  }
  return found;
}

describe('OpenAPI 3.1 generated from the route schemas', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t?.close());

  it('is served at GET /api/v1/openapi.json without a key, as JSON', async () => {
    for (const headers of [{}, { authorization: 'Bearer ll_prod_not-a-valid-key' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-workspace-id']).toBeUndefined();
      expect(response.json()).toEqual(doc);
    }
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has no reference that points nowhere', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const target of refs) {
      expect(target, target).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(doc.components.schemas[target.slice(ref('').length)], target).toBeDefined();
    }
  });

  it('lists every path and method of the API: the 14 endpoints of the spec and GET /identities/{id} (C4.5)', () => {
    const apiPaths = Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1/'));
    expect(apiPaths.sort()).toEqual(Object.keys(ENDPOINTS).sort());
    for (const [path, methods] of Object.entries(ENDPOINTS)) {
      const documented = Object.keys(doc.paths[path] ?? {}).filter((method) => HTTP_METHODS.includes(method));
      expect(documented.sort(), path).toEqual([...methods].sort());
    }
    expect(operations(doc).filter(([, path]) => path.startsWith('/api/v1/'))).toHaveLength(15);
  });

  it('has the resource schemas as components, each with exactly the fields of the spec', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(Object.keys(RESOURCE_FIELDS)));
    for (const [name, fields] of Object.entries(RESOURCE_FIELDS)) {
      const schema = doc.components.schemas[name];
      expect(Object.keys(schema?.properties ?? {}).sort(), name).toEqual([...fields].sort());
    }
  });

  it('declares both ways of sending the key (Bearer and x-api-key) and requires one of them', () => {
    const schemes = Object.entries(doc.components.securitySchemes);
    const bearer = schemes.find(([, scheme]) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer');
    const apiKey = schemes.find(
      ([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name?.toLowerCase() === 'x-api-key',
    );
    expect(bearer).toBeDefined();
    expect(apiKey).toBeDefined();
    expect(doc.security).toEqual(expect.arrayContaining([{ [bearer?.[0] ?? '']: [] }, { [apiKey?.[0] ?? '']: [] }]));
  });

  it.each(RESULTS)('%s %s documents its success status and the shape of its data', (method, path, resource, kind) => {
    const operation = doc.paths[path]?.[method];
    expect(operation).toBeDefined();
    const success = method === 'post' ? '201' : '200';
    expect(Object.keys(operation?.responses ?? {}).filter((status) => status.startsWith('2'))).toEqual([success]);
    const schema = operation?.responses[success]?.content?.['application/json']?.schema;
    const data = schema?.properties?.data;
    if (kind === 'one') expect(data).toEqual({ $ref: ref(resource) });
    else expect(data).toMatchObject({ type: 'array', items: { $ref: ref(resource) } });
    if (kind === 'list') expect(schema?.properties?.pagination).toEqual({ $ref: ref('Pagination') });
    else expect(schema?.properties?.pagination).toBeUndefined();
  });

  it.each(RESULTS)('C3.5: %s %s documents its error responses with the Error schema', (method, path) => {
    const operation = doc.paths[path]?.[method] as Operation;
    const expected = ['401', '429', '500'];
    if (path.includes('{id}')) expected.push('404');
    if (method !== 'get' || QUERY_PARAMETERS.some(([listPath]) => listPath === path)) expected.push('400');
    if (method !== 'get') expected.push('413', '415');
    if (method !== 'get' && path.startsWith('/api/v1/leads')) expected.push('403');
    const documented = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
    expect(documented).toEqual(expect.arrayContaining(expected));
    for (const status of documented) {
      expect(operation.responses[status]?.content?.['application/json']?.schema, status).toEqual({ $ref: ref('Error') });
      expect(operation.responses[status]?.description, status).toMatch(/\S/);
    }
  });

  it.each(BODY_FIELDS)('%s %s documents exactly its body fields as JSON', (method, path, fields) => {
    const body = doc.paths[path]?.[method]?.requestBody;
    const schema = body?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual([...fields].sort());
  });

  it.each(BODY_FIELDS)('C3.8: %s %s documents that the body may be omitted (no body is {})', (method, path) => {
    expect(doc.paths[path]?.[method]?.requestBody?.required ?? false).toBe(false);
  });

  it.each(BODY_FIELDS.filter(([method]) => method === 'patch'))(
    'C3.8/C4.2: %s %s documents application/merge-patch+json as well as application/json',
    (method, path) => {
      const content = doc.paths[path]?.[method]?.requestBody?.content ?? {};
      expect(Object.keys(content).sort()).toEqual(['application/json', 'application/merge-patch+json']);
    },
  );

  it.each(QUERY_PARAMETERS)('C3.9: GET %s documents its query parameters', (path, names) => {
    const parameters = doc.paths[path]?.get?.parameters ?? [];
    const query = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
    expect(query.sort()).toEqual([...names].sort());
    expect(parameters.filter((parameter) => parameter.in === 'query').every((parameter) => !parameter.required)).toBe(true);
  });

  it('documents the id of every {id} path as a required path parameter', () => {
    for (const [method, path, operation] of operations(doc).filter(([, path]) => path.includes('{id}'))) {
      const id = operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === 'id');
      expect(id?.required, `${method} ${path}`).toBe(true);
    }
  });
});
