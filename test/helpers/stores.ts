/**
 * The stores every API test runs against: a real SQLite file always, and a
 * real PostgreSQL database when TEST_POSTGRES_URL is set (it is in CI).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoreKind } from '../../src/db/codec.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createPostgresDatabase, databaseUrl, postgresUrl, uniqueName, withAdmin } from './postgres.js';

export function storeKinds(): StoreKind[] {
  return postgresUrl() === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
}

export interface TestDatabase {
  database: Database;
  /** the DATABASE_URL of this database, for CLI runs and child processes */
  url: string;
  /** closes the database and removes it */
  destroy(): Promise<void>;
}

export function tempDir(prefix = 'leadlight-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function createTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = tempDir();
    const url = path.join(dir, 'leadlight.db');
    const database = openDatabase({ kind: 'sqlite', filename: url });
    await database.migrate();
    return {
      database,
      url,
      async destroy() {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { url, drop } = await createPostgresDatabase();
  const database = openDatabase({ kind: 'postgres', url, poolSize: 5 });
  await database.migrate();
  return {
    database,
    url,
    async destroy() {
      await database.close();
      await drop();
    },
  };
}

/** A database that exists but holds nothing, not even the schema. */
export async function createEmptyDatabase(kind: StoreKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = tempDir();
    return { url: path.join(dir, 'fresh.db'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const base = postgresUrl();
  if (base === undefined) throw new Error('TEST_POSTGRES_URL is not set');
  const name = uniqueName('leadlight_empty');
  await withAdmin(base, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: databaseUrl(base, name),
    drop: async () => {
      await withAdmin(base, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
