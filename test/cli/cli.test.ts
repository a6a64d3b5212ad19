/**
 * The operator CLI in-process through `run(argv, io)`, on the same store an
 * API instance reads: the --json document of every command (CONTRACT C2),
 * key shapes and the fate of rotated and revoked keys (C2.1, C2.2), failures
 * (one `leadlight: ` line on stderr, still one JSON document with --json),
 * NDJSON import, all or nothing (C2.3), and the demo seed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { migrations } from '../../src/db/migrations/index.js';
import { nameFromDomain } from '../../src/intelligence/email-domain.js';
import { paletteColor } from '../../src/schemas/list-colors.js';
import { createTestApp, TIMESTAMP, UUID, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { createEmptyDatabase, storeKinds, tempDir } from '../helpers/stores.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface CliOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  stdin?: Readable;
}

function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function cli(argv: string[], options: CliOptions): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const code = await run(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: options.stdin ?? Readable.from([]),
    env: { DATABASE_URL: options.databaseUrl, ...options.env },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** C2: a successful --json run prints exactly one JSON document on stdout. */
function succeeded(result: CliResult): unknown {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** C2: a failure exits non-zero with exactly one line on stderr, starting "leadlight: ". */
function failed(result: CliResult): void {
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(/^leadlight: [^\n]+\n$/);
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PROD_KEY = /^ll_prod_[0-9A-Za-z]{32,}$/;
const DEV_KEY = /^ll_dev_[0-9A-Za-z]{32,}$/;
const sortedKeys = (value: unknown) => Object.keys(value as object).sort();

describe.each(storeKinds())('the operator CLI on %s', (kind) => {
  let t: TestApp;
  let files: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    files = tempDir('leadlight-cli-files-');
  });
  afterAll(async () => {
    await t?.close();
    if (files !== undefined) fs.rmSync(files, { recursive: true, force: true });
  });

  const leadlight = (argv: string[], options: Omit<CliOptions, 'databaseUrl'> = {}) =>
    cli(argv, { databaseUrl: t.db.url, ...options });

  let fileCounter = 0;
  /** Writes an NDJSON file: objects become JSON lines, strings are written as they are. */
  function ndjson(lines: (object | string)[]): string {
    const file = path.join(files, `import-${++fileCounter}.ndjson`);
    fs.writeFileSync(file, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
    return file;
  }

  const withKey = (key: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  async function get(workspace: TestWorkspace, url: string) {
    const response = await t.as(workspace, { method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.json();
  }
  const total = async (workspace: TestWorkspace, url: string): Promise<number> =>
    (await get(workspace, url)).pagination.total;

  async function importFile(workspace: TestWorkspace, resource: string, lines: (object | string)[]) {
    return leadlight(['import', resource, ndjson(lines), '--workspace', workspace.id, '--json']);
  }

  describe('migrate (C2)', () => {
    it('C2: lists the migrations it applied to an empty database, then [] on the next run', async () => {
      const empty = await createEmptyDatabase(kind);
      try {
        const first = await cli(['migrate', '--json'], { databaseUrl: empty.url });
        expect(succeeded(first)).toEqual({ applied: Object.keys(migrations(kind)) });
        const second = await cli(['migrate', '--json'], { databaseUrl: empty.url });
        expect(succeeded(second)).toEqual({ applied: [] });
      } finally {
        await empty.drop();
      }
    });

    it('C2: every command applies pending migrations first', async () => {
      const empty = await createEmptyDatabase(kind);
      try {
        const created = succeeded(await cli(['workspace', 'create', '--name', 'Early', '--json'], { databaseUrl: empty.url }));
        expect(created).toMatchObject({ name: 'Early' });
        const listed = succeeded(await cli(['workspace', 'list', '--json'], { databaseUrl: empty.url }));
        expect(listed).toEqual([expect.objectContaining({ name: 'Early' })]);
        expect(succeeded(await cli(['migrate', '--json'], { databaseUrl: empty.url }))).toEqual({ applied: [] });
      } finally {
        await empty.drop();
      }
    });
  });

  describe('workspace create and list (C2)', () => {
    it('C2: workspace create --json prints {id, name, created_at} of a stored workspace', async () => {
      const created = succeeded(await leadlight(['workspace', 'create', '--name', 'Acme Ops', '--json'])) as Record<
        string,
        string
      >;
      expect(sortedKeys(created)).toEqual(['created_at', 'id', 'name']);
      expect(created.id).toMatch(UUID);
      expect(created.name).toBe('Acme Ops');
      expect(created.created_at).toMatch(TIMESTAMP);
      const stored = await t.services.workspaces.get(created.id as string);
      expect({ id: stored.id, name: stored.name, created_at: stored.created_at }).toEqual(created);
    });

    it('C2: workspace list --json prints every workspace with exactly the five fields', async () => {
      const created = succeeded(await leadlight(['workspace', 'create', '--name', 'Listed', '--json'])) as Record<
        string,
        string
      >;
      const listed = succeeded(await leadlight(['workspace', 'list', '--json'])) as Record<string, unknown>[];
      expect(Array.isArray(listed)).toBe(true);
      expect(listed).toHaveLength((await t.services.workspaces.list()).length);
      for (const entry of listed) {
        expect(sortedKeys(entry)).toEqual(['created_at', 'dev_last_use', 'id', 'name', 'prod_last_use']);
      }
      expect(listed.find((entry) => entry.id === created.id)).toEqual({
        ...created,
        prod_last_use: null,
        dev_last_use: null,
      });
    });

    it('C3.4: workspace list shows prod_last_use once the production key was used', async () => {
      const ws = await t.createWorkspace('Used');
      expect((await t.as(ws, { method: 'GET', url: '/api/v1/leads' })).statusCode).toBe(200);
      const listed = succeeded(await leadlight(['workspace', 'list', '--json'])) as Record<string, unknown>[];
      const entry = listed.find((candidate) => candidate.id === ws.id);
      expect(entry?.prod_last_use).toMatch(TIMESTAMP);
      expect(entry?.dev_last_use).toBeNull();
    });
  });

  describe('keys (C2, C2.1, C2.2)', () => {
    let ws: TestWorkspace;

    beforeAll(async () => {
      ws = await t.createWorkspace('Keys');
    });

    const createKey = async (type: string, name?: string) =>
      succeeded(
        await leadlight([
          'key',
          'create',
          '--workspace',
          ws.id,
          '--type',
          type,
          ...(name === undefined ? [] : ['--name', name]),
          '--json',
        ]),
      ) as Record<string, string | null>;

    it('C2.1: key create --json prints the six fields and a working ll_prod_ or ll_dev_ key', async () => {
      const production = await createKey('production', 'billing');
      expect(sortedKeys(production)).toEqual(['created_at', 'id', 'key', 'name', 'type', 'workspace_id']);
      expect(production).toMatchObject({ workspace_id: ws.id, type: 'production', name: 'billing' });
      expect(production.id).toMatch(UUID);
      expect(production.created_at).toMatch(TIMESTAMP);
      expect(production.key).toMatch(PROD_KEY);

      const development = await createKey('development');
      expect(sortedKeys(development)).toEqual(['created_at', 'id', 'key', 'name', 'type', 'workspace_id']);
      expect(development).toMatchObject({ workspace_id: ws.id, type: 'development', name: null });
      expect(development.key).toMatch(DEV_KEY);
      expect(development.key).not.toBe(production.key);

      for (const key of [production.key, development.key] as string[]) {
        const response = await withKey(key, '/api/v1/leads');
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-workspace-id']).toBe(ws.id);
      }
    });

    it('C2.1: key list prints the keys with a 4-character hint and never a secret', async () => {
      const created = [await createKey('production', 'listed prod'), await createKey('development', 'listed dev')];
      const result = await leadlight(['key', 'list', '--workspace', ws.id, '--json']);
      const listed = succeeded(result) as Record<string, unknown>[];
      for (const entry of listed) {
        expect(sortedKeys(entry)).toEqual(['created_at', 'hint', 'id', 'last_used_at', 'name', 'type']);
      }
      for (const key of created) {
        expect(listed.find((entry) => entry.id === key.id)).toEqual({
          id: key.id,
          type: key.type,
          name: key.name,
          hint: (key.key as string).slice(-4),
          created_at: key.created_at,
          last_used_at: null,
        });
      }
      const text = await leadlight(['key', 'list', '--workspace', ws.id]);
      expect(text.code).toBe(0);
      for (const output of [result.stdout, text.stdout]) {
        for (const secret of [...created.map((key) => key.key as string), ws.production.key, ws.development.key]) {
          expect(output).not.toContain(secret);
          expect(output).not.toContain(secret.slice(8, 24));
        }
        expect(output).not.toMatch(/ll_(prod|dev)_/);
      }
    });

    it('C2.2: key rotate makes a key of the same workspace, type and name; the old key fails at once', async () => {
      const old = await createKey('development', 'rotating');
      expect((await withKey(old.key as string, '/api/v1/leads')).statusCode).toBe(200);

      const rotated = succeeded(await leadlight(['key', 'rotate', old.id as string, '--json'])) as Record<string, string>;
      expect(sortedKeys(rotated)).toEqual(['created_at', 'id', 'key', 'name', 'replaces', 'type', 'workspace_id']);
      expect(rotated).toMatchObject({ replaces: old.id, workspace_id: ws.id, type: 'development', name: 'rotating' });
      expect(rotated.id).toMatch(UUID);
      expect(rotated.id).not.toBe(old.id);
      expect(rotated.created_at).toMatch(TIMESTAMP);
      expect(rotated.key).toMatch(DEV_KEY);
      expect(rotated.key).not.toBe(old.key);

      const refused = await withKey(old.key as string, '/api/v1/leads');
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing API key' });
      expect(await t.services.apiKeys.authenticate(old.key as string)).toBeUndefined();
      const accepted = await withKey(rotated.key as string, '/api/v1/leads');
      expect(accepted.statusCode).toBe(200);
      expect(accepted.headers['x-workspace-id']).toBe(ws.id);
    });

    it('C2.2: key revoke prints {id, revoked_at} and the key fails on the very next request', async () => {
      const key = await createKey('production', 'doomed');
      expect((await withKey(key.key as string, '/api/v1/leads')).statusCode).toBe(200);
      const revoked = succeeded(await leadlight(['key', 'revoke', key.id as string, '--json'])) as Record<string, string>;
      expect(sortedKeys(revoked)).toEqual(['id', 'revoked_at']);
      expect(revoked.id).toBe(key.id);
      expect(revoked.revoked_at).toMatch(TIMESTAMP);
      expect((await withKey(key.key as string, '/api/v1/leads')).statusCode).toBe(401);
      expect(await t.services.apiKeys.authenticate(key.key as string)).toBeUndefined();
    });
  });

  describe('failures (C2)', () => {
    let ws: TestWorkspace;

    beforeAll(async () => {
      ws = await t.createWorkspace('Failures');
    });

    const cases: { name: string; argv: () => string[]; env?: Record<string, string> }[] = [
      { name: 'key create for an unknown workspace', argv: () => ['key', 'create', '--workspace', UNKNOWN_ID, '--type', 'production'] },
      { name: 'key list for an unknown workspace', argv: () => ['key', 'list', '--workspace', UNKNOWN_ID] },
      { name: 'import into an unknown workspace', argv: () => ['import', 'companies', ndjson([{ name: 'X' }]), '--workspace', UNKNOWN_ID] },
      { name: 'seed into an unknown workspace', argv: () => ['seed', '--demo', '--workspace', UNKNOWN_ID] },
      { name: 'key rotate of an unknown key id', argv: () => ['key', 'rotate', UNKNOWN_ID] },
      { name: 'key revoke of an unknown key id', argv: () => ['key', 'revoke', UNKNOWN_ID] },
      { name: 'key revoke of a malformed key id', argv: () => ['key', 'revoke', 'not-a-key-id'] },
      { name: 'key create with a bad --type', argv: () => ['key', 'create', '--workspace', ws.id, '--type', 'staging'] },
      { name: 'import of an unknown resource', argv: () => ['import', 'widgets', ndjson([{ name: 'X' }]), '--workspace', ws.id] },
      { name: 'import of a missing file', argv: () => ['import', 'companies', path.join(files, 'missing.ndjson'), '--workspace', ws.id] },
      { name: 'an unknown command', argv: () => ['frobnicate'] },
      { name: 'a missing required option', argv: () => ['key', 'list'] },
      { name: 'a bad DATABASE_URL', argv: () => ['migrate'], env: { DATABASE_URL: 'mysql://x' } },
      { name: 'an unreachable database', argv: () => ['migrate'], env: { DATABASE_URL: 'postgres://127.0.0.1:1/leadlight' } },
      { name: 'a bad PORT', argv: () => ['workspace', 'list'], env: { PORT: 'abc' } },
    ];

    it.each(cases)('C2: $name exits non-zero with one "leadlight: " line, and one JSON document with --json', async ({ argv, env }) => {
      const keysBefore = await t.services.apiKeys.list(ws.id);
      const workspacesBefore = (await t.services.workspaces.list()).length;

      const plain = await leadlight(argv(), { env });
      failed(plain);

      const json = await leadlight([...argv(), '--json'], { env });
      failed(json);
      expect(JSON.parse(json.stdout)).toMatchObject({ error: expect.any(String), message: expect.any(String) });

      expect(await t.services.apiKeys.list(ws.id)).toEqual(keysBefore);
      expect(await t.services.workspaces.list()).toHaveLength(workspacesBefore);
      expect(await total(ws, '/api/v1/companies')).toBe(0);
    });

    it('C2.2: rotating a revoked key fails and makes no new key', async () => {
      const key = await t.services.apiKeys.create(ws.id, 'production', 'gone');
      await t.services.apiKeys.revoke(key.id);
      const before = await t.services.apiKeys.list(ws.id);
      const result = await leadlight(['key', 'rotate', key.id, '--json']);
      failed(result);
      expect(JSON.parse(result.stdout)).toMatchObject({ error: expect.any(String) });
      expect(await t.services.apiKeys.list(ws.id)).toEqual(before);
    });
  });

  describe('import (C2.3)', () => {
    it('C2.3: companies, with and without id and created_at', async () => {
      const ws = await t.createWorkspace();
      const id = '0b9f6c57-4f7e-4c0a-9a1e-3c2d1e0f9a01';
      const result = await importFile(ws, 'companies', [
        { name: 'Acme', domain: 'acme.example', description: 'Widgets', employees: '11-50', main_industry: 'Software' },
        { id, name: 'Beta', created_at: '2024-01-02T03:04:05.678Z' },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'companies', imported: 2 });
      const listed = await get(ws, '/api/v1/companies');
      expect(listed.pagination.total).toBe(2);
      const acme = listed.data.find((company: { name: string }) => company.name === 'Acme');
      expect(acme).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Acme',
        domain: 'acme.example',
        description: 'Widgets',
        employees: '11-50',
        main_industry: 'Software',
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect((await get(ws, `/api/v1/companies/${id}`)).data).toEqual({
        id,
        name: 'Beta',
        domain: null,
        description: null,
        employees: null,
        main_industry: null,
        created_at: '2024-01-02T03:04:05.678Z',
      });
    });

    it('C2.3: lists', async () => {
      const ws = await t.createWorkspace();
      const result = await importFile(ws, 'lists', [
        { name: 'Hot', description: 'Pricing page visitors', color: '#E4572E', created_at: '2024-02-01T00:00:00.000Z' },
        { name: 'Bare' },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'lists', imported: 2 });
      const listed = await get(ws, '/api/v1/lists');
      expect(listed.pagination.total).toBe(2);
      expect(listed.data.find((list: { name: string }) => list.name === 'Hot')).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Hot',
        description: 'Pricing page visitors',
        color: '#E4572E',
        created_at: '2024-02-01T00:00:00.000Z',
      });
      // C6.4: a list imported without a color gets its palette color, as one made by the API
      const bare = listed.data.find((list: { name: string }) => list.name === 'Bare') as { id: string };
      expect(bare).toMatchObject({
        description: null,
        color: paletteColor(bare.id),
        created_at: expect.stringMatching(TIMESTAMP),
      });
    });

    it('C2.3: identities, timestamps defaulting like the API', async () => {
      const ws = await t.createWorkspace();
      const id = '1c8e7b66-5a8f-4d1b-8b2f-4d3e2f1a0b02';
      const visitor = '2d9f8c77-6b9a-4e2c-9c3a-5e4f3a2b1c03';
      const result = await importFile(ws, 'identities', [
        { email: 'ada@example.com', name: 'Ada', traits: { plan: 'pro' } },
        { id, visitor_id: visitor, is_favorite: true, city: 'Lyon', country: 'FR', created_at: '2024-03-01T10:00:00.000Z' },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'identities', imported: 2 });
      expect(await total(ws, '/api/v1/identities')).toBe(2);
      expect((await get(ws, `/api/v1/identities/${id}`)).data).toEqual({
        id,
        workspace_id: ws.id,
        visitor_id: visitor,
        email: null,
        name: null,
        traits: {},
        first_seen: '2024-03-01T10:00:00.000Z',
        last_seen: '2024-03-01T10:00:00.000Z',
        ip: null,
        city: 'Lyon',
        country: 'FR',
        is_favorite: true,
        created_at: '2024-03-01T10:00:00.000Z',
      });
      const [ada] = (await get(ws, '/api/v1/identities?email=ada@example.com')).data;
      expect(ada).toMatchObject({ name: 'Ada', traits: { plan: 'pro' }, is_favorite: false, visitor_id: expect.stringMatching(UUID) });
    });

    it('C2.3: activity of an identity of the workspace', async () => {
      const ws = await t.createWorkspace();
      const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Ida' } })).json().data;
      const result = await importFile(ws, 'activity', [
        { identity_id: identity.id, type: 'page_view', who: 'Ida', what: 'Viewed /pricing', source: 'direct', created_at: '2024-04-01T08:00:00.000Z' },
        { identity_id: identity.id, type: 'page_view' },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'activity', imported: 2 });
      const activity = await get(ws, `/api/v1/identities/${identity.id}/activity`);
      expect(activity.pagination.total).toBe(2);
      expect(activity.data[1]).toEqual({
        id: expect.stringMatching(UUID),
        type: 'page_view',
        who: 'Ida',
        what: 'Viewed /pricing',
        source: 'direct',
        created_at: '2024-04-01T08:00:00.000Z',
      });
      expect(activity.data[0]).toMatchObject({ type: 'page_view', who: null, created_at: expect.stringMatching(TIMESTAMP) });
    });

    it('C2.3: personalities, found through the identity with the same visitor_id', async () => {
      const ws = await t.createWorkspace();
      const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Pat' } })).json().data;
      const result = await importFile(ws, 'personalities', [
        { visitor_id: identity.visitor_id, score: 87.5, personality: { type: 'Driver', traits: ['direct'] }, learning_percentage: 0.4 },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'personalities', imported: 1 });
      expect((await get(ws, `/api/v1/identities/${identity.id}/personalities`)).data).toEqual([
        {
          id: expect.stringMatching(UUID),
          visitor_id: identity.visitor_id,
          score: 87.5,
          personality: { type: 'Driver', traits: ['direct'] },
          features: {},
          learning_percentage: 0.4,
          created_at: expect.stringMatching(TIMESTAMP),
        },
      ]);
    });

    it('C2.3: leads linked to an identity and a company of the workspace', async () => {
      const ws = await t.createWorkspace();
      const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Lee' } })).json().data;
      const [company] = await importRows(t, ws.id, 'companies', [{ name: 'Linked Co' }]);
      const id = '3e0a9d88-7c0b-4f3d-8d4b-6f5a4b3c2d04';
      const result = await importFile(ws, 'leads', [
        {
          id,
          code: 'LD-1',
          source: 'website',
          identity_id: identity.id,
          company_id: company,
          properties: { status: 'new' },
          created_at: '2024-05-01T12:00:00.000Z',
        },
        {},
      ]);
      expect(succeeded(result)).toEqual({ resource: 'leads', imported: 2 });
      expect(await total(ws, '/api/v1/leads')).toBe(2);
      expect((await get(ws, `/api/v1/leads/${id}`)).data).toEqual({
        id,
        visitor_id: expect.stringMatching(UUID),
        workspace_id: ws.id,
        code: 'LD-1',
        source: 'website',
        created_at: '2024-05-01T12:00:00.000Z',
        updated_at: '2024-05-01T12:00:00.000Z',
        properties: { status: 'new' },
        location: {},
        identity_id: identity.id,
        session_id: null,
        summary: null,
        company_id: company,
      });
    });

    it('C2.3: users become members with their workspace_role', async () => {
      const ws = await t.createWorkspace();
      const result = await importFile(ws, 'users', [
        { email: 'grace@example.com', name: 'Grace', workspace_role: 'admin', joined_at: '2024-06-01T09:00:00.000Z' },
        { email: 'alan@example.com', workspace_role: 'viewer' },
      ]);
      expect(succeeded(result)).toEqual({ resource: 'users', imported: 2 });
      const listed = await get(ws, '/api/v1/users');
      expect(listed.pagination.total).toBe(2);
      expect(listed.data.find((user: { email: string }) => user.email === 'grace@example.com')).toMatchObject({
        id: expect.stringMatching(UUID),
        name: 'Grace',
        workspace_role: 'admin',
        joined_at: '2024-06-01T09:00:00.000Z',
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(await total(ws, '/api/v1/users?role=viewer')).toBe(1);
    });

    it('C2.3: a user with the same email is reused, a member of two workspaces with different roles', async () => {
      const first = await t.createWorkspace();
      const second = await t.createWorkspace();
      succeeded(await importFile(first, 'users', [{ email: 'shared@example.com', name: 'Sam', workspace_role: 'admin' }]));
      succeeded(await importFile(second, 'users', [{ email: 'shared@example.com', name: 'Sam', workspace_role: 'viewer' }]));
      const inFirst = await get(first, '/api/v1/users');
      const inSecond = await get(second, '/api/v1/users');
      expect(inFirst.pagination.total).toBe(1);
      expect(inSecond.pagination.total).toBe(1);
      expect(inFirst.data[0]).toMatchObject({ email: 'shared@example.com', workspace_role: 'admin' });
      expect(inSecond.data[0]).toMatchObject({ email: 'shared@example.com', workspace_role: 'viewer' });
      expect(inSecond.data[0].id).toBe(inFirst.data[0].id);
    });

    it('C2.3: `-` reads stdin', async () => {
      const ws = await t.createWorkspace();
      const text = `${JSON.stringify({ name: 'From stdin' })}\n${JSON.stringify({ name: 'Also stdin' })}\n`;
      const result = await leadlight(['import', 'companies', '-', '--workspace', ws.id, '--json'], {
        stdin: Readable.from([text]),
      });
      expect(succeeded(result)).toEqual({ resource: 'companies', imported: 2 });
      const names = (await get(ws, '/api/v1/companies')).data.map((company: { name: string }) => company.name);
      expect(names.sort()).toEqual(['Also stdin', 'From stdin']);
    });

    it('C2.3: blank lines are skipped, and still counted when a bad line is named', async () => {
      const ws = await t.createWorkspace();
      const result = await importFile(ws, 'companies', [{ name: 'One' }, '', '   ', { name: 'Two' }]);
      expect(succeeded(result)).toEqual({ resource: 'companies', imported: 2 });

      const bad = await importFile(ws, 'companies', [{ name: 'Three' }, '', { name: 'Four' }, { domain: 'no-name.example' }]);
      failed(bad);
      expect(bad.stderr).toMatch(/\bline 4\b/);
      expect(bad.stderr).not.toMatch(/\bline [123]\b/);
      expect(await total(ws, '/api/v1/companies')).toBe(2);
    });

    it('C2.3: CRLF line endings are read as line ends', async () => {
      const ws = await t.createWorkspace();
      const file = path.join(files, 'crlf.ndjson');
      fs.writeFileSync(file, `${JSON.stringify({ name: 'Windows' })}\r\n\r\n${JSON.stringify({ name: 'Lines' })}\r\n`);
      const result = await leadlight(['import', 'lists', file, '--workspace', ws.id, '--json']);
      expect(succeeded(result)).toEqual({ resource: 'lists', imported: 2 });
      const names = (await get(ws, '/api/v1/lists')).data.map((list: { name: string }) => list.name);
      expect(names.sort()).toEqual(['Lines', 'Windows']);
    });

    it('C2.3: a file with bad lines imports nothing, exits non-zero and names each bad line', async () => {
      const ws = await t.createWorkspace();
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'kept' } })).statusCode).toBe(201);
      const before = await get(ws, '/api/v1/leads');
      const result = await importFile(ws, 'leads', [
        { code: 'A' },
        { code: 'B' },
        { code: 5 },
        { code: 'C' },
        'this is not JSON',
      ]);
      failed(result);
      expect(result.stderr).toMatch(/\bline 3\b/);
      expect(result.stderr).toMatch(/\bline 5\b/);
      expect(result.stderr).not.toMatch(/\bline [124]\b/);
      expect(JSON.parse(result.stdout)).toMatchObject({ error: expect.any(String) });
      expect(await get(ws, '/api/v1/leads')).toEqual(before);
    });

    it('C2.3: a bad line after more than one batch of good lines still imports nothing', async () => {
      const ws = await t.createWorkspace();
      const lines: (object | string)[] = Array.from({ length: 1200 }, (_, index) => ({ name: `Company ${index + 1}` }));
      lines.push({ name: 'Bad employees', employees: 12 });
      const result = await importFile(ws, 'companies', lines);
      failed(result);
      expect(result.stderr).toMatch(/\bline 1201\b/);
      expect(await total(ws, '/api/v1/companies')).toBe(0);
    });

    it('C2.3: activity naming an identity outside the workspace is a bad line', async () => {
      const ws = await t.createWorkspace();
      const other = await t.createWorkspace();
      const own = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: {} })).json().data;
      const foreign = (await t.as(other, { method: 'POST', url: '/api/v1/identities', payload: {} })).json().data;
      const result = await importFile(ws, 'activity', [
        { identity_id: own.id, type: 'page_view' },
        { identity_id: foreign.id, type: 'page_view' },
        { identity_id: UNKNOWN_ID, type: 'page_view' },
      ]);
      failed(result);
      expect(result.stderr).toMatch(/\bline 2\b/);
      expect(result.stderr).toMatch(/\bline 3\b/);
      expect(result.stderr).not.toMatch(/\bline 1\b/);
      expect(await total(ws, `/api/v1/identities/${own.id}/activity`)).toBe(0);
      expect(await total(other, `/api/v1/identities/${foreign.id}/activity`)).toBe(0);
    });

    it('C2.3: leads naming a company or identity outside the workspace are bad lines', async () => {
      const ws = await t.createWorkspace();
      const other = await t.createWorkspace();
      const [own] = await importRows(t, ws.id, 'companies', [{ name: 'Ours' }]);
      const [foreign] = await importRows(t, other.id, 'companies', [{ name: 'Theirs' }]);
      const foreignIdentity = (await t.as(other, { method: 'POST', url: '/api/v1/identities', payload: {} })).json().data;
      const result = await importFile(ws, 'leads', [
        { code: 'ok', company_id: own },
        { code: 'foreign company', company_id: foreign },
        { code: 'foreign identity', identity_id: foreignIdentity.id },
      ]);
      failed(result);
      expect(result.stderr).toMatch(/\bline 2\b/);
      expect(result.stderr).toMatch(/\bline 3\b/);
      expect(result.stderr).not.toMatch(/\bline 1\b/);
      expect(await total(ws, '/api/v1/leads')).toBe(0);
      expect(await total(other, '/api/v1/leads')).toBe(0);
    });

    it('C2.3: an id already taken in the workspace, or repeated in the file, is a bad line', async () => {
      const ws = await t.createWorkspace();
      const [taken] = await importRows(t, ws.id, 'companies', [{ name: 'First' }]);
      const lead = (await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'existing' } })).json().data;
      const fresh = '4f1b0e99-8d1c-4a4e-9e5c-7a6b5c4d3e05';

      const companies = await importFile(ws, 'companies', [
        { name: 'New' },
        { id: taken, name: 'Duplicate' },
        { id: fresh, name: 'Fresh' },
        { id: fresh, name: 'Fresh again' },
      ]);
      failed(companies);
      expect(companies.stderr).toMatch(/\bline 2\b/);
      expect(companies.stderr).toMatch(/\bline 4\b/);
      expect(companies.stderr).not.toMatch(/\bline 1\b/);
      expect((await get(ws, '/api/v1/companies')).data).toEqual([expect.objectContaining({ id: taken, name: 'First' })]);

      const leads = await importFile(ws, 'leads', [{ code: 'new' }, { id: lead.id, code: 'overwrite' }]);
      failed(leads);
      expect(leads.stderr).toMatch(/\bline 2\b/);
      expect((await get(ws, '/api/v1/leads')).data).toEqual([lead]);
    });

    it('C2.3: users need workspace_role, and an id taken by another user is a bad line', async () => {
      const ws = await t.createWorkspace();
      const [existing] = await importRows(t, ws.id, 'users', [{ email: 'first@example.com', workspace_role: 'admin' }]);
      const result = await importFile(ws, 'users', [
        { email: 'ok@example.com', workspace_role: 'member' },
        { email: 'norole@example.com', name: 'No Role' },
        { id: existing, email: 'someone-else@example.com', workspace_role: 'viewer' },
      ]);
      failed(result);
      expect(result.stderr).toMatch(/\bline 2\b/);
      expect(result.stderr).toMatch(/\bline 3\b/);
      expect(result.stderr).not.toMatch(/\bline 1\b/);
      const listed = await get(ws, '/api/v1/users');
      expect(listed.data).toEqual([expect.objectContaining({ id: existing, email: 'first@example.com', workspace_role: 'admin' })]);
    });

    it('C2.3, C3.8: U+0000 or a lone surrogate anywhere in a line, in a value or a key, makes it a bad line', async () => {
      const ws = await t.createWorkspace();
      const result = await importFile(ws, 'identities', [
        { name: 'Fine' },
        '{"name":"nul \\u0000 inside"}',
        '{"name":"lone \\ud800 surrogate"}',
        '{"traits":{"deep":{"key \\u0000":1}}}',
        '{"traits":{"list":["\\udc00"]}}',
        { name: 'Paired \ud83d\ude00 is fine' },
      ]);
      failed(result);
      for (const line of [2, 3, 4, 5]) expect(result.stderr).toMatch(new RegExp(`\\bline ${line}: [^;]*U\\+0000 or unpaired surrogate`));
      expect(result.stderr).not.toMatch(/\bline [16]\b/);
      expect(await total(ws, '/api/v1/identities')).toBe(0);
    });

    it('C2.3: importing a member again gives the membership the new role, and keeps the person', async () => {
      const ws = await t.createWorkspace();
      succeeded(await importFile(ws, 'users', [{ email: 'role@example.com', name: 'Rolf', workspace_role: 'viewer' }]));
      const before = (await get(ws, '/api/v1/users')).data[0];
      succeeded(await importFile(ws, 'users', [{ email: 'ROLE@example.com', name: 'Rolf', workspace_role: 'admin' }]));
      const after = await get(ws, '/api/v1/users');
      expect(after.pagination.total).toBe(1);
      expect(after.data[0]).toEqual({ ...before, workspace_role: 'admin' });
    });

    it('C2.3: an import never rewrites the profile of a person another workspace sees', async () => {
      const first = await t.createWorkspace();
      const second = await t.createWorkspace();
      succeeded(
        await importFile(first, 'users', [
          { email: 'profile@example.com', name: 'Original Name', username: 'original', language: 'en', workspace_role: 'admin' },
        ]),
      );
      const seenByFirst = (await get(first, '/api/v1/users')).data[0];
      succeeded(
        await importFile(second, 'users', [
          { email: 'profile@example.com', name: 'Overwritten', username: 'other', language: 'de', workspace_role: 'member' },
        ]),
      );
      expect((await get(first, '/api/v1/users')).data[0]).toEqual(seenByFirst);
      const seenBySecond = (await get(second, '/api/v1/users')).data[0];
      expect(seenBySecond).toMatchObject({ id: seenByFirst.id, name: 'Original Name', username: 'original', language: 'en', workspace_role: 'member' });
    });
  });

  describe('seed --demo', () => {
    const SEED_KEYS = ['activity', 'companies', 'events', 'identities', 'leads', 'lists', 'personalities', 'sessions', 'users', 'visitors', 'workspace_id'];
    const ACTIVITY_TYPES = new Set(['page_view', 'event', 'conversion', 'identify']);

    async function pages(key: string, url: string): Promise<Record<string, unknown>[]> {
      const items: Record<string, unknown>[] = [];
      for (let offset = 0; ; offset += 100) {
        const response = await withKey(key, `${url}${url.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
        expect(response.statusCode, url).toBe(200);
        const body = response.json();
        items.push(...body.data);
        if (items.length >= body.pagination.total) return items;
      }
    }

    it('seed --demo (C5.8) creates a demo workspace whose identities, activity and leads came through tracking, and prints its counts', async () => {
      const workspacesBefore = (await t.services.workspaces.list()).length;
      const counts = succeeded(await leadlight(['seed', '--demo', '--json'])) as Record<string, unknown>;
      expect(sortedKeys(counts)).toEqual(SEED_KEYS);
      expect(counts.workspace_id).toMatch(UUID);
      for (const name of SEED_KEYS.filter((field) => field !== 'workspace_id')) {
        expect(Number.isInteger(counts[name]), name).toBe(true);
        expect(counts[name], name).toBeGreaterThan(0);
      }
      expect(await t.services.workspaces.list()).toHaveLength(workspacesBefore + 1);
      const workspaceId = counts.workspace_id as string;
      const { key } = await t.services.apiKeys.create(workspaceId, 'production', 'seed check');

      const companies = await pages(key, '/api/v1/companies');
      expect(companies).toHaveLength(counts.companies as number);
      // companies the demo's people work at, and those lead intelligence named after a visitor's business network (no domain: C6.1);
      // the first were made from email domains and enriched from the demo's simulated websites and provider (C6.7)
      const fromEmails = companies.filter((entry) => entry.domain !== '');
      expect(fromEmails.length).toBeGreaterThan(10);
      for (const company of fromEmails) {
        expect(company.domain).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/);
        expect(company.main_industry).toEqual(expect.stringMatching(/\S/));
        expect(company.name).toEqual(expect.stringMatching(/\S/));
        expect(company.name, 'a name from the website, not from the domain').not.toBe(nameFromDomain(company.domain as string));
        expect(company.description).toEqual(expect.stringMatching(/\S/));
        expect(company.employees).toMatch(/^\d+-\d+$/);
      }

      const identities = await pages(key, '/api/v1/identities');
      expect(identities).toHaveLength(counts.identities as number);
      let activity = 0;
      let personalities = 0;
      const types = new Set<unknown>();
      for (const identity of identities) {
        const entries = await pages(key, `/api/v1/identities/${identity.id}/activity`);
        for (const entry of entries) {
          expect(ACTIVITY_TYPES.has(entry.type as string), String(entry.type)).toBe(true);
          expect(entry.source).toBe('web');
          types.add(entry.type);
        }
        expect(entries.some((entry) => entry.type === 'identify'), 'every identity identified itself').toBe(true);
        expect(Date.parse(identity.first_seen as string)).toBeLessThanOrEqual(Date.parse(identity.last_seen as string));
        activity += entries.length;
        const personal = await withKey(key, `/api/v1/identities/${identity.id}/personalities`);
        expect(personal.statusCode).toBe(200);
        personalities += personal.json().data.length;
      }
      expect(types).toEqual(ACTIVITY_TYPES);
      expect(activity).toBe(counts.activity);
      expect(personalities).toBe(counts.personalities);
      expect(counts.events as number).toBeGreaterThan(counts.activity as number);
      expect(counts.sessions as number).toBeGreaterThanOrEqual(counts.visitors as number);
      expect(counts.visitors as number).toBeGreaterThan(counts.identities as number);

      const leads = await pages(key, '/api/v1/leads');
      expect(leads).toHaveLength(counts.leads as number);
      const identityIds = new Set(identities.map((identity) => identity.id));
      const companyIds = new Set(companies.map((company) => company.id));
      // every lead is a conversion: one of the three sources, in a session
      for (const lead of leads) {
        expect(['campaign', 'referral', 'website']).toContain(lead.source);
        expect(lead.session_id).toMatch(UUID);
      }
      expect(new Set(leads.map((lead) => lead.source)).size).toBe(3);
      const linked = leads.filter((lead) => lead.identity_id !== null && lead.company_id !== null);
      expect(linked.length).toBeGreaterThan(0);
      for (const lead of linked) {
        expect(identityIds.has(lead.identity_id)).toBe(true);
        expect(companyIds.has(lead.company_id)).toBe(true);
      }

      const lists = await pages(key, '/api/v1/lists');
      expect(lists).toHaveLength(counts.lists as number);
      expect(await pages(key, '/api/v1/users')).toHaveLength(counts.users as number);

      // lead intelligence (C6): scored leads with reasons, derived personalities, a rule segment with members
      const scored = leads.filter((lead) => typeof (lead.summary as { score?: unknown } | null)?.score === 'number');
      expect(scored.length).toBeGreaterThan(0);
      for (const lead of scored) expect((lead.summary as { score_reasons: unknown }).score_reasons).toEqual(expect.any(Array));
      expect(personalities).toBeGreaterThan(0);
      const pricing = lists.find((list) => list.name === 'Pricing page viewers')!;
      expect((await withKey(key, `/api/v1/lists/${String(pricing.id)}/rule`)).json().data).not.toBeNull();
      expect((await pages(key, `/api/v1/lists/${String(pricing.id)}/identities`)).length).toBeGreaterThan(0);
    });

    it('seed --demo --workspace ID fills an existing workspace', async () => {
      const ws = await t.createWorkspace('Seed target');
      const workspacesBefore = (await t.services.workspaces.list()).length;
      const counts = succeeded(await leadlight(['seed', '--demo', '--workspace', ws.id, '--json'])) as Record<string, unknown>;
      expect(sortedKeys(counts)).toEqual(SEED_KEYS);
      expect(counts.workspace_id).toBe(ws.id);
      expect(await t.services.workspaces.list()).toHaveLength(workspacesBefore);
      expect(await total(ws, '/api/v1/leads')).toBe(counts.leads);
      expect(await total(ws, '/api/v1/companies')).toBe(counts.companies);
      expect(await total(ws, '/api/v1/identities')).toBe(counts.identities);
    });
  });
});
