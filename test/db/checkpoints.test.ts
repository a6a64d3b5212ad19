/**
 * The server's SQLite store checkpoints its write-ahead log from a worker
 * thread (sqlite-checkpointer.ts), not in the connection that commits: the
 * committing connection never checkpoints, and the log is still copied into
 * the database file within moments.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import { startCheckpointer } from '../../src/db/sqlite-checkpointer.js';
import { createServices } from '../../src/services/index.js';
import { tempDir } from '../helpers/stores.js';

describe('background WAL checkpoints (SQLite)', () => {
  let dir: string;
  let file: string;
  let database: Database;

  beforeAll(async () => {
    dir = tempDir();
    file = path.join(dir, 'checkpoints.db');
    database = openDatabase({ kind: 'sqlite', filename: file }, { backgroundCheckpoints: true });
    await database.migrate();
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('C2.4: commits do not checkpoint, the worker thread does, and every write stays readable', async () => {
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(autocheckpoint.rows[0]?.wal_autocheckpoint).toBe(0);

    const services = createServices(new Store(database));
    const workspace = await services.workspaces.create('Checkpoints');
    const before = fs.statSync(file).size;
    await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        services.forWorkspace(workspace.id).leads.create({ code: `c-${index}`, properties: { padding: 'x'.repeat(500) } }),
      ),
    );
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(100_000);

    const deadline = Date.now() + 10_000;
    while (fs.statSync(file).size <= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.statSync(file).size).toBeGreaterThan(before + 100_000);
    const listed = await services.forWorkspace(workspace.id).leads.list({}, { limit: 1, offset: 0 });
    expect(listed.total).toBe(300);
  });

  it('closing waits for the worker, and a worker that cannot open its file stops quietly', async () => {
    const shortLived = tempDir();
    const store = openDatabase({ kind: 'sqlite', filename: path.join(shortLived, 'brief.db') }, { backgroundCheckpoints: true });
    await store.close();
    fs.rmSync(shortLived, { recursive: true, force: true });

    const errors: unknown[] = [];
    const record = (error: unknown) => errors.push(error);
    process.on('uncaughtException', record);
    try {
      const orphan = startCheckpointer(path.join(shortLived, 'gone', 'missing.db'));
      await orphan.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(errors).toEqual([]);
    expect(fs.existsSync(shortLived)).toBe(false);
  });
});
