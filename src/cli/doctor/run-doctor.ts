/**
 * Runs every doctor check in order and reports each, whatever the others
 * found: configuration, database, migrations, SQLite pragmas, Redis, clock,
 * disk. The store is opened directly (not through the CLI context, which
 * migrates first), read and closed; nothing is written to it.
 */
import fs from 'node:fs';
import { loadConfig, type Config, type DatabaseConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/database.js';
import { messageOf, within, type CheckResult } from './check.js';
import { checkClock, type ClockReading } from './clock-check.js';
import { probeRedis } from './redis-check.js';
import { checkDisk, checkMigrations, checkReachable, checkSqlitePragmas, databaseTime, describeStore } from './store-checks.js';

const skipped = (name: string, detail: string): CheckResult => ({ name, status: 'skipped', detail });

/** `check`, or a failed check named `name` with the error's first line. */
async function attempt(name: string, check: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await check();
  } catch (error) {
    return { name, status: 'fail', detail: messageOf(error) };
  }
}

interface StoreReport {
  checks: CheckResult[];
  clock?: ClockReading;
}

async function checkOpenStore(database: Database, config: DatabaseConfig): Promise<StoreReport> {
  const reachable = await attempt('database', () => checkReachable(database, config));
  if (reachable.status === 'fail') {
    reachable.detail = `${describeStore(config)}: ${reachable.detail}`;
    return {
      checks: [reachable, skipped('migrations', 'database not reached'), skipped('sqlite_pragmas', 'database not reached')],
      clock: config.kind === 'postgres' ? { source: 'PostgreSQL', skewMs: undefined } : undefined,
    };
  }
  const checks = [reachable, await attempt('migrations', () => checkMigrations(database))];
  if (config.kind === 'sqlite') {
    checks.push(await attempt('sqlite_pragmas', () => checkSqlitePragmas(database)));
    return { checks };
  }
  checks.push(skipped('sqlite_pragmas', 'not SQLite'));
  let skewMs: number | undefined;
  try {
    const before = Date.now();
    const serverMs = await within(databaseTime(database));
    skewMs = serverMs - (before + Date.now()) / 2;
  } catch {
    skewMs = undefined;
  }
  return { checks, clock: { source: 'PostgreSQL', skewMs } };
}

async function checkStore(config: DatabaseConfig): Promise<StoreReport> {
  if (config.kind === 'sqlite' && config.filename !== ':memory:' && !fs.existsSync(config.filename)) {
    return {
      checks: [
        { name: 'database', status: 'fail', detail: `no database file at ${config.filename} (leadlight migrate creates it)` },
        skipped('migrations', 'database not reached'),
        skipped('sqlite_pragmas', 'database not reached'),
      ],
    };
  }
  let database: Database;
  try {
    database = openDatabase(config);
  } catch (error) {
    return {
      checks: [
        { name: 'database', status: 'fail', detail: `${describeStore(config)}: ${messageOf(error)}` },
        skipped('migrations', 'database not opened'),
        skipped('sqlite_pragmas', 'database not opened'),
      ],
    };
  }
  try {
    return await checkOpenStore(database, config);
  } finally {
    await within(database.close()).catch(() => undefined);
  }
}

async function checkAll(config: Config): Promise<CheckResult[]> {
  const store = await checkStore(config.database);
  const redis = config.redisUrl === undefined ? undefined : await probeRedis(config.redisUrl);
  const readings: ClockReading[] = [];
  if (store.clock !== undefined) readings.push(store.clock);
  if (redis !== undefined) readings.push({ source: 'Redis', skewMs: redis.skewMs });
  return [
    ...store.checks,
    redis?.check ?? skipped('redis', 'REDIS_URL is not set'),
    checkClock(Date.now(), readings),
    await diskCheck(config.database),
  ];
}

function diskCheck(config: DatabaseConfig): Promise<CheckResult> {
  if (config.kind === 'postgres') return Promise.resolve(skipped('disk', 'PostgreSQL: watch the disk on the database server'));
  if (config.filename === ':memory:') return Promise.resolve(skipped('disk', 'in-memory database'));
  return attempt('disk', () => checkDisk(config.filename));
}

const LATER_CHECKS = ['database', 'migrations', 'sqlite_pragmas', 'redis', 'clock', 'disk'];

export async function runDoctor(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    return [
      { name: 'configuration', status: 'fail', detail: messageOf(error) },
      ...LATER_CHECKS.map((name) => skipped(name, 'configuration is invalid')),
    ];
  }
  return [{ name: 'configuration', status: 'ok', detail: describeStore(config.database) }, ...(await checkAll(config))];
}
