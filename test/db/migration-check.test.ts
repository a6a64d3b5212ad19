/**
 * The check at start (issue 14): migrate() on a store already at the latest
 * schema answers from one query on the migration table; a store that records
 * anything else (fewer migrations, or one this release does not know) still
 * goes through the migrator, which applies what is pending or refuses.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_TABLE, openDatabase, type Database } from '../../src/db/database.js';
import { MIGRATION_NAMES } from '../../src/db/migrations/index.js';
import { createEmptyDatabase, storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('the migration check on %s', (kind) => {
  let empty: { url: string; drop: () => Promise<void> };
  let database: Database;

  beforeAll(async () => {
    empty = await createEmptyDatabase(kind);
    database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await empty?.drop();
  });

  it('applies every migration to an empty store, then nothing', async () => {
    expect(await database.migrate()).toEqual(MIGRATION_NAMES);
    expect(await database.migrate()).toEqual([]);
  });

  it('a store recording a migration this release does not know is refused, not taken as current', async () => {
    const last = MIGRATION_NAMES.at(-1)!;
    const recorded = await sql<{ timestamp: unknown }>`select timestamp from ${sql.table(MIGRATION_TABLE)} where name = ${last}`.execute(database.db);
    await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp) values ('9999-a-later-release', ${recorded.rows[0]!.timestamp})`.execute(database.db);
    await expect(database.migrate()).rejects.toThrow(/9999-a-later-release/);
    await sql`delete from ${sql.table(MIGRATION_TABLE)} where name = '9999-a-later-release'`.execute(database.db);
    expect(await database.migrate()).toEqual([]);
  });
});
