/**
 * A store of its own for a benchmark module (lib/modules.ts): an empty
 * SQLite file or PostgreSQL database, migrated, in the shape the test
 * helpers take (their own maker reads Vitest's template database, which
 * only exists under Vitest).
 */
import { openDatabase } from '../../src/db/database.js';
import { createEmptyDatabase, type TestDatabase } from '../../test/helpers/stores.js';
import type { StoreKind } from './data.js';

export async function moduleStore(kind: StoreKind): Promise<TestDatabase> {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  await database.migrate();
  return {
    database,
    url: empty.url,
    async destroy() {
      await database.close();
      await empty.drop();
    },
  };
}
