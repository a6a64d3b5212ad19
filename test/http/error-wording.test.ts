/**
 * C3.5 over the whole route table, on both stores: every route that takes a
 * body or a query string is sent invalid ones made from its own schema (a
 * wrong type for each member, each limit crossed, an unknown member, a
 * repeated parameter), and every answer must be a 400 `invalid_request` in
 * the contract's shape whose details name body fields only under
 * `details.fields` and query parameters only under `details.parameters`,
 * in sentences free of the validator's wording. The API (with a key), the
 * dashboard's API (with an admin's session) and the event endpoint (with a
 * site key) are walked alike, so a route added later is held to it too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/http/route-table.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey } from '../helpers/tracking.js';

const EVENTS_PATH = '/e';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** What a validator says and a person does not (C3.5). */
const JARGON = /must NOT|must match|anyOf|oneOf|allOf|#\/|must have required|must be equal to|must pass|should |schema|instancePath|\bparams?\b/;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
}

interface Case {
  title: string;
  value: unknown;
}

const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]);

/** A value of none of the schema's types. */
function wrongType(schema: JsonSchema): unknown | undefined {
  const types = typesOf(schema);
  if (types.length === 0) return undefined;
  for (const candidate of [{ not: 'this' }, ['not this'], 'not this', 12.5, true]) {
    const kind = Array.isArray(candidate) ? 'array' : typeof candidate === 'object' ? 'object' : typeof candidate;
    const accepted = types.includes(kind) || (kind === 'number' && types.includes('integer') && Number.isInteger(candidate));
    if (!accepted && !(kind === 'number' && types.includes('number'))) return candidate;
  }
  return undefined;
}

/** Invalid values for one member, each breaking one rule its schema states. */
function invalidValues(schema: JsonSchema, inQuery: boolean): Case[] {
  const cases: Case[] = [];
  const types = typesOf(schema);
  const wrong = wrongType(schema);
  if (inQuery) {
    if (types.includes('integer') || types.includes('number')) cases.push({ title: 'not a number', value: 'abc' });
    if (types.includes('boolean')) cases.push({ title: 'not a boolean', value: 'maybe' });
  } else if (wrong !== undefined) {
    cases.push({ title: 'a wrong type', value: wrong });
  }
  if (schema.enum !== undefined) cases.push({ title: 'not one of its values', value: 'no-such-value' });
  if (schema.format !== undefined || schema.pattern !== undefined) cases.push({ title: `not ${schema.format ?? 'of its pattern'}`, value: '!not-valid!' });
  if (schema.minLength !== undefined && schema.minLength > 0) cases.push({ title: 'too short', value: 'x'.repeat(schema.minLength - 1) });
  if (schema.maxLength !== undefined && schema.maxLength < 100_000) cases.push({ title: 'too long', value: 'x'.repeat(schema.maxLength + 1) });
  if (schema.minimum !== undefined) cases.push({ title: 'below its minimum', value: inQuery ? String(schema.minimum - 1) : schema.minimum - 1 });
  if (schema.maximum !== undefined && !inQuery) cases.push({ title: 'above its maximum', value: schema.maximum + 1 });
  if (schema.minItems !== undefined && schema.minItems > 0) cases.push({ title: 'too few items', value: [] });
  if (schema.items !== undefined && !inQuery) {
    const items = schema.items;
    if (schema.maxItems !== undefined && schema.maxItems < 1000) {
      cases.push({ title: 'too many items', value: Array.from({ length: schema.maxItems + 1 }, () => exampleOf(items)) });
    }
    for (const item of invalidValues(items, false)) cases.push({ title: `an item ${item.title}`, value: [item.value] });
    if (typesOf(items).includes('object') && items.additionalProperties === false) cases.push({ title: 'an item with an unknown member', value: [{ not_a_field: 1 }] });
  }
  return cases;
}

/** A plausible valid value (for filling arrays to their limit). */
function exampleOf(schema: JsonSchema): unknown {
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.format === 'uuid') return randomUUID();
  const [type] = typesOf(schema);
  return type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : type === 'object' ? {} : type === 'array' ? [] : 'x';
}

function objectSchema(schema: unknown): JsonSchema | undefined {
  const candidate = schema as JsonSchema | undefined;
  return candidate?.properties !== undefined && Object.keys(candidate.properties).length > 0 ? candidate : undefined;
}

type ErrorBody = { error: string; message: string; details?: Record<string, unknown> };

