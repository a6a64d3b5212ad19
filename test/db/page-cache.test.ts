/**
 * The page cache of the SQLite connection (issue 24): the configuration's
 * SQLITE_CACHE_MIB reaches the connection the store opens, 256 MiB unless
 * set; an explicit size given when opening (the import's) wins.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { tempDir } from '../helpers/stores.js';

describe('SQLite page cache (issue 24)', () => {
  const dir = tempDir();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function cacheKiB(env: Record<string, string>, cacheMiB?: number): Promise<number> {
    const config = loadConfig({ DATABASE_URL: path.join(dir, 'cache.db'), ...env });
    const database = openDatabase(config.database, { cacheMiB });
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db);
      // negative: KiB
      return -(rows[0]?.cache_size ?? 0);
    } finally {
      await database.close();
    }
  }

  it('issue 24: 256 MiB by default, SQLITE_CACHE_MIB when set, the opener\'s size before both', async () => {
    expect(await cacheKiB({})).toBe(256 * 1024);
    expect(await cacheKiB({ SQLITE_CACHE_MIB: '100' })).toBe(100 * 1024);
    expect(await cacheKiB({ SQLITE_CACHE_MIB: '100' }, 512)).toBe(512 * 1024);
  });
});
