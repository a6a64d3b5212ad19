/**
 * A full disk under the embedded store (issues 9 and 19). Writes that cannot
 * reach the disk answer 507 insufficient_storage with Retry-After in the
 * error shape (never a 500), the log carries the original SQLITE_FULL (not
 * "cannot rollback - no transaction is active"), /readyz says that writes
 * fail, writes resume once space is available, and every acknowledged write
 * is there afterwards.
 *
 * Two ways to fill the disk: SQLite's own limit on the database's pages
 * (`pragma max_page_count`, a real SQLITE_FULL from SQLite, on any machine),
 * and, where this machine lets the test mount one, a small tmpfs filled by
 * the service's own writes (with the server's background checkpoints), then
 * freed by deleting a ballast file or grown by remounting it (the audit's
 * 20 MB grown by 4 MB). /readyz says "ok" only when writes work: never
 * while a small write still fits and larger ones fail; and once it does,
 * the next writes are 201. A checkpoint that could not finish no longer
 * takes the space freed for writes.
 */
import { execFileSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
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

describe('readiness on a store where only small writes fit (issue 19)', () => {
  it('issue 19: a small write that still fits does not make /readyz say "ok" while larger writes answer 507; room for writes does', async () => {
    const dir = tempDir();
    const f = await open(path.join(dir, 'almost-full.db'), false);
    try {
      // a small lead: its change (and the event the changes feed keeps of it, C11.1) fits in a few pages
      const created = await f.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { authorization: `Bearer ${f.key}` }, payload: { code: 'small' } });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id as string;
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(f.database.db)).rows[0]!.page_count;
      // a few pages left: a lead of 24 KiB does not fit, a change to an existing lead does
      await sql.raw(`pragma max_page_count = ${pages + 5}`).execute(f.database.db);
      expect(await post(f, bigLead())).toBe(507);
      expect((await f.app.inject({ url: '/readyz' })).statusCode).toBe(503);

      const small = await f.app.inject({
        method: 'PATCH',
        url: `/api/v1/leads/${id}`,
        headers: { authorization: `Bearer ${f.key}` },
        payload: { location: { city: 'Lyon' } },
      });
      expect(small.statusCode).toBe(200);
      const ready = await f.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().writes).toMatch(/^failing since .*SQLITE_FULL/);
      expect(await post(f, bigLead())).toBe(507);

      // room for writes (1 MiB and more): the next commit, or the probe, says so
      await sql.raw(`pragma max_page_count = ${pages + 1000}`).execute(f.database.db);
      expect((await f.app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', writes: 'ok' });
      expect(await post(f, bigLead())).toBe(201);
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
    fs.writeFileSync(ballast, Buffer.alloc(2 * 1024 * 1024));
  });
  afterAll(async () => {
    await f?.app.close();
    await f?.database.close();
    if (mountPoint !== undefined) {
      execFileSync('umount', [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('issue 9: a full volume answers 507, writes resume once 2 MiB are freed, nothing acknowledged is lost', async () => {
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

function remount(dir: string, size: string): void {
  execFileSync('mount', ['-o', `remount,size=${size}`, dir]);
}

async function post(f: Fixture, lead: { code: string; properties: Record<string, unknown> }): Promise<number> {
  const response = await f.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { authorization: `Bearer ${f.key}` }, payload: lead });
  expect([201, 507]).toContain(response.statusCode);
  return response.statusCode;
}

describe.runIf(canMount())('a 20 MB tmpfs filled, then grown by 4 MB (issue 19, audit failure 3)', () => {
  let f: Fixture | undefined;
  let mountPoint: string;
  let file: string;

  beforeAll(() => {
    mountPoint = tempDir('leadlight-tmpfs-');
    expect(mountTmpfs(mountPoint, '20m')).toBe(true);
    file = path.join(mountPoint, 'leadlight.db');
  });
  afterAll(async () => {
    await f?.app.close();
    await f?.database.close();
    if (mountPoint !== undefined) {
      execFileSync('umount', [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('issue 19: fill, writes 507, readiness 503 (also after a small write fits); grow by 4 MB: readiness 200 only once writes work, and the next writes are 201', async () => {
    f = await open(file, true);
    const acknowledged: string[] = [];
    expectRefusal(await writeUntilRefused(f, acknowledged), f);
    expect(acknowledged.length).toBeGreaterThan(10);

    // full: a small write (a change to a lead, as the server's own upkeep makes) may still fit in the
    // log's last pages; readiness does not take it for writes working
    const { data: some } = (await f.app.inject({ url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${f.key}` } })).json();
    for (let round = 0; round < 10; round += 1) {
      const small = await f.app.inject({
        method: 'PATCH',
        url: `/api/v1/leads/${some[0].id}`,
        headers: { authorization: `Bearer ${f.key}` },
        payload: { location: { round } },
      });
      expect([200, 507]).toContain(small.statusCode);
      expect(await post(f, bigLead())).toBe(507);
      const ready = await f.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().writes).toMatch(/^failing since .*SQLITE_FULL/);
    }

    remount(mountPoint, '24m');
    const deadline = Date.now() + 20_000;
    let ready = await f.app.inject({ url: '/readyz' });
    while (ready.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await f.app.inject({ url: '/readyz' });
    }
    expect(ready.json()).toMatchObject({ status: 'ready', writes: 'ok' });
    for (let index = 0; index < 10; index += 1) {
      const lead = bigLead();
      expect(await post(f, lead)).toBe(201);
      acknowledged.push(lead.code);
    }
    expect((await f.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    const stored = await allCodes(f);
    for (const code of acknowledged) expect(stored.has(code), code).toBe(true);
  });

  it('issue 19: a log whose copy needs more than the space freed keeps it for writes, /readyz says how much more the copy needs, and the copy runs (and the log is truncated) once there is room', async () => {
    await f?.app.close();
    await f?.database.close();
    f = undefined;
    for (const name of fs.readdirSync(mountPoint)) fs.rmSync(path.join(mountPoint, name));
    remount(mountPoint, '20m');
    f = await open(file, true);
    const acknowledged: string[] = [];
    // a long read pins the log: what is written meanwhile stays in it, as pages the database file does not have yet
    const reader = new BetterSqlite3(file);
    reader.exec('begin');
    reader.prepare('select count(*) from leads').get();
    expectRefusal(await writeUntilRefused(f, acknowledged), f);
    reader.exec('commit');
    reader.close();
    const full = await f.app.inject({ url: '/readyz' });
    expect(full.statusCode).toBe(503);
    expect(full.json().writes).toMatch(/the write-ahead log needs \d+\.\d MiB more free space to be copied into the database$/);

    // 4 MB more: less than the copy needs, enough for writes
    remount(mountPoint, '24m');
    const deadline = Date.now() + 20_000;
    let ready = await f.app.inject({ url: '/readyz' });
    while (ready.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await f.app.inject({ url: '/readyz' });
    }
    expect(ready.statusCode).toBe(200);
    for (let index = 0; index < 10; index += 1) {
      const lead = bigLead();
      expect(await post(f, lead)).toBe(201);
      acknowledged.push(lead.code);
    }

    // room for the copy: it runs, and the log gives its space back
    remount(mountPoint, '64m');
    const copied = Date.now() + 20_000;
    while (fs.statSync(`${file}-wal`).size > 0 && Date.now() < copied) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
    const lead = bigLead();
    expect(await post(f, lead)).toBe(201);
    acknowledged.push(lead.code);
    const stored = await allCodes(f);
    for (const code of acknowledged) expect(stored.has(code), code).toBe(true);
  });
});