/** C3.5: shape, code, one place for the offending inputs, and plain words. */
function expectPlainRefusal(status: number, body: ErrorBody, where: 'fields' | 'parameters', label: string): void {
  expect(status, label).toBe(400);
  expect(Object.keys(body).filter((key) => !['error', 'message', 'details'].includes(key)), label).toEqual([]);
  expect(body.error, label).toBe('invalid_request');
  expect(body.message.length, label).toBeGreaterThan(0);
  expect(body.message, label).not.toMatch(JARGON);
  expect(Object.keys(body.details ?? {}), label).toEqual([where]);
  const named = body.details?.[where] as Record<string, unknown>;
  expect(Object.keys(named).length, label).toBeGreaterThan(0);
  for (const [name, reason] of Object.entries(named)) {
    expect(typeof reason, `${label}: ${name}`).toBe('string');
    expect(reason, `${label}: ${name}`).not.toMatch(JARGON);
    expect(name, label).not.toMatch(/^\/|#/);
  }
}

describe.each(storeKinds())('C3.5: every refused input in plain words and in one place, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let session: DashboardSession;
  let siteKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Wording');
    session = await signIn(base, await member(t, workspace.id, 'admin'));
    siteKey = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  function credentials(route: RegisteredRoute): Record<string, string> {
    if (route.url.startsWith('/dashboard/api')) return { cookie: session.cookie, 'x-csrf-token': session.csrf };
    if (route.url.startsWith('/api/v1')) return { authorization: `Bearer ${workspace.production.key}` };
    // the event endpoint ignores what bots send (C5.5): a browser's
    return { 'user-agent': BROWSER };
  }

  /** Members a body must carry to reach its validation (the event endpoint judges its key first). */
  function baseBody(route: RegisteredRoute): Record<string, unknown> {
    return route.url === EVENTS_PATH ? { key: siteKey } : {};
  }

  async function send(route: RegisteredRoute, query: string, body?: Record<string, unknown>): Promise<{ status: number; body: ErrorBody }> {
    const path = route.url.replace(/:[A-Za-z_]+/g, () => randomUUID());
    const response = await fetch(`${base}${path}${query}`, {
      method: route.method,
      headers: { ...credentials(route), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as ErrorBody };
  }

  const routes = () => t.app.routeTable.routes().filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');

  it('walks routes with bodies and with query strings (the walk itself is not empty)', () => {
    expect(routes().filter((route) => objectSchema(route.schema?.body) !== undefined).length).toBeGreaterThan(20);
    expect(routes().filter((route) => objectSchema(route.schema?.querystring) !== undefined).length).toBeGreaterThan(10);
  });

  it('every invalid body is a 400 naming its fields under details.fields, in plain words', async () => {
    let sent = 0;
    for (const route of routes()) {
      const schema = objectSchema(route.schema?.body);
      if (schema === undefined) continue;
      const label = `${route.method} ${route.url}`;
      const cases: { title: string; body: Record<string, unknown> }[] = [];
      if (schema.additionalProperties === false) cases.push({ title: 'an unknown field', body: { not_a_field: 1 } });
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        // the event endpoint's key is its credential: a bad one is 401 (C5.3)
        if (route.url === EVENTS_PATH && name === 'key') continue;
        for (const value of invalidValues(property, false)) cases.push({ title: `${name}: ${value.title}`, body: { [name]: value.value } });
      }
      for (const entry of cases) {
        const answer = await send(route, '', { ...baseBody(route), ...entry.body });
        expectPlainRefusal(answer.status, answer.body, 'fields', `${label} with ${entry.title}: ${JSON.stringify(answer.body)}`);
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThan(60);
  });

  it('every invalid query string is a 400 naming its parameters under details.parameters, in plain words', async () => {
    let sent = 0;
    for (const route of routes()) {
      const schema = objectSchema(route.schema?.querystring);
      if (schema === undefined) continue;
      const label = `${route.method} ${route.url}`;
      const [first] = Object.keys(schema.properties ?? {});
      const cases = [{ title: `${String(first)} repeated`, query: `?${String(first)}=1&${String(first)}=2` }];
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        for (const value of invalidValues(property, true)) cases.push({ title: `${name}: ${value.title}`, query: `?${name}=${encodeURIComponent(String(value.value))}` });
      }
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { ...baseBody(route) };
      for (const entry of cases) {
        const answer = await send(route, entry.query, body);
        expectPlainRefusal(answer.status, answer.body, 'parameters', `${label} with ${entry.title}: ${JSON.stringify(answer.body)}`);
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThan(20);
  });

  it('refusals made by the services read alike: an invalid segment rule, an empty webhook event list, a bad Idempotency-Key', async () => {
    const api = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${workspace.production.key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as ErrorBody }));
    const rule = await api('POST', '/lists', { name: 'Bad rule', rule: { all: [{ field: 'email', op: 'eqq', value: 'x' }] } });
    expectPlainRefusal(rule.status, rule.body, 'fields', JSON.stringify(rule.body));
    expect(rule.body.details?.fields).toEqual({ 'rule.all[0].op': expect.stringMatching(/^must be one of eq, neq, /) });
    const union = await api('POST', '/lists', { name: 'Bad value', rule: { all: [{ field: 'email', op: 'eq', value: { x: 1 } }] } });
    expectPlainRefusal(union.status, union.body, 'fields', JSON.stringify(union.body));
    expect(union.body.details?.fields).toEqual({ 'rule.all[0].value': 'must be a string, a number, true or false or an array' });
    const events = await api('POST', '/webhooks', { url: 'https://example.com/hook', events: [] });
    expectPlainRefusal(events.status, events.body, 'fields', JSON.stringify(events.body));
    expect(events.body.details?.fields).toEqual({ events: 'must hold at least 1 item' });
    const key = await api('POST', '/leads', {}, { 'idempotency-key': ' ' });
    expect(key.status).toBe(400);
    expect(key.body.details).toEqual({ parameters: { 'Idempotency-Key': 'must be 1 to 255 visible ASCII characters, sent once' } });
  });
});
