/**
 * What the service logs about requests (issue 8, "An operator's basics"):
 * one line per request with its request id, and the workspace id when a key
 * named one, over real HTTP; an unexpected error's line carries the
 * workspace too. A key never reaches the log: not from the Authorization or
 * x-api-key header, not from the query string or the path. A real `serve`
 * process logs JSON when its stdout is a pipe and readable lines on a
 * terminal.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { GENEROUS_LIMITS } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { freePort, ROOT, startServerProcess } from '../helpers/processes.js';
import { createTestDatabase, tempDir, type TestDatabase } from '../helpers/stores.js';

type LogLine = Record<string, unknown> & { msg: string };

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const keyShaped = (prefix: string) =>
  `${prefix}${Array.from({ length: 40 }, (_unused, index) => BASE62[(index * 7 + 3) % 62]).join('')}`;

const failingRoute: FastifyPluginAsync = async (api) => {
  api.get('/test-failure', async () => {
    throw new Error('the disk caught fire');
  });
};

describe('request log lines (SQLite)', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let base: string;
  let workspaceId: string;
  let production: string;
  let development: string;
  const { logger, lines } = capturingLogger('info');
  const logged = () => lines.map((line) => JSON.parse(line) as LogLine);
  const linesOf = (requestId: string | null) => logged().filter((line) => line.reqId === requestId);

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Logged');
    workspaceId = workspace.id;
    production = (await services.apiKeys.create(workspace.id, 'production', 'logs')).key;
    development = (await services.apiKeys.create(workspace.id, 'development', 'logs')).key;
    app = await buildApp({
      config: { rateLimits: { ...GENEROUS_LIMITS, development: 1 }, trustProxy: false },
      database: db.database,
      logger,
      extraRoutes: failingRoute,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${base}${url}`, { headers });

  it('an authenticated request is one line with its request id, workspace id, route, status and time', async () => {
    const response = await get('/api/v1/leads?limit=5', { authorization: `Bearer ${production}` });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const mine = linesOf(requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: 'request completed',
      workspace_id: workspaceId,
      method: 'GET',
      url: '/api/v1/leads?limit=5',
      route: '/api/v1/leads',
      statusCode: 200,
    });
    expect(typeof mine[0]!.responseTime).toBe('number');
  });

  it('a request without a valid key has its request id and no workspace id', async () => {
    const response = await get('/api/v1/leads');
    expect(response.status).toBe(401);
    const mine = linesOf(response.headers.get('x-request-id'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ statusCode: 401, route: '/api/v1/leads' });
    expect(mine[0]).not.toHaveProperty('workspace_id');
  });

  it('a request refused by its key’s rate limit names the key’s workspace', async () => {
    const statuses = [];
    let requestId: string | null = null;
    for (let index = 0; index < 2; index += 1) {
      const response = await get('/api/v1/leads', { 'x-api-key': development });
      statuses.push(response.status);
      requestId = response.headers.get('x-request-id');
    }
    expect(statuses).toEqual([200, 429]);
    expect(linesOf(requestId)).toEqual([expect.objectContaining({ statusCode: 429, workspace_id: workspaceId })]);
  });

  it('an unexpected error is logged with its stack, request id and workspace id', async () => {
    const response = await get('/api/v1/test-failure', { authorization: `Bearer ${production}` });
    expect(response.status).toBe(500);
    const mine = linesOf(response.headers.get('x-request-id'));
    const failure = mine.find((line) => line.msg === 'request failed');
    expect(failure).toMatchObject({ workspace_id: workspaceId, err: { message: 'the disk caught fire' } });
    expect(mine.find((line) => line.msg === 'request completed')).toMatchObject({ statusCode: 500, workspace_id: workspaceId });
  });

  it('no key is ever logged: not from headers, the query string or the path', async () => {
    const before = lines.length;
    const stray = keyShaped('ll_dev_');
    const site = keyShaped('ll_site_');
    const requests: [string, Record<string, string>][] = [
      [`/api/v1/leads?api_key=${development}`, { authorization: `Bearer ${production}` }],
      [`/api/v1/leads?api_key=${stray}&limit=1`, { authorization: `Bearer ${production}` }],
      [`/api/v1/leads?api_key=${production}`, {}],
      [`/api/v1/leads/${production}`, { 'x-api-key': production }],
      [`/api/v1/${site}/nowhere`, {}],
      [`/api/v1/leads?key=${stray.replaceAll('_', '%5F')}`, { authorization: `bearer ${production}` }],
      [`/${stray}`, {}],
    ];
    for (const [url, headers] of requests) await get(url, headers);
    const written = lines.slice(before);
    expect(written.length).toBeGreaterThanOrEqual(requests.length);
    const text = written.join('');
    for (const secret of [production, development, stray, site, stray.replaceAll('_', '%5F')]) {
      expect(text).not.toContain(secret);
      // nor its random part alone
      expect(text).not.toContain(secret.slice(-40));
    }
    expect(text).not.toMatch(/bearer|authorization|x-api-key/i);
    const urls = written.map((line) => (JSON.parse(line) as LogLine).url);
    expect(urls).toContain('/api/v1/leads?api_key=[redacted]&limit=1');
    expect(urls).toContain('/api/v1/leads/[redacted]');
  });

  it('a key percent-encoded several times over is not logged either', async () => {
    const before = lines.length;
    const everyCharacter = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const encoded = [
      production.replaceAll('_', '%255f'),
      production.replaceAll('_', '%25255F'),
      everyCharacter(production).replaceAll('%', '%25'),
      `${production.replaceAll('_', '%255f')}%zz`,
    ];
    for (const value of encoded) await get(`/api/v1/leads?x=${value}&limit=1`, { authorization: `Bearer ${production}` });
    const written = lines.slice(before);
    expect(written.length).toBeGreaterThanOrEqual(encoded.length);
    for (const line of written) expect(line).not.toContain(production.slice(-40));
    const urls = written.map((line) => (JSON.parse(line) as LogLine).url);
    expect(urls.filter((url) => url === '/api/v1/leads?x=[redacted]&limit=1')).toHaveLength(encoded.length);
  });
});

describe('the log format of a real `serve` process', () => {
  it('logs one JSON object a line, with reqId, when stdout is not a terminal', async () => {
    const dir = tempDir('leadlight-logs-');
    const server = await startServerProcess({ DATABASE_URL: path.join(dir, 'leadlight.db'), LOG_LEVEL: 'info' });
    try {
      const response = await fetch(`${server.url}/readyz`, { headers: { 'x-request-id': 'json-line-check' } });
      expect(response.status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (!server.output().includes('json-line-check') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const line = server
      .output()
      .split('\n')
      .find((entry) => entry.includes('json-line-check'));
    expect(JSON.parse(line ?? 'null')).toMatchObject({ reqId: 'json-line-check', route: '/readyz', statusCode: 200 });
  }, 90_000);

  it('logs readable lines when stdout is a terminal', async () => {
    const dir = tempDir('leadlight-logs-tty-');
    const port = await freePort();
    const command = `exec "${process.execPath}" --import tsx src/cli/main.ts serve --port ${port}`;
    // script(1) runs the server on a pseudo-terminal
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: path.join(dir, 'leadlight.db'), LEADLIGHT_DEMO: '0', LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('tty-line-check') && Date.now() < deadline) {
        await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-request-id': 'tty-line-check' } }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const line = stripVTControlCharacters(output)
      .split(/\r?\n/)
      .find((entry) => entry.includes('tty-line-check'));
    expect(line, output).toBeDefined();
    // pino-pretty: time, level and message first, not a JSON object
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\]/);
    expect(line).toMatch(/INFO/);
    expect(line).toContain('request completed');
  }, 90_000);
});
