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
  components: {
    schemas: Record<string, Schema>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, Record<string, string>>;
  };
  security?: Record<string, string[]>[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The spec's 14 endpoints plus GET /identities/{id} (C4.5), DELETE /leads/{id} and POST /erasures (C8.4), the webhooks' (C8.5). */
const ENDPOINTS: Record<string, string[]> = {
  '/api/v1/leads': ['get', 'post'],
  '/api/v1/leads/{id}': ['get', 'patch', 'delete'],
  '/api/v1/identities': ['get', 'post'],
  '/api/v1/identities/{id}': ['get', 'patch'],
  '/api/v1/identities/{id}/activity': ['get'],
  '/api/v1/identities/{id}/personalities': ['get'],
  '/api/v1/companies': ['get'],
  '/api/v1/companies/{id}': ['get'],
  '/api/v1/lists': ['get', 'post'],
  '/api/v1/users': ['get'],
  // CONTRACT C6.1, C6.4
  '/api/v1/companies/{id}/identities': ['get'],
  '/api/v1/lists/{id}': ['get', 'patch', 'delete'],
  '/api/v1/lists/{id}/rule': ['get'],
  '/api/v1/lists/{id}/identities': ['get', 'post'],
  '/api/v1/lists/{id}/identities/{identity_id}': ['delete'],
  '/api/v1/users/{id}': ['get'],
  // C6.9
  '/api/v1/companies/{id}/engagement': ['get'],
  '/api/v1/companies/{id}/activity': ['get'],
  // C8.4, C8.5
  '/api/v1/erasures': ['post'],
  '/api/v1/webhooks': ['get', 'post'],
  '/api/v1/webhooks/{id}': ['get', 'patch', 'delete'],
  '/api/v1/webhooks/{id}/deliveries': ['get'],
  '/api/v1/webhooks/{id}/test': ['post'],
  // C6.8
  '/api/v1/company-rules': ['get', 'post'],
  '/api/v1/company-rules/{id}': ['get', 'delete'],
  // C11.1, C11.2
  '/api/v1/changes': ['get'],
  '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry': ['post'],
  '/api/v1/webhooks/{id}/replay': ['post'],
  '/api/v1/alerts': ['get', 'post'],
  '/api/v1/alerts/{id}': ['get', 'patch', 'delete'],
  // C11.4
  '/api/v1/leads/batch': ['post'],
  '/api/v1/identities/batch': ['post'],
  // C9.3
  '/api/v1/leads/{id}/notes': ['get', 'post'],
  '/api/v1/leads/{id}/notes/{note_id}': ['get'],
  '/api/v1/alerts/{id}/deliveries': ['get'],
  '/api/v1/alerts/{id}/test': ['post'],
  // C11.3
  '/api/v1/leads/search': ['post'],
  '/api/v1/identities/search': ['post'],
  '/api/v1/companies/search': ['post'],
  // C11.5
  '/api/v1/leads/export': ['get'],
  '/api/v1/identities/export': ['get'],
  '/api/v1/companies/export': ['get'],
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
  LeadNote: ['id', 'body', 'author', 'created_at'],
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
  ['get', '/api/v1/leads/{id}/notes', 'LeadNote', 'list'],
  ['post', '/api/v1/leads/{id}/notes', 'LeadNote', 'one'],
  ['get', '/api/v1/leads/{id}/notes/{note_id}', 'LeadNote', 'one'],
];

/** The body fields of each write: the spec's, with C4.1's summary and C4.3's visitor_id. */
const BODY_FIELDS: [string, string, string[]][] = [
  ['post', '/api/v1/leads', ['visitor_id', 'code', 'source', 'properties', 'location', 'identity_id', 'session_id',
    'company_id', 'summary']],
  ['patch', '/api/v1/leads/{id}', ['properties', 'location', 'summary', 'company_id']],
  ['post', '/api/v1/identities', ['email', 'name', 'traits', 'visitor_id']],
  ['patch', '/api/v1/identities/{id}', ['name', 'traits', 'is_favorite']],
];

/** The query parameters of each list (spec: Endpoints; C3.9; the cursor of C8.3). */
const QUERY_PARAMETERS: [string, string[]][] = [
  ['/api/v1/leads', ['limit', 'offset', 'cursor', 'source', 'code', 'created_after', 'created_before', 'sort']],
  ['/api/v1/identities', ['limit', 'offset', 'cursor', 'email', 'visitor_id', 'is_favorite', 'created_after', 'created_before']],
  ['/api/v1/identities/{id}/activity', ['limit', 'offset', 'cursor']],
  ['/api/v1/companies', ['limit', 'offset', 'cursor', 'name', 'domain']],
  ['/api/v1/lists', ['limit', 'offset', 'cursor']],
  ['/api/v1/users', ['limit', 'offset', 'cursor', 'role']],
  ['/api/v1/leads/{id}/notes', ['limit', 'offset', 'cursor']],
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
      const [, section, name] = /^#\/components\/(schemas|headers)\/([A-Za-z-]+)$/.exec(target) ?? [];
      expect(section, target).toBeDefined();
      expect(doc.components[section as 'schemas' | 'headers'][name as string], target).toBeDefined();
    }
  });

  it('lists every path and method of the API: the 14 endpoints of the spec, GET /identities/{id} (C4.5), the 11 of C6, company rules (C6.8), deletion, erasure and webhooks (C8.4, C8.5), alerts (C10.1), lead notes (C9.3), changes and batches (C11)', () => {
    const apiPaths = Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1/'));
    expect(apiPaths.sort()).toEqual(Object.keys(ENDPOINTS).sort());
    for (const [path, methods] of Object.entries(ENDPOINTS)) {
      const documented = Object.keys(doc.paths[path] ?? {}).filter((method) => HTTP_METHODS.includes(method));
      expect(documented.sort(), path).toEqual([...methods].sort());
    }
    expect(operations(doc).filter(([, path]) => path.startsWith('/api/v1/'))).toHaveLength(60);
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
    // a lead's references to other resources are checked (C3.7); a note names none
    if (method !== 'get' && path.startsWith('/api/v1/leads') && !path.endsWith('/notes')) expected.push('403');
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

/** The webhook event types of CONTRACT C8.5 (and C10.2's company and alert events, C9.3's note.created), and the test event. */
const WEBHOOK_EVENTS = [
  'webhook.test',
  'alert.triggered',
  'note.created',
  'company.created',
  'company.updated',
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'identity.created',
  'identity.updated',
  'identity.identified',
  'list.member_added',
  'list.member_removed',
];

interface FullOperation extends Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: Operation['requestBody'] & { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema; example?: unknown }> }
  >;
}

