/**
 * Doctor's checks of the store, made without changing it: it answers;
 * its applied migrations against those this version ships (pending ones are
 * reported, never applied); on SQLite, the pragmas durability rests on
 * (CONTRACT C2.4) and the free space of the file's filesystem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../../config.js';
import { MIGRATION_TABLE, type Database } from '../../db/database.js';
import { migrations } from '../../db/migrations/index.js';
import { within, type CheckResult } from './check.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
export const DISK_FAIL_BYTES = 100 * MiB;
export const DISK_WARN_BYTES = GiB;
export const DISK_WARN_SHARE = 0.05;

/** Where the store is, without credentials. */
export function describeStore(config: DatabaseConfig): string {
  if (config.kind === 'sqlite') return `SQLite ${config.filename}`;
  const url = new URL(config.url);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

export async function checkReachable(database: Database, config: DatabaseConfig): Promise<CheckResult> {
  const started = performance.now();
  await within(database.ping());
  return { name: 'database', status: 'ok', detail: `${describeStore(config)} answers (${Math.round(performance.now() - started)} ms)` };
}

async function appliedMigrations(database: Database): Promise<string[]> {
  const { db } = database;
  const table =
    database.kind === 'sqlite'
      ? await sql`select name from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(db)
      : await sql`select table_name from information_schema.tables
                  where table_schema = current_schema() and table_name = ${MIGRATION_TABLE}`.execute(db);
  if (table.rows.length === 0) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(db);
  return rows.rows.map((row) => row.name);
}

export async function checkMigrations(database: Database): Promise<CheckResult> {
  const known = Object.keys(migrations(database.kind));
  const applied = await within(appliedMigrations(database));
  const unknown = applied.filter((name) => !known.includes(name));
  const pending = known.filter((name) => !applied.includes(name));
  if (unknown.length > 0) {
    return {
      name: 'migrations',
      status: 'fail',
      detail: `applied migrations this version does not know (a newer Leadlight migrated it): ${unknown.join(', ')}`,
    };
  }
  if (pending.length > 0) {
    return { name: 'migrations', status: 'fail', detail: `pending: ${pending.join(', ')} (run leadlight migrate)` };
  }
  return { name: 'migrations', status: 'ok', detail: `${applied.length} applied, none pending` };
}

const SYNCHRONOUS = ['off', 'normal', 'full', 'extra'];

export async function checkSqlitePragmas(database: Database): Promise<CheckResult> {
  const read = async (pragma: 'journal_mode' | 'synchronous' | 'foreign_keys') => {
    const { rows } = await sql<Record<string, string | number>>`pragma ${sql.raw(pragma)}`.execute(database.db);
    return rows[0]?.[pragma];
  };
  const [journal, synchronous, foreignKeys] = await within(
    Promise.all([read('journal_mode'), read('synchronous'), read('foreign_keys')]),
  );
  const found = {
    journal_mode: String(journal ?? 'unknown').toLowerCase(),
    synchronous: SYNCHRONOUS[Number(synchronous)] ?? String(synchronous),
    foreign_keys: Number(foreignKeys) === 1 ? 'on' : 'off',
  };
  const wanted = { journal_mode: 'wal', synchronous: 'full', foreign_keys: 'on' };
  const wrong = Object.entries(wanted).filter(([name, value]) => found[name as keyof typeof found] !== value);
  const detail = Object.entries(found)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  if (wrong.length > 0) {
    return {
      name: 'sqlite_pragmas',
      status: 'fail',
      detail: `${detail}; wanted ${wrong.map(([name, value]) => `${name}=${value}`).join(' ')}`,
    };
  }
  return { name: 'sqlite_pragmas', status: 'ok', detail };
}

/** The database server's clock in Unix milliseconds (PostgreSQL). */
export async function databaseTime(database: Database): Promise<number> {
  const { rows } = await sql<{ ms: string | number }>`select extract(epoch from clock_timestamp()) * 1000 as ms`.execute(
    database.db,
  );
  return Number(rows[0]?.ms);
}

function nearestDirectory(file: string): string {
  let directory = path.dirname(file);
  while (!fs.existsSync(directory) && path.dirname(directory) !== directory) directory = path.dirname(directory);
  return directory;
}

function size(bytes: number): string {
  return bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${Math.round(bytes / MiB)} MiB`;
}

/** The disk check's verdict on `free` of `total` bytes. */
export function judgeDisk(free: number, total: number, where: string): CheckResult {
  const share = total === 0 ? 0 : free / total;
  const detail = `${size(free)} free of ${size(total)} (${Math.round(share * 100)} %) at ${where}`;
  if (free < DISK_FAIL_BYTES) return { name: 'disk', status: 'fail', detail: `${detail}; under ${size(DISK_FAIL_BYTES)}` };
  if (free < DISK_WARN_BYTES || share < DISK_WARN_SHARE) {
    return { name: 'disk', status: 'warn', detail: `${detail}; under ${size(DISK_WARN_BYTES)} or 5 %` };
  }
  return { name: 'disk', status: 'ok', detail };
}

export async function checkDisk(filename: string): Promise<CheckResult> {
  const directory = nearestDirectory(filename);
  const stats = await within(fs.promises.statfs(directory));
  return judgeDisk(stats.bavail * stats.bsize, stats.blocks * stats.bsize, directory);
}
