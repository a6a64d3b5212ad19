/**
 * `leadlight doctor [--json]` as an operator runs it (issue 8, "An operator's
 * basics"): a child process that checks the installation without changing
 * it. Healthy stores pass (exit 0); an unreachable database, a database
 * with pending migrations (reported, not applied), an unreachable Redis or
 * an invalid configuration fail (exit 1) with exactly one JSON document
 * under --json, and an unreachable database never makes it hang.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClock, MAX_SKEW_MS } from '../../src/cli/doctor/clock-check.js';
import { judgeDisk } from '../../src/cli/doctor/store-checks.js';
import { migrations } from '../../src/db/migrations/index.js';
import { postgresUrl } from '../helpers/postgres.js';
import { runCliProcess, type CliRun } from '../helpers/processes.js';
import { redisUrl } from '../helpers/redis.js';
import { createEmptyDatabase, createTestDatabase, tempDir, type TestDatabase } from '../helpers/stores.js';

interface Report {
  ok: boolean;
  checks: { name: string; status: 'ok' | 'warn' | 'fail' | 'skipped'; detail: string }[];
}

const CHECK_NAMES = ['configuration', 'database', 'migrations', 'sqlite_pragmas', 'redis', 'clock', 'disk'];
const ALL_MIGRATIONS = Object.keys(migrations('sqlite'));

/** `doctor --json` in a child process: its exit, its one JSON document, and how long it took. */
async function doctor(env: Record<string, string>): Promise<{ run: CliRun; report: Report; ms: number }> {
  const started = Date.now();
  const run = await runCliProcess(['doctor', '--json'], env);
  const ms = Date.now() - started;
  let report: Report;
  try {
    report = JSON.parse(run.stdout) as Report;
  } catch {
    throw new Error(`stdout is not one JSON document: ${run.stdout}${run.stderr}`);
  }
  expect(report.checks.map((check) => check.name)).toEqual(CHECK_NAMES);
  return { run, report, ms };
}

const statusOf = (report: Report, name: string) => report.checks.find((check) => check.name === name)?.status;
const detailOf = (report: Report, name: string) => report.checks.find((check) => check.name === name)?.detail ?? '';

