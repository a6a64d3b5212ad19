/**
 * Benchmark data: NDJSON from bench/generate.ts in .bench/data-<N>/, loaded
 * into a store through the real CLI (`workspace create`, `import`,
 * `key create`), each import timed for the bulk-import scenario. A loaded
 * store is reused between runs (its workspaces, keys and import timings are
 * kept in .bench/<store>-<N>.json) unless --reimport, or unless its sizes or
 * workspaces no longer match.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { generate } from '../generate.js';
import { runCommand } from './processes.js';

export const BENCH_DIR = '.bench';
const COMPANIES = 1000;
/** 2: every lead carries its id, and workspace C is imported into with lookups */
const DATA_VERSION = 2;
const SAMPLE_IDS = 10_000;

export type StoreKind = 'sqlite' | 'postgres';

export interface Sizes {
  /** the shape of the generated data; a new version regenerates and reloads */
  version: number;
  leads: number;
  leadsB: number;
  identities: number;
  companies: number;
}

export interface ImportTiming {
  workspace: 'A' | 'B' | 'C';
  resource: string;
  rows: number;
  /** wall time of the command, start-up and migration check included */
  seconds: number;
  rowsPerSecond: number;
  /** wall time of a command that does next to nothing (`workspace list`) just before */
  startupSeconds: number;
  /** rows ÷ (seconds − startupSeconds); NaN when the import took less than twice the start-up (too noisy) */
  netRowsPerSecond: number;
}

export interface StoreState {
  store: StoreKind;
  url: string;
  sizes: Sizes;
  workspaceA: string;
  workspaceB: string;
  workspaceC?: string;
  keyA: string;
  keyB: string;
  imports: ImportTiming[];
  loadedAt: string;
}

export interface DataFiles {
  companies: string;
  identities: string;
  leadsA: string;
  leadsB: string;
  leadsC: string;
  leadC0: string;
}

export type Log = (line: string) => void;

const sameSizes = (a: Sizes, b: Sizes) =>
  a.version === b.version && a.leads === b.leads && a.leadsB === b.leadsB && a.identities === b.identities && a.companies === b.companies;

export function sizesOf(leads: number, leadsB: number, identities: number): Sizes {
  return { version: DATA_VERSION, leads, leadsB, identities, companies: COMPANIES };
}

/** Generates the NDJSON files once per set of sizes. */
export async function ensureData(sizes: Sizes, log: Log): Promise<DataFiles> {
  const dir = path.join(BENCH_DIR, `data-${sizes.leads}`);
  const metaFile = path.join(dir, 'sizes.json');
  const files: DataFiles = {
    companies: path.join(dir, 'companies-a.ndjson'),
    identities: path.join(dir, 'identities-a.ndjson'),
    leadsA: path.join(dir, 'leads-a.ndjson'),
    leadsB: path.join(dir, 'leads-b.ndjson'),
    leadsC: path.join(dir, 'leads-c.ndjson'),
    leadC0: path.join(dir, 'lead-c0.ndjson'),
  };
  const present =
    fs.existsSync(metaFile) &&
    sameSizes(JSON.parse(fs.readFileSync(metaFile, 'utf8')) as Sizes, sizes) &&
    Object.values(files).every((file) => fs.existsSync(file));
  if (present) return files;
  log(`generating data in ${dir} (${sizes.leads} + ${sizes.leadsB} leads, ${sizes.identities} identities)`);
  const started = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  await generate({ ...sizes, out: dir });
  fs.writeFileSync(metaFile, `${JSON.stringify(sizes)}\n`);
  log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return files;
}

