/**
 * A full disk under the embedded store (issue 9, item 5). Writes that cannot
 * reach the disk answer 507 insufficient_storage with Retry-After in the
 * error shape (never a 500), the log carries the original SQLITE_FULL (not
 * "cannot rollback - no transaction is active"), /readyz says that writes
 * fail, writes resume once space is available, and every acknowledged write
 * is there afterwards.
 *
 * Two ways to fill the disk: SQLite's own limit on the database's pages
 * (`pragma max_page_count`, a real SQLITE_FULL from SQLite, on any machine),
 * and, where this machine lets the test mount one, a small tmpfs filled by
 * the service's own writes and freed by deleting a ballast file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { GENEROUS_LIMITS } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { tempDir } from '../helpers/stores.js';

interface Fixture {
  app: FastifyInstance;
  database: Database;
  key: string;
  lines: string[];
}

async function open(filename: string, backgroundCheckpoints: boolean): Promise<Fixture> {
  const database = openDatabase({ kind: 'sqlite', filename }, { backgroundCheckpoints });
  await database.migrate();
  const services = createServices(new Store(database));
  const workspace = await services.workspaces.create('Full disk');
  const { key } = await services.apiKeys.create(workspace.id, 'production', 'writer');
  const { logger, lines } = capturingLogger('info');
  const app = await buildApp({ config: { rateLimits: GENEROUS_LIMITS, trustProxy: false }, database, logger });
  await app.ready();
  return { app, database, key, lines };
}

/** a lead of about 24 KiB */
let serial = 0;
const bigLead = () => ({ code: `lead-${++serial}`, properties: { notes: 'n'.repeat(24_000), at: serial } });

async function writeUntilRefused(f: Fixture, acknowledged: string[], max = 2000): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  for (let index = 0; index < max; index += 1) {
    const lead = bigLead();
    const response = await f.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${f.key}` },
      payload: lead,
    });
    if (response.statusCode === 201) {
      acknowledged.push(lead.code);
      continue;
    }
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  }
  throw new Error('the disk never filled');
}

async function allCodes(f: Fixture): Promise<Set<string>> {
  const rows = await sql<{ code: string }>`select code from leads`.execute(f.database.db);
  return new Set(rows.rows.map((row) => row.code));
}

function expectRefusal(refused: Awaited<ReturnType<typeof writeUntilRefused>>, f: Fixture): void {
  expect(refused.status).toBe(507);
  expect(refused.body).toEqual({ error: 'insufficient_storage', message: expect.stringMatching(/disk is full/) });
  expect(refused.headers['retry-after']).toBe('30');
  const logged = f.lines.filter((line) => line.includes('cannot write'));
  expect(logged.length).toBeGreaterThan(0);
  expect(logged.join('\n')).toMatch(/SQLITE_FULL|SQLITE_IOERR/);
  expect(f.lines.join('\n')).not.toMatch(/cannot rollback/);
}

describe('a full disk under SQLite', () => {
  it('issue 9: SQLITE_FULL answers 507 with Retry-After, /readyz says writes fail, and writes resume when space returns', async () => {
    const dir = tempDir();
    const f = await open(path.join(dir, 'full.db'), false);
    try {
      const acknowledged: string[] = [];
      for (let index = 0; index < 3; index += 1) expect((await f.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { authorization: `Bearer ${f.key}` }, payload: bigLead() })).statusCode).toBe(201);
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(f.database.db)).rows[0]!.page_count;
      await sql.raw(`pragma max_page_count = ${pages + 40}`).execute(f.database.db);
      const refused = await writeUntilRefused(f, acknowledged);
      expectRefusal(refused, f);
      // reads go on
      expect((await f.app.inject({ url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${f.key}` } })).statusCode).toBe(200);
      const ready = await f.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'ok', writes: expect.stringMatching(/^failing since .*SQLITE_FULL/) });

      await sql.raw(`pragma max_page_count = ${pages * 100}`).execute(f.database.db);
      expect((await f.app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', writes: 'ok' });
      const after = bigLead();
      expect((await f.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { authorization: `Bearer ${f.key}` }, payload: after })).statusCode).toBe(201);
      const stored = await allCodes(f);
      for (const code of [...acknowledged, after.code]) expect(stored.has(code), code).toBe(true);
    } finally {
      await f.app.close();
      await f.database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** whether this machine lets the test mount a tmpfs (tried once on an empty directory, unmounted at once) */
function canMount(): boolean {
  const probe = tempDir('leadlight-tmpfs-probe-');
  const mounted = mountTmpfs(probe, '64k');
  if (mounted) execFileSync('umount', [probe]);
  fs.rmSync(probe, { recursive: true, force: true });
  return mounted;
}

describe.runIf(canMount())('a full tmpfs under SQLite', () => {
  let f: Fixture;
  let mountPoint: string;
  let ballast: string;

  beforeAll(async () => {
    mountPoint = tempDir('leadlight-tmpfs-');
    expect(mountTmpfs(mountPoint, '6m')).toBe(true);
    ballast = path.join(mountPoint, 'ballast');
    f = await open(path.join(mountPoint, 'leadlight.db'), true);
    fs.writeFileSync(ballast, Buffer.alloc(1024 * 1024));
  });
  afterAll(async () => {
    await f?.app.close();
    await f?.database.close();
    if (mountPoint !== undefined) {
      execFileSync('umount', [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('issue 9: a full volume answers 507, writes resume once 1 MiB is freed, nothing acknowledged is lost', async () => {
    const acknowledged: string[] = [];
    const refused = await writeUntilRefused(f, acknowledged);
    expectRefusal(refused, f);
    expect(acknowledged.length).toBeGreaterThan(10);
    const ready = await f.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().writes).toMatch(/^failing since /);

    fs.rmSync(ballast);
    const started = Date.now();
    let resumed = false;
    let recovered: string | undefined;
    while (Date.now() - started < 10_000 && !resumed) {
      const lead = { code: `after-${serial++}`, properties: { small: true } };
      const response = await f.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { authorization: `Bearer ${f.key}` }, payload: lead });
      expect([201, 507]).toContain(response.statusCode);
      if (response.statusCode === 201) {
        resumed = true;
        recovered = lead.code;
      } else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(resumed, 'writes resumed after space was freed').toBe(true);
    expect((await f.app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', writes: 'ok' });
    const stored = await allCodes(f);
    for (const code of [...acknowledged, recovered as string]) expect(stored.has(code), code).toBe(true);
  });
});
