/**
 * The SQL snapshots (src/queries/*.sql) are what the repositories run today,
 * and no statement on a workspace's table forgets its workspace: the audit
 * that checks it is shown to catch each way a statement can forget, at
 * snapshot time and at run time (the tenant scope refuses to run it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../src/db/schema.js';
import { OperatorRepository } from '../../src/repositories/operator/operator-repository.js';
import { auditStatement } from '../../src/repositories/scope/statement-audit.js';
import { TenantBoundaryError, TenantScope } from '../../src/repositories/scope/tenant-scope.js';
import { REPOSITORY_EXAMPLES, WORKSPACE } from '../../scripts/sql/examples.js';
import { generate, QUERIES_DIRECTORY } from '../../scripts/sql/generate.js';
import { recordingDatabase } from '../../scripts/sql/recording-dialect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

describe('SQL snapshots', () => {
  it('src/queries holds exactly what the repositories run on both stores (npm run sql:sync rewrites it)', async () => {
    const { files, statements } = await generate();
    expect(statements).toBeGreaterThan(100);
    const onDisk = fs.readdirSync(QUERIES_DIRECTORY).filter((name) => name.endsWith('.sql')).sort();
    expect(onDisk).toEqual([...files.keys()].sort());
    for (const [name, text] of files) {
      expect(fs.readFileSync(path.join(QUERIES_DIRECTORY, name), 'utf8'), `${name} is stale: run npm run sql:sync`).toBe(text);
    }
  });

  it('every repository of the tree has its calls in scripts/sql/examples.ts', () => {
    const files = ['tenant', 'operator'].flatMap((folder) =>
      fs
        .readdirSync(path.join('src/repositories', folder))
        .filter((name) => name.endsWith('.repository.ts'))
        .map((name) => name.replace(/\.ts$/, '')),
    );
    expect(REPOSITORY_EXAMPLES.map((repository) => repository.name).sort()).toEqual(files.sort());
  });

  it('every statement on a workspace\'s table filters on workspace_id, but for the allow-listed key lookups', async () => {
    const { violations } = await generate();
    expect(violations).toEqual([]);
  });

  it('the snapshot pass reports a repository statement without the predicate', async () => {
    class LeakyRepository extends OperatorRepository {
      everyLead() {
        return this.db.selectFrom('leads').select('id').execute();
      }
    }
    const { violations, files } = await generate([
      ...REPOSITORY_EXAMPLES,
      { name: 'leaky', className: 'LeakyRepository', make: (db, codec) => new LeakyRepository(db, codec), examples: { everyLead: [{ label: '', args: [] }] } },
    ]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^LeakyRepository\.everyLead: leads without workspace_id/);
    expect(files.get('leaky.sqlite.sql')).toContain('from\n  "leads"');
  });
});

describe('the statement audit', () => {
  const db: Kysely<Schema> = recordingDatabase('sqlite', []);
  const audit = (query: { toOperationNode(): Parameters<typeof auditStatement>[0] }) => auditStatement(query.toOperationNode());

  it('accepts the predicate written by a scope, qualified or not, and joins to shared tables', () => {
    expect(audit(db.selectFrom('leads').select('id').where('leads.workspace_id', '=', WORKSPACE))).toEqual([]);
    expect(audit(db.selectFrom('leads').select('id').where('workspace_id', '=', WORKSPACE).where('id', '=', 'x'))).toEqual([]);
    expect(
      audit(
        db
          .selectFrom('workspace_members')
          .innerJoin('users', 'users.id', 'workspace_members.user_id')
          .select('users.id')
          .where('workspace_members.workspace_id', '=', WORKSPACE),
      ),
    ).toEqual([]);
    expect(audit(db.updateTable('leads').set({ code: 'x' }).where('workspace_id', '=', WORKSPACE))).toEqual([]);
    expect(audit(db.insertInto('lead_counts').values({ workspace_id: WORKSPACE, bucket: '*', day: 'd', count: 1 }))).toEqual([]);
  });

  it('refuses reads, updates and deletes without it', () => {
    expect(audit(db.selectFrom('identity_activity').select('id').where('identity_id', '=', 'x'))).toEqual([
      'identity_activity without workspace_id = <workspace>',
    ]);
    expect(audit(db.updateTable('leads').set({ code: 'x' }).where('id', '=', 'x'))).toHaveLength(1);
    expect(audit(db.deleteFrom('identities').where('id', '=', 'x'))).toHaveLength(1);
  });

  it('refuses a predicate that does not have to hold (OR), or that compares with something else', () => {
    expect(
      audit(db.selectFrom('leads').select('id').where((eb) => eb.or([eb('workspace_id', '=', WORKSPACE), eb('id', '=', 'x')]))),
    ).toHaveLength(1);
    expect(audit(db.selectFrom('leads').select('id').where('workspace_id', '!=', WORKSPACE))).toHaveLength(1);
  });

  it('refuses a subquery without it, and a joined tenant table that is not tied to the workspace', () => {
    const subquery = db
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', WORKSPACE)
      .where('identity_id', 'in', (eb) => eb.selectFrom('identities').select('id'));
    expect(audit(subquery)).toEqual(['identities without workspace_id = <workspace>']);
    const join = db
      .selectFrom('leads')
      .innerJoin('identities', 'identities.id', 'leads.identity_id')
      .select('leads.id')
      .where('leads.workspace_id', '=', WORKSPACE);
    expect(audit(join)).toEqual(['identities without workspace_id = <workspace>']);
    const tied = db
      .selectFrom('leads')
      .innerJoin('identities', (on) =>
        on.onRef('identities.id', '=', 'leads.identity_id').onRef('identities.workspace_id', '=', 'leads.workspace_id'),
      )
      .select('leads.id')
      .where('leads.workspace_id', '=', WORKSPACE);
    expect(audit(tied)).toEqual([]);
  });

  it('refuses tenant tables joined on workspace_id when none of them is compared to a value', () => {
    // tied to each other, but to no workspace: every workspace's rows match
    const untied = db
      .selectFrom('leads')
      .innerJoin('identities', (on) =>
        on.onRef('identities.id', '=', 'leads.identity_id').onRef('identities.workspace_id', '=', 'leads.workspace_id'),
      )
      .select('leads.id')
      .where('leads.code', '=', 'x');
    expect(audit(untied).sort()).toEqual(['identities without workspace_id = <workspace>', 'leads without workspace_id = <workspace>']);
    // the same table twice, tied by workspace only
    const selfJoin = db
      .selectFrom('leads as a')
      .innerJoin('leads as b', 'b.workspace_id', 'a.workspace_id')
      .select('a.id');
    expect(audit(selfJoin)).toEqual(['leads without workspace_id = <workspace>', 'leads without workspace_id = <workspace>']);
    // compared to a column of a table that is no tenant's is no value either
    for (const toColumn of [
      db.selectFrom('leads').innerJoin('workspaces', 'workspaces.id', 'leads.workspace_id').select('leads.id'),
      db.selectFrom('leads').innerJoin('workspaces', 'leads.workspace_id', 'workspaces.id').select('leads.id'),
      db.selectFrom('leads').select('id').whereRef('workspace_id', '=', 'identity_id'),
    ]) {
      expect(audit(toColumn)).toEqual(['leads without workspace_id = <workspace>']);
    }
    // one value anywhere in the chain scopes them all
    expect(audit(untied.where('identities.workspace_id', '=', WORKSPACE))).toEqual([]);
  });

  it('refuses inserts without workspace_id and raw SQL naming a tenant table', () => {
    expect(audit(db.insertInto('users').values({ id: 'x', email: 'a', email_normalized: 'a', created_at: 'x' }))).toEqual([]);
    expect(auditStatement(sql`select * from leads`.toOperationNode())).toHaveLength(1);
  });
});

describe('a tenant scope at run time', () => {
  let store: TestDatabase;
  beforeAll(async () => {
    store = await createTestDatabase('sqlite');
  });
  afterAll(async () => store?.destroy());

  it('refuses to run a statement its audit rejects, and runs the scoped form', async () => {
    const scope = new TenantScope(store.database.db, WORKSPACE, store.database.codec);
    const leaky = scope
      .selectFrom('leads')
      .select('id')
      .where('identity_id', 'in', (eb) => eb.selectFrom('identities').select('id'));
    await expect(leaky.execute()).rejects.toBeInstanceOf(TenantBoundaryError);
    const scoped = scope
      .selectFrom('leads')
      .select('id')
      .where('identity_id', 'in', (eb) => eb.selectFrom('identities').select('id').where('identities.workspace_id', '=', WORKSPACE));
    await expect(scoped.execute()).resolves.toEqual([]);
  });
});