export function adminUrl(): string {
  return process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

export function storeUrl(store: StoreKind, leads: number): string {
  if (store === 'sqlite') return path.resolve(BENCH_DIR, `sqlite-${leads}.db`);
  const url = new URL(adminUrl());
  url.pathname = `/leadlight_bench_${leads}`;
  return url.toString();
}

/** `node --import tsx src/cli/main.ts ARGS --json` on DATABASE_URL; its JSON answer and wall time. */
async function cli<T>(url: string, args: string[]): Promise<{ value: T; seconds: number }> {
  const env = { ...process.env, DATABASE_URL: url, LEADLIGHT_DEMO: '0' };
  const result = await runCommand('node', ['--import', 'tsx', 'src/cli/main.ts', ...args, '--json'], env);
  if (result.code !== 0) throw new Error(`leadlight ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return { value: JSON.parse(result.stdout) as T, seconds: result.seconds };
}

async function resetStore(store: StoreKind, url: string): Promise<void> {
  if (store === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(url + suffix, { force: true });
    return;
  }
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function workspacesExist(url: string, ids: string[]): Promise<boolean> {
  try {
    const { value } = await cli<{ id: string }[]>(url, ['workspace', 'list']);
    return ids.every((id) => value.some((workspace) => workspace.id === id));
  } catch {
    return false;
  }
}

export async function createKey(url: string, workspace: string): Promise<string> {
  const args = ['key', 'create', '--workspace', workspace, '--type', 'production', '--name', 'bench'];
  return (await cli<{ key: string }>(url, args)).value.key;
}

async function load(store: StoreKind, url: string, sizes: Sizes, files: DataFiles, log: Log): Promise<StoreState> {
  log(`[${store}] importing through the CLI into ${store === 'sqlite' ? path.relative('.', url) : url}`);
  await resetStore(store, url);
  const workspaceA = (await cli<{ id: string }>(url, ['workspace', 'create', '--name', 'bench A'])).value.id;
  const workspaceB = (await cli<{ id: string }>(url, ['workspace', 'create', '--name', 'bench B'])).value.id;
  const workspaceC = (await cli<{ id: string }>(url, ['workspace', 'create', '--name', 'bench C'])).value.id;
  // C already holds a lead, so the import of C looks every given id up in it
  await cli(url, ['import', 'leads', files.leadC0, '--workspace', workspaceC]);
  const imports: ImportTiming[] = [];
  const steps: [ImportTiming['workspace'], string, string, string][] = [
    ['A', workspaceA, 'companies', files.companies],
    ['A', workspaceA, 'identities', files.identities],
    ['A', workspaceA, 'leads', files.leadsA],
    ['B', workspaceB, 'leads', files.leadsB],
    ['C', workspaceC, 'leads', files.leadsC],
  ];
  const startup = (await cli(url, ['workspace', 'list'])).seconds;
  for (const [workspace, id, resource, file] of steps) {
    const { value, seconds } = await cli<{ imported: number }>(url, ['import', resource, file, '--workspace', id]);
    const rows = value.imported;
    const net = seconds >= 2 * startup ? rows / (seconds - startup) : Number.NaN;
    imports.push({ workspace, resource, rows, seconds, rowsPerSecond: rows / seconds, startupSeconds: startup, netRowsPerSecond: net });
    const netText = Number.isNaN(net) ? '' : ` (${Math.round(net)} net of ${startup.toFixed(2)} s start-up)`;
    log(`  import ${resource} (${workspace}): ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds)} rows/s${netText}`);
  }
  const keyA = await createKey(url, workspaceA);
  const keyB = await createKey(url, workspaceB);
  return { store, url, sizes, workspaceA, workspaceB, workspaceC, keyA, keyB, imports, loadedAt: new Date().toISOString() };
}

function statePath(store: StoreKind, leads: number): string {
  return path.join(BENCH_DIR, `${store}-${leads}.json`);
}

export function saveState(state: StoreState): void {
  fs.writeFileSync(statePath(state.store, state.sizes.leads), `${JSON.stringify(state, null, 2)}\n`);
}

/** A store holding the data: reused when it still matches, else loaded through the CLI. */
export async function prepareStore(
  store: StoreKind,
  sizes: Sizes,
  reimport: boolean,
  log: Log,
): Promise<{ state: StoreState; reused: boolean }> {
  const url = storeUrl(store, sizes.leads);
  const file = statePath(store, sizes.leads);
  if (!reimport && fs.existsSync(file)) {
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as StoreState;
    if (state.url === url && sameSizes(state.sizes, sizes) && (await workspacesExist(url, [state.workspaceA, state.workspaceB]))) {
      log(`[${store}] reusing the store loaded at ${state.loadedAt} (--reimport to load it again)`);
      return { state, reused: true };
    }
  }
  fs.rmSync(idsPath(store, sizes.leads), { force: true });
  const files = await ensureData(sizes, log);
  const state = await load(store, url, sizes, files, log);
  saveState(state);
  return { state, reused: false };
}

function idsPath(store: StoreKind, leads: number): string {
  return path.join(BENCH_DIR, `${store}-${leads}.ids.json`);
}

/** 10,000 lead ids of workspace A spread evenly over the id order, read once from the store and cached. */
export async function leadIds(state: StoreState): Promise<{ ids: string[]; file: string }> {
  const file = idsPath(state.store, state.sizes.leads);
  if (fs.existsSync(file)) return { ids: JSON.parse(fs.readFileSync(file, 'utf8')) as string[], file };
  const database = openDatabase(parseDatabaseUrl(state.url));
  try {
    const rows = await database.db
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', state.workspaceA as WorkspaceId)
      .orderBy('id')
      .execute();
    const step = Math.max(1, rows.length / SAMPLE_IDS);
    const ids: string[] = [];
    for (let position = 0; position < rows.length && ids.length < SAMPLE_IDS; position += step) {
      ids.push((rows[Math.floor(position)] as { id: string }).id);
    }
    fs.writeFileSync(file, JSON.stringify(ids));
    return { ids, file };
  } finally {
    await database.close();
  }
}

/**
 * Brings a loaded store to a steady state before anything is measured. On
 * PostgreSQL, right after a bulk load, autovacuum would otherwise vacuum and
 * analyze a million fresh rows during the first scenarios, and every first
 * read of a page would set hint bits and dirty it: `VACUUM (ANALYZE)` and a
 * `CHECKPOINT` do that work now, as an operator would after a large load.
 * Cheap when there is nothing left to do. SQLite needs nothing: the import's
 * last connection checkpoints its log when it closes.
 */
export async function settleStore(state: StoreState, log: Log): Promise<void> {
  if (state.store !== 'postgres') return;
  const started = performance.now();
  const client = new pg.Client({ connectionString: state.url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
  log(`[${state.store}] VACUUM (ANALYZE) and CHECKPOINT in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
