/**
 * Authentication and the headers every response carries: how a key is
 * presented and refused (C3.1), X-Workspace-Id, X-Request-Id and Content-Type
 * (C3.2), the shape and storage of keys, revocation and rotation (C2.1, C2.2),
 * and the record of key use (C3.4).
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const UNAUTHORIZED = { error: 'unauthorized', message: 'Invalid or missing API key' };
const JSON_UTF8 = 'application/json; charset=utf-8';
const PROD_KEY = /^ll_prod_[0-9A-Za-z]{32,}$/;
const DEV_KEY = /^ll_dev_[0-9A-Za-z]{32,}$/;

function expectUnauthorized(response: LightMyRequestResponse, label?: string): void {
  expect(response.statusCode, label).toBe(401);
  expect(response.json(), label).toEqual(UNAUTHORIZED);
  expect(response.headers['www-authenticate'], label).toBe('Bearer');
  expect(response.headers['content-type'], label).toBe(JSON_UTF8);
  expect(response.headers['x-workspace-id'], label).toBeUndefined();
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(storeKinds())('authentication on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Auth A');
  });
  afterAll(async () => t?.close());

  const leadsWith = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/leads', headers });

  describe('C3.1: presenting a key', () => {
    it('accepts Authorization: Bearer with the scheme in any case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        const response = await leadsWith({ authorization: `${scheme} ${ws.production.key}` });
        expect(response.statusCode, scheme).toBe(200);
        expect(response.headers['x-workspace-id'], scheme).toBe(ws.id);
      }
    });

    it('accepts x-api-key with a production or a development key', async () => {
      for (const key of [ws.production.key, ws.development.key]) {
        const response = await leadsWith({ 'x-api-key': key });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-workspace-id']).toBe(ws.id);
      }
      const bearerDev = await leadsWith({ authorization: `Bearer ${ws.development.key}` });
      expect(bearerDev.statusCode).toBe(200);
    });

    it('answers 401 with the exact body and WWW-Authenticate: Bearer for a missing key', async () => {
      expectUnauthorized(await t.app.inject({ method: 'GET', url: '/api/v1/leads' }));
    });

    it('answers 401 for unknown and malformed keys, by either header', async () => {
      const secret = ws.production.key.slice('ll_prod_'.length);
      const bad = [
        `ll_prod_${'A'.repeat(40)}`,
        `ll_test_${secret}`,
        `ll_dev_${secret}`,
        `LL_PROD_${secret}`,
        secret,
        `ll_prod_${secret.slice(0, 31)}`,
        'll_prod_',
        `${ws.production.key}x`,
        ws.production.key.slice(0, -1),
        `${ws.production.key}-`,
        'garbage',
        'not a key at all',
        '🔑🔑🔑',
        'x'.repeat(10_000),
      ];
      for (const key of bad) {
        expectUnauthorized(await leadsWith({ authorization: `Bearer ${key}` }), `bearer ${key.slice(0, 60)}`);
        expectUnauthorized(await leadsWith({ 'x-api-key': key }), `x-api-key ${key.slice(0, 60)}`);
      }
    });

    it('issue 14: a repeated unknown key is refused alike without a database lookup each time, and a revoked key stays refused', async () => {
      const lookups = async () => {
        const text = (await t.app.inject({ url: '/metrics' })).body;
        return Number(/^leadlight_api_key_lookups_total (\d+)/m.exec(text)?.[1]);
      };
      const unknown = `ll_prod_${'Z'.repeat(40)}`;
      const before = await lookups();
      for (let index = 0; index < 20; index += 1) {
        const response = await leadsWith({ authorization: `Bearer ${unknown}` });
        expectUnauthorized(response);
        expect(response.headers['x-ratelimit-limit']).toBeDefined();
      }
      expect(await lookups()).toBe(before + 1);
      // a real key is still looked up every time (C2.2): a revocation is seen at once
      const fresh = await t.createWorkspace('Auth unknown memory');
      const extra = await t.services.apiKeys.create(fresh.id, 'development', 'revoked later');
      expect((await leadsWith({ 'x-api-key': extra.key })).statusCode).toBe(200);
      expect((await leadsWith({ 'x-api-key': extra.key })).statusCode).toBe(200);
      expect(await lookups()).toBe(before + 3);
      await t.services.apiKeys.revoke(extra.id);
      expectUnauthorized(await leadsWith({ 'x-api-key': extra.key }));
      expectUnauthorized(await leadsWith({ 'x-api-key': extra.key }));
      expect(await lookups()).toBe(before + 4);
    });

    it('answers 401 for another scheme, an empty bearer and an empty x-api-key', async () => {
      const basic = Buffer.from(`${ws.production.key}:`).toString('base64');
      for (const authorization of [
        `Basic ${basic}`,
        `Basic ${ws.production.key}`,
        `Token ${ws.production.key}`,
        ws.production.key,
        'Bearer',
        'Bearer ',
        'Bearer    ',
        `Bearer${ws.production.key}`,
        `Bearer ${ws.production.key} extra`,
      ]) {
        expectUnauthorized(await leadsWith({ authorization }), authorization);
      }
      expectUnauthorized(await leadsWith({ 'x-api-key': '' }), 'empty x-api-key');
    });

    it('treats a percent-encoded /api/v1 prefix as the same path: a valid key works, and without one it is 401 with the rate-limit headers', async () => {
      for (const url of ['/%61pi/v1/leads', '/api/%761/leads']) {
        const ok = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ws.production.key}` } });
        expect(ok.statusCode, url).toBe(200);
        expect(ok.headers['x-workspace-id'], url).toBe(ws.id);
        const refused = await t.app.inject({ method: 'GET', url });
        expectUnauthorized(refused, url);
        expect(refused.headers['x-ratelimit-limit'], url).toBeDefined();
      }
      expectUnauthorized(await t.app.inject({ method: 'GET', url: '/%61pi/v1/no-such-endpoint' }), 'encoded unknown path');
    });

    it('does not take a key from the query string', async () => {
      expectUnauthorized(await t.app.inject({ method: 'GET', url: `/api/v1/leads?api_key=${ws.production.key}` }));
    });

    it('checks the key before anything else: unknown path, bad JSON, 405, 415, oversize body and bad ids all answer 401', async () => {
      const [company] = await seedCompanies(t, ws.id, [{ name: 'Gatekept' }]);
      const cases: { label: string; method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT'; url: string; headers?: Record<string, string>; payload?: string }[] = [
        { label: 'unknown path', method: 'GET', url: '/api/v1/nothing-here' },
        { label: 'unknown nested path', method: 'GET', url: '/api/v1/leads/a/b/c' },
        { label: 'api root', method: 'GET', url: '/api/v1' },
        { label: 'malformed JSON', method: 'POST', url: '/api/v1/leads', headers: { 'content-type': 'application/json' }, payload: '{"code":' },
        { label: 'non-object body', method: 'POST', url: '/api/v1/leads', headers: { 'content-type': 'application/json' }, payload: '[1,2]' },
        { label: 'invalid field', method: 'POST', url: '/api/v1/leads', headers: { 'content-type': 'application/json' }, payload: '{"nope":1}' },
        { label: '405 DELETE', method: 'DELETE', url: '/api/v1/leads' },
        { label: '405 PUT on one lead', method: 'PUT', url: '/api/v1/leads/00000000-0000-4000-8000-000000000000' },
        { label: '415 media type', method: 'POST', url: '/api/v1/leads', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
        {
          label: 'oversize body',
          method: 'POST',
          url: '/api/v1/leads',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ properties: { blob: 'x'.repeat(1_100_000) } }),
        },
        { label: 'bad query', method: 'GET', url: '/api/v1/leads?limit=abc' },
        { label: 'malformed id', method: 'GET', url: '/api/v1/leads/not-a-uuid' },
        { label: 'existing company', method: 'GET', url: `/api/v1/companies/${company}` },
        { label: 'malformed URL encoding', method: 'GET', url: '/api/v1/leads/%E0%A4%A' },
      ];
      for (const { label, ...request } of cases) {
        expectUnauthorized(await t.app.inject(request), label);
        expectUnauthorized(
          await t.app.inject({ ...request, headers: { ...request.headers, authorization: 'Bearer ll_prod_unknown' } }),
          `${label} with a bad key`,
        );
      }
    });
  });

  describe('C3.2: response headers', () => {
    it('carries X-Workspace-Id and the JSON content type on every response to an authenticated request, errors included', async () => {
      const other = await t.createWorkspace('Auth other');
      const [foreignCompany] = await seedCompanies(t, other.id, [{ name: 'Elsewhere' }]);
      const json = { 'content-type': 'application/json' };
      const cases: { status: number; method: 'GET' | 'POST' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: string }[] = [
        { status: 200, method: 'GET', url: '/api/v1/leads' },
        { status: 201, method: 'POST', url: '/api/v1/leads', headers: json, payload: '{"code":"hdr"}' },
        { status: 400, method: 'GET', url: '/api/v1/leads?limit=0' },
        { status: 400, method: 'POST', url: '/api/v1/leads', headers: json, payload: '{"code":' },
        { status: 403, method: 'POST', url: '/api/v1/leads', headers: json, payload: JSON.stringify({ company_id: foreignCompany }) },
        { status: 404, method: 'GET', url: '/api/v1/leads/00000000-0000-4000-8000-000000000000' },
        { status: 404, method: 'GET', url: '/api/v1/no-such-endpoint' },
        { status: 405, method: 'DELETE', url: '/api/v1/leads' },
        { status: 413, method: 'POST', url: '/api/v1/leads', headers: json, payload: JSON.stringify({ code: 'x'.repeat(1_100_000) }) },
        { status: 415, method: 'POST', url: '/api/v1/leads', headers: { 'content-type': 'text/plain' }, payload: 'plain' },
      ];
      for (const [index, { status, ...request }] of cases.entries()) {
        const label = `${status} ${request.method} ${request.url.slice(0, 60)}`;
        const key = index % 2 === 0 ? ws.production.key : ws.development.key;
        const response = await t.app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } });
        expect(response.statusCode, label).toBe(status);
        expect(response.headers['x-workspace-id'], label).toBe(ws.id);
        expect(response.headers['content-type'], label).toBe(JSON_UTF8);
        expect(typeof response.json(), label).toBe('object');
      }
    });

    it('carries X-Workspace-Id of the key\'s own workspace, not of another', async () => {
      const other = await t.createWorkspace('Auth third');
      const mine = await t.as(ws, { method: 'GET', url: '/api/v1/users' });
      const theirs = await t.as(other, { method: 'GET', url: '/api/v1/users' });
      expect(mine.headers['x-workspace-id']).toBe(ws.id);
      expect(theirs.headers['x-workspace-id']).toBe(other.id);
    });

    it('carries a generated X-Request-Id on every response, authenticated or not, each one different', async () => {
      const responses = [
        await t.as(ws, { method: 'GET', url: '/api/v1/leads' }),
        await t.as(ws, { method: 'GET', url: '/api/v1/leads' }),
        await t.as(ws, { method: 'GET', url: '/api/v1/leads/nope' }),
        await t.app.inject({ method: 'GET', url: '/api/v1/leads' }),
        await t.app.inject({ method: 'GET', url: '/api/v1/unknown' }),
      ];
      const ids = responses.map((response) => response.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{8,128}$/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('echoes a valid incoming X-Request-Id, on success and on errors', async () => {
      for (const requestId of ['abc-123', 'trace_ID.42:xyz/1', '0f8fad5b-d9cb-469f-a165-70867728950e']) {
        const ok = await t.as(ws, { method: 'GET', url: '/api/v1/leads', headers: { 'x-request-id': requestId } });
        expect(ok.headers['x-request-id']).toBe(requestId);
        const refused = await t.app.inject({ method: 'GET', url: '/api/v1/leads', headers: { 'x-request-id': requestId } });
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['x-request-id']).toBe(requestId);
        const notFound = await t.as(ws, { method: 'GET', url: '/api/v1/leads/nope', headers: { 'x-request-id': requestId } });
        expect(notFound.statusCode).toBe(404);
        expect(notFound.headers['x-request-id']).toBe(requestId);
      }
    });

    it('replaces an invalid incoming X-Request-Id (spaces, 300 characters, empty) with a generated one', async () => {
      for (const requestId of ['has some spaces', 'a'.repeat(300), 'tab\there', '']) {
        const response = await t.as(ws, { method: 'GET', url: '/api/v1/leads', headers: { 'x-request-id': requestId } });
        expect(response.statusCode).toBe(200);
        const echoed = response.headers['x-request-id'];
        expect(typeof echoed).toBe('string');
        expect(echoed).not.toBe(requestId);
        expect(echoed).toMatch(/^[\x21-\x7e]{8,128}$/);
      }
    });

    it('sends Content-Type application/json; charset=utf-8 on 401 and unknown-path responses', async () => {
      const responses = [
        await t.app.inject({ method: 'POST', url: '/api/v1/leads', payload: {} }),
        await t.as(ws, { method: 'GET', url: '/api/v1/' }),
      ];
      for (const response of responses) {
        expect(response.headers['content-type']).toBe(JSON_UTF8);
        expect(() => response.json() as unknown).not.toThrow();
      }
    });
  });

  describe('C2.1: key shape and storage', () => {
    it('makes production keys ll_prod_ and development keys ll_dev_ followed by at least 32 base62 characters, all different', async () => {
      const keys = [ws.production.key, ws.development.key];
      for (let index = 0; index < 5; index += 1) {
        keys.push((await t.services.apiKeys.create(ws.id, 'production', `p${index}`)).key);
        keys.push((await t.services.apiKeys.create(ws.id, 'development', `d${index}`)).key);
      }
      keys.forEach((key, index) => expect(key).toMatch(index % 2 === 0 ? PROD_KEY : DEV_KEY));
      expect(new Set(keys).size).toBe(keys.length);
      const bodies = keys.map((key) => key.replace(/^ll_(prod|dev)_/, ''));
      expect(new Set(bodies).size).toBe(bodies.length);
    });

    it('stores only the SHA-256 hex of the secret, never the secret', async () => {
      const fresh = await t.createWorkspace('Auth storage');
      const rows = await t.db.database.db.selectFrom('api_keys').selectAll().where('workspace_id', '=', fresh.id).execute();
      expect(rows.length).toBe(2);
      for (const { id, key } of [fresh.production, fresh.development]) {
        const row = rows.find((candidate) => candidate.id === id);
        expect(row).toBeDefined();
        expect(row?.key_hash).toBe(sha256(key));
        const body = key.replace(/^ll_(prod|dev)_/, '');
        const stored = JSON.stringify(rows);
        expect(stored.includes(key)).toBe(false);
        expect(stored.includes(body)).toBe(false);
        expect(stored.includes(body.slice(0, 16))).toBe(false);
      }
      const everyKey = JSON.stringify(await t.db.database.db.selectFrom('api_keys').selectAll().execute());
      expect(everyKey.includes(fresh.production.key.slice(8))).toBe(false);
    });
  });

  describe('C2.2: revocation and rotation take effect on the very next request', () => {
    it('a revoked key is 401 on the next request; the other keys keep working', async () => {
      const fresh = await t.createWorkspace('Auth revoke');
      const extra = await t.services.apiKeys.create(fresh.id, 'production', 'to revoke');
      const headers = { authorization: `Bearer ${extra.key}` };
      expect((await leadsWith(headers)).statusCode).toBe(200);
      const revoked = await t.services.apiKeys.revoke(extra.id);
      expect(revoked.id).toBe(extra.id);
      expectUnauthorized(await leadsWith(headers));
      expectUnauthorized(await leadsWith({ 'x-api-key': extra.key }));
      expect((await t.as(fresh, { method: 'GET', url: '/api/v1/leads' })).statusCode).toBe(200);
      expect((await t.services.apiKeys.list(fresh.id)).map((key) => key.id)).not.toContain(extra.id);
    });

    it('a revocation is seen at once by another API process sharing the database', async () => {
      const second = await createTestApp(kind, { db: t.db });
      try {
        const fresh = await t.createWorkspace('Auth two processes');
        const headers = { authorization: `Bearer ${fresh.development.key}` };
        expect((await second.app.inject({ method: 'GET', url: '/api/v1/leads', headers })).statusCode).toBe(200);
        await t.services.apiKeys.revoke(fresh.development.id);
        expectUnauthorized(await second.app.inject({ method: 'GET', url: '/api/v1/leads', headers }));
        const rotated = await second.services.apiKeys.rotate(fresh.production.id);
        expectUnauthorized(await t.as(fresh, { method: 'GET', url: '/api/v1/leads' }));
        expect((await leadsWith({ authorization: `Bearer ${rotated.key}` })).statusCode).toBe(200);
      } finally {
        await second.close();
      }
    });

    it('rotation makes the old key 401 at once and the new key work, with the same workspace, type and name', async () => {
      const fresh = await t.createWorkspace('Auth rotate');
      for (const type of ['production', 'development'] as const) {
        const old = await t.services.apiKeys.create(fresh.id, type, `rotating ${type}`);
        expect((await leadsWith({ authorization: `Bearer ${old.key}` })).statusCode).toBe(200);
        const rotated = await t.services.apiKeys.rotate(old.id);
        expectUnauthorized(await leadsWith({ authorization: `Bearer ${old.key}` }), `old ${type}`);
        expect(rotated.replaces).toBe(old.id);
        expect(rotated.id).not.toBe(old.id);
        expect(rotated.key).not.toBe(old.key);
        expect(rotated.workspace_id).toBe(fresh.id);
        expect(rotated.type).toBe(type);
        expect(rotated.name).toBe(`rotating ${type}`);
        expect(rotated.key).toMatch(type === 'production' ? PROD_KEY : DEV_KEY);
        const response = await leadsWith({ 'x-api-key': rotated.key });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-workspace-id']).toBe(fresh.id);
        const listed = await t.services.apiKeys.list(fresh.id);
        expect(listed.map((key) => key.id)).not.toContain(old.id);
        expect(listed.find((key) => key.id === rotated.id)).toMatchObject({
          type,
          name: `rotating ${type}`,
          hint: rotated.key.slice(-4),
        });
      }
    });
  });

  describe('C3.4: key use is recorded', () => {
    it('sets the key\'s last_used_at and the workspace\'s prod_last_use after a production request', async () => {
      const fresh = await t.createWorkspace('Auth use prod');
      const before = new Date().toISOString();
      const workspaceBefore = (await t.services.workspaces.list()).find((workspace) => workspace.id === fresh.id);
      expect(workspaceBefore).toMatchObject({ prod_last_use: null, dev_last_use: null });

      expect((await t.as(fresh, { method: 'GET', url: '/api/v1/leads' })).statusCode).toBe(200);
      const after = new Date().toISOString();

      const keys = await t.services.apiKeys.list(fresh.id);
      const production = keys.find((key) => key.id === fresh.production.id);
      const development = keys.find((key) => key.id === fresh.development.id);
      expect(production?.last_used_at).not.toBeNull();
      expect(production!.last_used_at! >= before && production!.last_used_at! <= after).toBe(true);
      expect(development?.last_used_at).toBeNull();
      const workspace = (await t.services.workspaces.list()).find((candidate) => candidate.id === fresh.id);
      expect(workspace?.prod_last_use).not.toBeNull();
      expect(workspace!.prod_last_use! >= before && workspace!.prod_last_use! <= after).toBe(true);
      expect(workspace?.dev_last_use).toBeNull();
    });

    it('sets the key\'s last_used_at and the workspace\'s dev_last_use after a development request, even a failed one', async () => {
      const fresh = await t.createWorkspace('Auth use dev');
      const before = new Date().toISOString();
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/leads/00000000-0000-4000-8000-000000000000',
        headers: { 'x-api-key': fresh.development.key },
      });
      expect(response.statusCode).toBe(404);
      const after = new Date().toISOString();

      const keys = await t.services.apiKeys.list(fresh.id);
      const development = keys.find((key) => key.id === fresh.development.id);
      expect(development!.last_used_at! >= before && development!.last_used_at! <= after).toBe(true);
      expect(keys.find((key) => key.id === fresh.production.id)?.last_used_at).toBeNull();
      const workspace = (await t.services.workspaces.list()).find((candidate) => candidate.id === fresh.id);
      expect(workspace!.dev_last_use! >= before && workspace!.dev_last_use! <= after).toBe(true);
      expect(workspace?.prod_last_use).toBeNull();
    });

    it('refreshes the record at most once a minute per key, and again once the minute has passed', async () => {
      let now = Date.UTC(2031, 5, 1, 12, 0, 0);
      const timed = await createTestApp(kind, { db: t.db, clock: () => now });
      try {
        const fresh = await timed.createWorkspace('Auth use refresh');
        const request = () => timed.as(fresh, { method: 'GET', url: '/api/v1/leads' });
        const recorded = async () => {
          const key = (await timed.services.apiKeys.list(fresh.id)).find((candidate) => candidate.id === fresh.production.id);
          const workspace = (await timed.services.workspaces.list()).find((candidate) => candidate.id === fresh.id);
          return { key: key?.last_used_at, workspace: workspace?.prod_last_use };
        };
        const first = new Date(now).toISOString();
        expect((await request()).statusCode).toBe(200);
        expect(await recorded()).toEqual({ key: first, workspace: first });

        now += 59_999;
        expect((await request()).statusCode).toBe(200);
        expect(await recorded()).toEqual({ key: first, workspace: first });

        // exactly a minute after the last record: recorded again
        now += 1;
        const later = new Date(now).toISOString();
        expect((await request()).statusCode).toBe(200);
        expect(await recorded()).toEqual({ key: later, workspace: later });
      } finally {
        await timed.close();
      }
    });

    it('records nothing for a refused key and nothing in other workspaces', async () => {
      const fresh = await t.createWorkspace('Auth use none');
      const bystander = await t.createWorkspace('Auth bystander');
      const extra = await t.services.apiKeys.create(fresh.id, 'production', 'revoked before use');
      await t.services.apiKeys.revoke(extra.id);
      expectUnauthorized(await leadsWith({ authorization: `Bearer ${extra.key}` }));
      expect((await t.as(fresh, { method: 'GET', url: '/api/v1/leads' })).statusCode).toBe(200);
      const workspaces = await t.services.workspaces.list();
      expect(workspaces.find((candidate) => candidate.id === bystander.id)).toMatchObject({
        prod_last_use: null,
        dev_last_use: null,
      });
      const revokedRow = await t.db.database.db
        .selectFrom('api_keys')
        .select(['last_used_at'])
        .where('id', '=', extra.id)
        .executeTakeFirst();
      expect(revokedRow).toEqual({ last_used_at: null });
    });
  });
});
