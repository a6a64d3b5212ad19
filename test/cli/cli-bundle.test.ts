/**
 * The CLI as `npx leadlight` starts it: bin/leadlight.js runs the esbuild
 * bundle (scripts/cli-bundle.js, issue 14), built here from the sources. A
 * handful of spawns on a SQLite file check that the bundle finds what it
 * leaves outside (better-sqlite3, CommonJS packages through require), that a
 * command on the operator services and one on the full service graph both
 * work, and that --help lists every command.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../scripts/cli-bundle.js';
import { MIGRATION_NAMES } from '../../src/db/migrations/index.js';
import { UUID } from '../helpers/app.js';
import { tempDir } from '../helpers/stores.js';

const BIN = fileURLToPath(new URL('../../bin/leadlight.js', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function leadlight(argv: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the bundled leadlight binary on sqlite', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    await buildCliBundle();
    dir = tempDir('leadlight-cli-bundle-');
    file = path.join(dir, 'leadlight.db');
  }, 60_000);
  afterAll(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[]) => {
    const result = await leadlight(argv, { DATABASE_URL: file });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.stdout;
  };

  it('migrates, creates and lists workspaces and keys, and reads settings through the full service graph', async () => {
    expect(JSON.parse(await run(['migrate', '--json']))).toEqual({ applied: MIGRATION_NAMES });
    const created = JSON.parse(await run(['workspace', 'create', '--name', 'Bundled', '--json'])) as { id: string };
    expect(created.id).toMatch(UUID);
    const listed = JSON.parse(await run(['workspace', 'list', '--json'])) as { id: string; name: string }[];
    expect(listed.map((workspace) => [workspace.id, workspace.name])).toEqual([[created.id, 'Bundled']]);
    const key = JSON.parse(await run(['key', 'create', '--workspace', created.id, '--type', 'development', '--json'])) as { id: string };
    const keys = JSON.parse(await run(['key', 'list', '--workspace', created.id, '--json'])) as { id: string }[];
    expect(keys.map((entry) => entry.id)).toEqual([key.id]);
    const settings = JSON.parse(await run(['workspace', 'settings', '--workspace', created.id])) as Record<string, unknown>;
    expect(Object.keys(settings)).toContain('ideal_customer');
  });

  it('imports through its parsing thread, which the bundle carries beside the command', async () => {
    const created = JSON.parse(await run(['workspace', 'create', '--name', 'Bundled import', '--json'])) as { id: string };
    const lines = path.join(dir, 'leads.ndjson');
    fs.writeFileSync(lines, '{"code":"a","source":"bundle"}\n{"code":"b"}\n');
    expect(JSON.parse(await run(['import', 'leads', lines, '--workspace', created.id, '--json']))).toEqual({ resource: 'leads', imported: 2 });
    fs.writeFileSync(lines, '{"code":"c"}\n{"code":5}\n');
    const refused = await leadlight(['import', 'leads', lines, '--workspace', created.id, '--json'], { DATABASE_URL: file });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/line 2/);
  });

  it('--help lists every command', async () => {
    const help = await run(['--help']);
    for (const command of ['serve', 'migrate', 'workspace', 'key', 'site-key', 'import', 'seed', 'user', 'doctor', 'erase', 'recompute', 'webhook']) {
      expect(help).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });
});
