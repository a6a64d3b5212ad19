/**
 * The first start (CONTRACT C1.1, C1.2) through startServer, listening on a
 * real port: an empty SQLite file is created and migrated, a demo workspace
 * is seeded, and its keys and a ready curl line are printed once and work;
 * later starts and starts with the demo off print nothing. Also the SQLite
 * durability settings the server runs with (C2.4).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { Store } from '../src/repositories/index.js';
import { startServer, type RunningServer } from '../src/server.js';
import { createServices } from '../src/services/index.js';
import { createPostgresDatabase } from './helpers/postgres.js';
import { storeKinds, tempDir } from './helpers/stores.js';

interface Started {
  server: RunningServer;
  printed: string;
}

async function start(env: Record<string, string>): Promise<Started> {
  let printed = '';
  const output = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk);
      done();
    },
  });
  // no load shedding (as test/helpers/processes.ts): the demo seed just ran on this event loop, beside other test files
  const server = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0', ...env }), { output });
  return { server, printed };
}

const workspacesOf = (server: RunningServer) => createServices(new Store(server.database)).workspaces.list();

const PROD_KEY = /ll_prod_[0-9A-Za-z]{32,}/g;
const DEV_KEY = /ll_dev_[0-9A-Za-z]{32,}/g;

describe('first start on an empty SQLite file (C1.1, C1.2)', () => {
  let dir: string;
  let file: string;
  let first: Started;

  beforeAll(async () => {
    dir = tempDir('leadlight-first-start-');
    file = path.join(dir, 'data', 'leadlight.db');
    first = await start({ DATABASE_URL: file });
  });
  afterAll(async () => {
    await first?.server.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('C1.1: creates the database file (and its directory) and listens on 127.0.0.1', () => {
    expect(fs.existsSync(file)).toBe(true);
    expect(first.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('C1.2: prints one production key, one development key and one curl line', () => {
    expect(first.printed.match(PROD_KEY)).toHaveLength(1);
    expect(new Set(first.printed.match(DEV_KEY))).toHaveProperty('size', 1);
    const curlLines = first.printed.split('\n').filter((line) => /^\s*curl\s/.test(line));
    expect(curlLines).toHaveLength(1);
  });

  it('C1.2: the printed curl command answers 200 with the demo workspace\'s leads', async () => {
    const curl = first.printed.split('\n').find((line) => /^\s*curl\s/.test(line)) ?? '';
    const header = /-H\s+(["'])Authorization:\s*([^"']+)\1/i.exec(curl);
    const url = /\bhttps?:\/\/[^\s"']+/.exec(curl);
    expect(header).not.toBeNull();
    expect(url).not.toBeNull();
    expect(url?.[0]).toBe(`${first.server.url}/api/v1/leads`);

    const response = await fetch(url?.[0] ?? '', { headers: { Authorization: header?.[2] ?? '' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { workspace_id: string }[]; pagination: { total: number } };
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.pagination.total).toBeGreaterThan(0);

    const workspaces = await workspacesOf(first.server);
    expect(workspaces).toHaveLength(1);
    expect(response.headers.get('x-workspace-id')).toBe(workspaces[0]?.id);
    for (const lead of body.data) expect(lead.workspace_id).toBe(workspaces[0]?.id);
  });

  it('C1.2: the printed production key works for the same demo workspace', async () => {
    const [production] = first.printed.match(PROD_KEY) ?? [];
    const response = await fetch(`${first.server.url}/api/v1/companies`, {
      headers: { Authorization: `Bearer ${production ?? ''}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-workspace-id')).toBe((await workspacesOf(first.server))[0]?.id);
    const body = (await response.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
  });

  it("C7.2: prints the demo admin's email and a password, shown once, that sign in to the dashboard at /", async () => {
    const email = /^\s*email:\s+(\S+@\S+)\s*$/m.exec(first.printed)?.[1];
    const password = /^\s*password:\s+(\S+)\s*$/m.exec(first.printed)?.[1];
    expect(email).toBeDefined();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(first.printed).toContain(`${first.server.url}/`);
    const response = await fetch(`${first.server.url}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { role: string; workspace: { id: string } } };
    expect(body.data.role).toBe('admin');
    expect(body.data.workspace.id).toBe((await workspacesOf(first.server))[0]?.id);
  });

  it('C2.4: the server runs SQLite with journal_mode=wal and synchronous=FULL', async () => {
    const { db } = first.server.database;
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    expect(synchronous.rows[0]?.synchronous).toBe(2);

    const reader = new BetterSqlite3(file, { readonly: true });
    try {
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      reader.close();
    }
  });

  it('C1.2: a second start on the same file prints no keys and creates no workspace', async () => {
    await first.server.close();
    const second = await start({ DATABASE_URL: file });
    try {
      expect(second.printed).toBe('');
      expect(await workspacesOf(second.server)).toHaveLength(1);
    } finally {
      await second.server.close();
    }
  });
});

describe.each(storeKinds())('a first start with the demo off on %s (C1.2)', (kind) => {
  it(
    kind === 'sqlite'
      ? 'C1.2: LEADLIGHT_DEMO=0 prints nothing and creates no workspace'
      : 'C1.2: a PostgreSQL DATABASE_URL turns the demo off: nothing printed, no workspace',
    async () => {
      const dir = tempDir('leadlight-no-demo-');
      const postgres = kind === 'postgres' ? await createPostgresDatabase() : undefined;
      const env: Record<string, string> =
        postgres === undefined
          ? { DATABASE_URL: path.join(dir, 'leadlight.db'), LEADLIGHT_DEMO: '0' }
          : { DATABASE_URL: postgres.url };
      const started = await start(env);
      try {
        expect(started.printed).toBe('');
        expect(await workspacesOf(started.server)).toEqual([]);
      } finally {
        await started.server.close();
        await postgres?.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