describe('C8.1: a reference for the developers who call the API', () => {
  let t: TestApp;
  let doc: OpenApiDocument & {
    info: { license?: { name?: string; identifier?: string; url?: string }; contact?: { name?: string } };
    servers?: { url: string; description?: string }[];
    tags?: { name: string; description?: string }[];
    webhooks?: Record<string, Record<string, FullOperation>>;
  };
  const allOperations = (): [string, string, FullOperation][] => [
    ...(operations(doc) as [string, string, FullOperation][]),
    ...Object.entries(doc.webhooks ?? {}).flatMap(([name, item]) =>
      Object.entries(item).map(([method, operation]): [string, string, FullOperation] => [method, `webhook ${name}`, operation]),
    ),
  ];

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t?.close());

  it('every operation has an operationId, a summary, a description and a tag, and the ids are unique', () => {
    const all = allOperations();
    expect(all.length).toBeGreaterThan(15);
    const tagNames = (doc.tags ?? []).map((tag) => tag.name);
    for (const [method, path, operation] of all) {
      const where = `${method} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary, where).toMatch(/\S/);
      expect(operation.description, where).toMatch(/\S{3}/);
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(tagNames, where).toContain(tag);
    }
    const ids = all.map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the operations as the typed client does (list, get, create, update + resource)', () => {
    const ids = Object.fromEntries(operations(doc).map(([method, path, operation]) => [`${method} ${path}`, (operation as FullOperation).operationId]));
    expect(ids).toMatchObject({
      'get /api/v1/leads': 'listLeads',
      'post /api/v1/leads': 'createLead',
      'get /api/v1/leads/{id}': 'getLead',
      'patch /api/v1/leads/{id}': 'updateLead',
      'get /api/v1/identities': 'listIdentities',
      'get /api/v1/identities/{id}/activity': 'listIdentityActivity',
      'get /api/v1/users/{id}': 'getUser',
      'post /e': 'sendEvents',
    });
  });

  it('every tag has a description; the document names its license, a contact (Spectral\'s info-contact) and a server', () => {
    expect(doc.tags?.length).toBeGreaterThanOrEqual(7);
    for (const tag of doc.tags ?? []) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(20);
    expect(doc.info.license?.name).toBe('Apache-2.0');
    expect(doc.info.license?.identifier ?? doc.info.license?.url).toBeDefined();
    expect(doc.info.contact?.name).toBe('Leadlight');
    expect(doc.servers?.length).toBeGreaterThan(0);
    for (const server of doc.servers ?? []) expect(server.url).toMatch(/^(\/|https?:\/\/)/);
  });

  it('every operation shows an example of its success answer and of its request body', () => {
    for (const [method, path, operation] of allOperations()) {
      const where = `${method} ${path}`;
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(success.length, where).toBe(1);
      if (!path.startsWith('webhook ')) {
        const [status, response] = success[0] as [string, FullOperation['responses'][string]];
        if (status !== '204') {
          // every media type of the answer (JSON, and NDJSON and CSV for exports: C11.5)
          expect(Object.keys(response.content ?? {}).length, where).toBeGreaterThan(0);
          for (const [type, media] of Object.entries(response.content ?? {})) expect(media.example, `${where} ${type}`).toBeDefined();
        }
        expect(response.description, where).not.toBe('Default Response');
      }
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        expect(media.example, `${where} ${type}`).toBeDefined();
      }
    }
  });

  it('C3.5: every error answer of every operation shows an example in the error shape, with its own code', () => {
    const codes: Record<string, string> = {
      '400': 'invalid_request',
      '401': 'unauthorized',
      '403': 'forbidden',
      '404': 'not_found',
      '409': 'idempotency_key_in_use',
      '413': 'payload_too_large',
      '415': 'unsupported_media_type',
      '422': 'idempotency_key_reused',
      '429': 'rate_limit_exceeded',
      '500': 'internal_error',
      '503': 'service_unavailable',
    };
    for (const [method, path, operation] of operations(doc) as [string, string, FullOperation][]) {
      for (const [status, response] of Object.entries(operation.responses).filter(([status]) => Number(status) >= 400)) {
        const example = response.content?.['application/json']?.example as { error?: string; message?: string } | undefined;
        expect(example?.error, `${method} ${path} ${status}`).toBe(codes[status]);
        expect(example?.message, `${method} ${path} ${status}`).toMatch(/\S/);
      }
    }
  });

  it('documents the headers of the answers: X-Request-Id everywhere, Location on 201, Retry-After on 429, Link on lists', () => {
    for (const [method, path, operation] of operations(doc) as [string, string, FullOperation][]) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = Object.keys(response.headers ?? {});
        const where = `${method} ${path} ${status}`;
        expect(names, where).toContain('X-Request-Id');
        if (status === '201') expect(names, where).toContain('Location');
        if (status === '429') expect(names, where).toContain('Retry-After');
        const paged = response.content?.['application/json']?.schema?.properties?.pagination !== undefined;
        if (status === '200') expect(names.includes('Link'), where).toBe(paged);
      }
    }
  });

  it('C8.2: every POST under /api/v1 but the read-only searches takes an Idempotency-Key and documents its 409 and 422, and the replay header', () => {
    const apiPosts = (operations(doc) as [string, string, FullOperation][]).filter(([method, path]) => method === 'post' && path.startsWith('/api/v1/'));
    const searches = apiPosts.filter(([, path]) => path.endsWith('/search'));
    expect(searches.map(([, path]) => path).sort()).toEqual(['/api/v1/companies/search', '/api/v1/identities/search', '/api/v1/leads/search']);
    for (const [, path, operation] of searches) {
      expect(operation.parameters?.some((parameter) => parameter.name === 'Idempotency-Key') ?? false, path).toBe(false);
      expect(Object.keys(operation.responses), path).not.toContain('422');
      expect(Object.keys(operation.responses['200']?.headers ?? {}), path).not.toContain('Idempotent-Replayed');
    }
    const posts = apiPosts.filter(([, path]) => !path.endsWith('/search'));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const [, path, operation] of posts) {
      const key = operation.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
      expect(key, path).toMatchObject({ in: 'header', required: false });
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['409', '422']));
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      expect(Object.keys(success?.headers ?? {}), path).toContain('Idempotent-Replayed');
    }
    const others = (operations(doc) as [string, string, FullOperation][]).filter(([method]) => method !== 'post');
    // (the searches are checked above)
    for (const [method, path, operation] of others) {
      expect(operation.parameters?.some((parameter) => parameter.name === 'Idempotency-Key') ?? false, `${method} ${path}`).toBe(false);
    }
  });

  it('C5.3: describes the events endpoint: no API key, both media types, the batch and its counts', () => {
    const operation = doc.paths['/e']?.post as FullOperation | undefined;
    expect(operation?.operationId).toBe('sendEvents');
    expect(operation?.security).toEqual([]);
    expect(Object.keys(operation?.requestBody?.content ?? {}).sort()).toEqual(['application/json', 'text/plain']);
    const batch = operation?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(batch?.properties ?? {}).sort()).toEqual(['events', 'key']);
    const counts = operation?.responses['202']?.content?.['application/json']?.schema?.properties?.data;
    expect(Object.keys(counts?.properties ?? {}).sort()).toEqual(['accepted', 'duplicates', 'ignored']);
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '403', '413', '415', '429']));
  });

  it('C8.5: describes the payload of every webhook event: {type, timestamp, data}, signed with the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const event of WEBHOOK_EVENTS) {
      const operation = doc.webhooks?.[event]?.post;
      const media = operation?.requestBody?.content['application/json'];
      expect(Object.keys(media?.schema.properties ?? {}).sort(), event).toEqual(['data', 'timestamp', 'type']);
      expect((media?.example as { type?: string } | undefined)?.type, event).toBe(event);
      const headers = (operation?.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
      expect(headers.sort(), event).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    }
    const leadData = doc.webhooks?.['lead.created']?.post?.requestBody?.content['application/json']?.schema.properties?.data;
    expect(leadData).toEqual({ $ref: ref('Lead') });
  });

  it('GET /docs renders the reference without a key, with its script served by this server (no CDN, no web fonts)', async () => {
    const redirect = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 301, 302]).toContain(redirect.statusCode);
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src, 'a script of this server, not of a CDN').not.toMatch(/^(https?:)?\/\//);
      const script = await t.app.inject({ method: 'GET', url: new URL(src, 'http://x/docs/').pathname });
      expect(script.statusCode, src).toBe(200);
      expect(script.headers['content-type'], src).toMatch(/javascript/);
      expect(script.body.length, src).toBeGreaterThan(100_000);
    }
    expect(page.body).not.toMatch(/https?:\/\/(cdn\.|fonts\.)/);
    expect(page.body).toMatch(/"withDefaultFonts":\s*false/);
    expect(page.body).toMatch(/"telemetry":\s*false/);
    const served = await t.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(served.statusCode).toBe(200);
    expect((served.json() as { paths: unknown }).paths).toEqual(doc.paths);
  });
});
