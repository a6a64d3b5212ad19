/**
 * Once per test run: build the tracker script (the app serves
 * dist/tracker/t.js, and tests run from the sources, not from a build) and
 * the typed client when its sources changed (its tests import the built
 * package, as a user does); with
 * TEST_POSTGRES_URL set, create and migrate the template database that every
 * PostgreSQL test file clones, and drop it at the end. An unreachable
 * PostgreSQL fails the run; it is never skipped.
 */
import type { TestProject } from 'vitest/node';
import { buildClient } from '../../scripts/client-build.js';
import { buildTracker } from '../../scripts/tracker-build.js';
import { openDatabase } from '../../src/db/database.js';
import { databaseUrl, postgresUrl, uniqueName, withAdmin } from './postgres.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  await buildTracker();
  buildClient();
  const base = postgresUrl();
  if (base === undefined) return undefined;
  const template = uniqueName('leadlight_template');
  await withAdmin(base, (client) => client.query(`CREATE DATABASE "${template}"`));
  const database = openDatabase({ kind: 'postgres', url: databaseUrl(base, template), poolSize: 2 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  project.provide('postgresTemplate', template);
  return async () => {
    await withAdmin(base, (client) => client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
  };
}
