/**
 * The CLI as an operator runs it: a child process (`node --import tsx
 * src/cli/main.ts`, the sources behind `npx leadlight`) on a SQLite file,
 * checked by exit code, stdout and stderr (CONTRACT C2, C2.1, C2.3). Kept to
 * a handful of spawns; the in-process tests in cli.test.ts cover the rest.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { TIMESTAMP, UUID } from '../helpers/app.js';
import { tempDir } from '../helpers/stores.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function leadlight(argv: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the leadlight binary on sqlite', () => {
  let dir: string;
  let file: string;
  let workspaceId: string;

  beforeAll(() => {
    dir = tempDir('leadlight-cli-process-');
    file = path.join(dir, 'data', 'leadlight.db');
  });
  afterAll(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = (argv: string[]) => leadlight(argv, { DATABASE_URL: file });

  async function inspect<T>(read: (database: Database) => Promise<T>): Promise<T> {
    const database = openDatabase({ kind: 'sqlite', filename: file });
    try {
      return await read(database);
    } finally {
      await database.close();
    }
  }

  it('C2: migrate --json creates and migrates the database and exits 0', async () => {
    const result = await run(['migrate', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ applied: Object.keys(migrations('sqlite')) });
    expect(fs.existsSync(file)).toBe(true);
  });

  it('C2: workspace create --json prints one JSON document and exits 0', async () => {
    const result = await run(['workspace', 'create', '--name', 'Spawned', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toEqual({ id: expect.stringMatching(UUID), name: 'Spawned', created_at: expect.stringMatching(TIMESTAMP) });
    workspaceId = created.id;
    const stored = await inspect((database) => createServices(new Store(database)).workspaces.get(workspaceId));
    expect(stored.name).toBe('Spawned');
  });

  it('C2.1: key create --json prints a working production key and exits 0', async () => {
    const result = await run(['key', 'create', '--workspace', workspaceId, '--type', 'production', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'key', 'name', 'type', 'workspace_id']);
    expect(created).toMatchObject({ workspace_id: workspaceId, type: 'production', name: null });
    expect(created.key).toMatch(/^ll_prod_[0-9A-Za-z]{32,}$/);
    const found = await inspect((database) => createServices(new Store(database)).apiKeys.authenticate(created.key));
    expect(found).toMatchObject({ id: created.id, workspace_id: workspaceId });
  });

  it('C2.3: an import with a bad line exits non-zero, names the line on stderr and writes nothing', async () => {
    const ndjson = path.join(dir, 'companies.ndjson');
    fs.writeFileSync(ndjson, ['{"name":"Good"}', '{"name":"Also good"}', '{"name":42}', '{"name":"Good again"}'].join('\n'));
    const result = await run(['import', 'companies', ndjson, '--workspace', workspaceId, '--json']);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toMatch(/^leadlight: [^\n]+\n$/);
    expect(result.stderr).toMatch(/\bline 3\b/);
    expect(result.stderr).not.toMatch(/\bline [124]\b/);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: expect.any(String) });
    const companies = await inspect(async (database) => {
      const services = createServices(new Store(database));
      return services.forWorkspace(await services.workspaces.resolve(workspaceId)).companies.list({}, { limit: 100, offset: 0 });
    });
    expect(companies.total).toBe(0);
  });

  it('C1.3, C2: a bad configuration value stops the command with one line and exit code 1', async () => {
    const result = await leadlight(['workspace', 'list', '--json'], { DATABASE_URL: file, PORT: '70000' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^leadlight: [^\n]*PORT[^\n]*\n$/);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
  });

  it('C1.3: serve on a store a newer release migrated stops with one line and exit code 1 (it used to exit 13 silently)', async () => {
    const newer = path.join(dir, 'newer.db');
    const database = openDatabase({ kind: 'sqlite', filename: newer });
    try {
      await database.migrate();
      await database.db
        .insertInto('leadlight_migrations' as never)
        .values({ name: '9999-a-later-release', timestamp: new Date().toISOString() } as never)
        .execute();
    } finally {
      await database.close();
    }
    const result = await leadlight(['serve', '--port', '0'], { DATABASE_URL: newer, LEADLIGHT_DEMO: 'off' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^leadlight: [^\n]*9999-a-later-release[^\n]*newer release[^\n]*\n$/);
  });
});
