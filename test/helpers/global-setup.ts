/**
 * Once per test run: build the tracker script (the app serves
 * dist/tracker/t.js, and tests run from the sources, not from a build), the
 * typed client when its sources changed (its tests import the built
 * package, as a user does), and the CLI bundle that test processes start
 * from while no source changed (cli-entry.ts); with
 * TEST_POSTGRES_URL set, create and migrate the template database that every
 * PostgreSQL test file clones, and drop it at the end. An unreachable
 * PostgreSQL fails the run; it is never skipped.
 */
import type { TestProject } from 'vitest/node';
import fs from 'node:fs';
import { buildCliBundle } from '../../scripts/cli-bundle.js';
import { buildClient } from '../../scripts/client-build.js';
import { buildTracker } from '../../scripts/tracker-build.js';
import { openDatabase } from '../../src/db/database.js';
import { TEST_BUNDLE_DIRECTORY, TEST_BUNDLE_MANIFEST, type BundleManifest } from './cli-entry.js';
import { databaseUrl, postgresUrl, uniqueName, withAdmin } from './postgres.js';

/** The test processes' CLI bundle, and the manifest that lets them use it (written last). */
async function buildTestBundle(): Promise<void> {
  // the time before the build: a source saved while it runs is newer, and its spawns take the sources
  const builtAt = Date.now();
  const metafile = await buildCliBundle(TEST_BUNDLE_DIRECTORY);
  const manifest: BundleManifest = { builtAt, inputs: Object.keys(metafile.inputs) };
  fs.writeFileSync(TEST_BUNDLE_MANIFEST, JSON.stringify(manifest));
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  await buildTracker();
  buildClient();
  await buildTestBundle();
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
