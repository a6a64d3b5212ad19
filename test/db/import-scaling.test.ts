/**
 * An import with explicit ids costs the same per row for the millionth row as
 * for the first (issue: quadratic imports into PostgreSQL). The cost that grew
 * was the check that given ids are not taken: a statement planned once, while
 * the table looked empty, scanned the growing workspace for every batch. The
 * proof here is the work itself rather than a stopwatch: on PostgreSQL, the
 * rows the import reads from the table (pg_stat_user_tables) per row it
 * writes, for N and 4N rows; on SQLite, the plan of the check, which must ride
 * the primary key. Taken ids are still reported by line number (C2.3).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../../src/repositories/scope/tenant-scope.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { runCliProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, tempDir, type TestDatabase } from '../helpers/stores.js';

const SMALL = 5_000;
const LARGE = 4 * SMALL;

type Resource = 'leads' | 'identities';

function lines(resource: Resource, count: number): string {
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const row =
      resource === 'leads'
        ? { id: randomUUID(), code: `LD-${index}`, source: 'import', properties: { index } }
        : { id: randomUUID(), email: `person${index}@example.com`, name: `Person ${index}` };
    out.push(JSON.stringify(row));
  }
  return `${out.join('\n')}\n`;
}

describe.each(storeKinds())('imports with explicit ids on %s', (kind) => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    dir = tempDir('leadlight-import-scaling-');
  });
  afterAll(async () => {
    await db?.destroy();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const services = () => createServices(new Store(db.database));

  async function importFile(workspace: string, resource: Resource, text: string) {
    const file = path.join(dir, `${randomUUID()}.ndjson`);
    fs.writeFileSync(file, text);
    return runCliProcess(['import', resource, file, '--workspace', workspace, '--json'], { DATABASE_URL: db.url });
  }

  /** A workspace that already holds one row of `resource`, so the import must look given ids up. */
  async function workspaceHolding(resource: Resource): Promise<WorkspaceId> {
    const workspace = await services().workspaces.create(`Scaling ${resource}`);
    const result = await importFile(workspace.id, resource, lines(resource, 1));
    expect(result.code, result.stderr).toBe(0);
    return workspace.id;
  }

  it('C2.3: taken ids, in the workspace or earlier in the file (another batch), are reported by line, and nothing is written', async () => {
    for (const resource of ['leads', 'identities'] as const) {
      const workspace = await workspaceHolding(resource);
      const existing = (await services().forWorkspace(workspace)[resource].list({}, { limit: 1, offset: 0 })).items[0]!.id;
      const text = lines(resource, 1200).split('\n');
      const repeated = JSON.parse(text[9]!) as { id: string };
      text[799] = JSON.stringify({ ...JSON.parse(text[799]!), id: repeated.id });
      text[1099] = JSON.stringify({ ...JSON.parse(text[1099]!), id: existing });
      const result = await importFile(workspace, resource, text.join('\n'));
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { details: { invalid_lines: number; lines: { line: number; message: string }[] } };
      expect(report.details.invalid_lines).toBe(2);
      expect(report.details.lines).toEqual([
        { line: 800, message: `id ${repeated.id} repeats line 10` },
        { line: 1100, message: `id ${existing} is already taken` },
      ]);
      const listed = await services().forWorkspace(workspace)[resource].list({}, { limit: 1, offset: 0 });
      expect(listed.total, resource).toBe(1);
    }
  });

  if (kind === 'postgres') {
    /** Rows read from `table` and rows written to it, as PostgreSQL's statistics count them. */
    async function tableStats(table: string): Promise<{ read: number; inserted: number }> {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ read: string; inserted: string }>(
          `select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read, n_tup_ins as inserted
           from pg_stat_user_tables where relname = $1`,
          [table],
        );
        return { read: Number(rows[0]?.read ?? 0), inserted: Number(rows[0]?.inserted ?? 0) };
      } finally {
        await client.end();
      }
    }

    /** Rows the import of `count` rows read from its table: statistics arrive when the CLI's session ends. */
    async function rowsReadByImport(resource: Resource, count: number): Promise<number> {
      const workspace = await workspaceHolding(resource);
      const before = await tableStats(resource);
      const result = await importFile(workspace, resource, lines(resource, count));
      expect(result.code, result.stderr).toBe(0);
      let after = await tableStats(resource);
      for (let tries = 0; after.inserted < before.inserted + count && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await tableStats(resource);
      }
      expect(after.inserted - before.inserted, 'the statistics saw the import').toBe(count);
      return after.read - before.read;
    }

    for (const resource of ['leads', 'identities'] as const) {
      it(`${resource}: importing ${LARGE} rows reads no more of the table per row than importing ${SMALL}`, async () => {
        const small = (await rowsReadByImport(resource, SMALL)) / SMALL;
        const large = (await rowsReadByImport(resource, LARGE)) / LARGE;
        // a check that scans the workspace reads about one row per row already
        // written, for every batch: rows read per row grow with the import
        expect(small, 'rows read per row imported').toBeLessThan(0.01);
        expect(large, 'rows read per row imported').toBeLessThanOrEqual(small * 2 + 0.01);
      }, 120_000);
    }
  } else {
    it('the check that an id is taken rides the primary key, however large the workspace', async () => {
      const workspace = await workspaceHolding('leads');
      const scope = new TenantScope(db.database.db, workspace, db.database.codec);
      const ids = Array.from({ length: 500 }, () => randomUUID());
      const query = scope.selectFrom('leads').select('id').where('id', 'in', ids).compile();
      const connection = new BetterSqlite3(db.url, { readonly: true });
      try {
        const plan = connection.prepare(`explain query plan ${query.sql}`).all(...query.parameters) as { detail: string }[];
        expect(plan.map((step) => step.detail).join(' | ')).toMatch(/^SEARCH leads USING (COVERING )?INDEX sqlite_autoindex_leads_1 \(workspace_id=\? AND id=\?\)$/);
      } finally {
        connection.close();
      }
    });
  }
});