describe('leadlight doctor on a healthy SQLite database', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('exits 0 with ok: true and every check passed or skipped', async () => {
    const { run, report } = await doctor({ DATABASE_URL: db.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(report.ok).toBe(true);
    expect(Object.fromEntries(report.checks.map((check) => [check.name, check.status]))).toMatchObject({
      configuration: 'ok',
      database: 'ok',
      migrations: 'ok',
      sqlite_pragmas: 'ok',
      redis: 'skipped',
      clock: 'ok',
    });
    expect(['ok', 'warn']).toContain(statusOf(report, 'disk'));
    expect(detailOf(report, 'sqlite_pragmas')).toBe('journal_mode=wal synchronous=full foreign_keys=on');
    expect(detailOf(report, 'disk')).toMatch(/free of/);
  });

  it('prints a table for people', async () => {
    const run = await runCliProcess(['doctor'], { DATABASE_URL: db.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^name +status +detail\n/);
    expect(run.stdout).toMatch(new RegExp(`^migrations +ok +${Object.keys(migrations('sqlite')).length} applied, none pending$`, 'm'));
    expect(run.stdout).toMatch(/(Every check passed|No check failed)/);
  });

  it.runIf(redisUrl() !== undefined)('checks REDIS_URL and its clock when it is set', async () => {
    const { run, report } = await doctor({ DATABASE_URL: db.url, REDIS_URL: redisUrl()! });
    expect(run.code).toBe(0);
    expect(statusOf(report, 'redis')).toBe('ok');
    expect(detailOf(report, 'clock')).toMatch(/Redis [+-]\d+ ms/);
  });

  it('fails the redis check when REDIS_URL points at a closed port', async () => {
    const { run, report } = await doctor({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(statusOf(report, 'redis')).toBe('fail');
    expect(detailOf(report, 'redis')).toMatch(/ECONNREFUSED/);
    expect(statusOf(report, 'database')).toBe('ok');
  });
});

describe('leadlight doctor on a SQLite database it cannot use', () => {
  let dir: string;

  beforeAll(() => {
    dir = tempDir('leadlight-doctor-');
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports pending migrations of an empty database, and does not apply them', async () => {
    const file = path.join(dir, 'empty.db');
    fs.writeFileSync(file, '');
    const { run, report } = await doctor({ DATABASE_URL: file });
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(statusOf(report, 'database')).toBe('ok');
    expect(statusOf(report, 'migrations')).toBe('fail');
    for (const name of ALL_MIGRATIONS) expect(detailOf(report, 'migrations')).toContain(name);
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.prepare("select name from sqlite_master where type = 'table'").all()).toEqual([]);
    } finally {
      raw.close();
    }
  });

  it('fails on migrations this version does not know (a newer Leadlight migrated the file)', async () => {
    const db = await createTestDatabase('sqlite');
    try {
      await db.database.db
        .insertInto('leadlight_migrations' as never)
        .values({ name: '9999-from-the-future', timestamp: new Date().toISOString() } as never)
        .execute();
      const { run, report } = await doctor({ DATABASE_URL: db.url });
      expect(run.code).toBe(1);
      expect(statusOf(report, 'migrations')).toBe('fail');
      expect(detailOf(report, 'migrations')).toContain('9999-from-the-future');
    } finally {
      await db.destroy();
    }
  });

  it('fails without creating a database file that does not exist', async () => {
    const file = path.join(dir, 'missing', 'leadlight.db');
    const { run, report } = await doctor({ DATABASE_URL: file });
    expect(run.code).toBe(1);
    expect(statusOf(report, 'database')).toBe('fail');
    expect(statusOf(report, 'migrations')).toBe('skipped');
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('reports an invalid configuration as a failed check, in one JSON document', async () => {
    const { run, report } = await doctor({ DATABASE_URL: path.join(dir, 'x.db'), PORT: 'abc' });
    expect(run.code).toBe(1);
    expect(statusOf(report, 'configuration')).toBe('fail');
    expect(detailOf(report, 'configuration')).toContain('PORT');
    expect(report.checks.slice(1).every((check) => check.status === 'skipped')).toBe(true);
  });
});

describe('leadlight doctor and an unreachable PostgreSQL', () => {
  it('fails the database check within a few seconds when nothing listens', async () => {
    const { run, report, ms } = await doctor({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' });
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(statusOf(report, 'database')).toBe('fail');
    expect(detailOf(report, 'database')).toMatch(/ECONNREFUSED/);
    expect(statusOf(report, 'migrations')).toBe('skipped');
    expect(statusOf(report, 'disk')).toBe('skipped');
    expect(ms).toBeLessThan(10_000);
  });

  it('fails the database check, without hanging, when the server accepts and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const { run, report, ms } = await doctor({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x` });
      expect(run.code).toBe(1);
      expect(statusOf(report, 'database')).toBe('fail');
      expect(detailOf(report, 'database')).toMatch(/(did not answer|no answer) within/);
      expect(ms).toBeLessThan(12_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);
});

describe.runIf(postgresUrl() !== undefined)('leadlight doctor on PostgreSQL', () => {
  it('passes on a migrated database, comparing the clocks', async () => {
    const db = await createTestDatabase('postgres');
    try {
      const { run, report } = await doctor({ DATABASE_URL: db.url });
      expect(run.code, run.stdout).toBe(0);
      expect(report.ok).toBe(true);
      expect(statusOf(report, 'migrations')).toBe('ok');
      expect(statusOf(report, 'sqlite_pragmas')).toBe('skipped');
      expect(statusOf(report, 'disk')).toBe('skipped');
      expect(statusOf(report, 'clock')).toBe('ok');
      expect(detailOf(report, 'clock')).toMatch(/PostgreSQL [+-]\d+ ms/);
    } finally {
      await db.destroy();
    }
  });

  it('reports the pending migrations of an empty database, and does not apply them', async () => {
    const empty = await createEmptyDatabase('postgres');
    try {
      const { run, report } = await doctor({ DATABASE_URL: empty.url });
      expect(run.code).toBe(1);
      expect(statusOf(report, 'database')).toBe('ok');
      expect(statusOf(report, 'migrations')).toBe('fail');
      for (const name of ALL_MIGRATIONS) expect(detailOf(report, 'migrations')).toContain(name);
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      try {
        const tables = await client.query(
          "select table_name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
        );
        expect(tables.rows).toEqual([]);
      } finally {
        await client.end();
      }
    } finally {
      await empty.drop();
    }
  });
});

describe('the verdicts of the clock and disk checks', () => {
  const now = Date.UTC(2026, 5, 1);

  it(`fails a clock more than ${MAX_SKEW_MS / 1000} s off the database or Redis, or before 2026`, () => {
    expect(checkClock(now, [{ source: 'PostgreSQL', skewMs: 4_900 }, { source: 'Redis', skewMs: -4_900 }]).status).toBe('ok');
    expect(checkClock(now, [{ source: 'PostgreSQL', skewMs: 5_100 }]).status).toBe('fail');
    expect(checkClock(now, [{ source: 'Redis', skewMs: -5_100 }]).status).toBe('fail');
    expect(checkClock(now, [{ source: 'Redis', skewMs: undefined }]).status).toBe('ok');
    expect(checkClock(Date.UTC(2025, 11, 31), []).status).toBe('fail');
  });

  it('warns under 1 GiB or 5 % free and fails under 100 MiB', () => {
    const MiB = 1024 * 1024;
    expect(judgeDisk(99 * MiB, 1000 * MiB, '/').status).toBe('fail');
    expect(judgeDisk(500 * MiB, 1000 * MiB, '/').status).toBe('warn');
    expect(judgeDisk(4 * 1024 * MiB, 100 * 1024 * MiB, '/').status).toBe('warn');
    expect(judgeDisk(20 * 1024 * MiB, 100 * 1024 * MiB, '/').status).toBe('ok');
  });
});
