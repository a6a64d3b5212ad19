/**
 * PostgreSQL for tests: each run gets a template database migrated once, and
 * each test file a fresh database cloned from it, dropped when the file ends,
 * so runs and files never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string;
  }
}

export function postgresUrl(): string | undefined {
  const url = process.env.TEST_POSTGRES_URL;
  return url === undefined || url.trim() === '' ? undefined : url.trim();
}

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** A database cloned from the run's migrated template; `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = postgresUrl();
  const template = inject('postgresTemplate');
  if (base === undefined || template === undefined) throw new Error('TEST_POSTGRES_URL is not set');
  const name = uniqueName('leadlight_test');
  await withAdmin(base, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return {
    url: databaseUrl(base, name),
    drop: () => withAdmin(base, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
