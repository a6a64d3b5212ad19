/**
 * What every CLI command shares (CONTRACT C2): the process's streams and
 * environment, the store that DATABASE_URL names with pending migrations
 * applied first, the services, and the two ways of answering (a line for
 * people, one JSON document with --json). The full service graph loads only
 * for commands that ask for it (withContext); workspace, key and site-key
 * commands take the operator services alone (withOperatorContext) and start
 * faster (issue 14).
 */
import type { Readable, Writable } from 'node:stream';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database, type OpenOptions } from '../db/database.js';
import { Store } from '../repositories/index.js';
import type { Services } from '../services/index.js';
import { createOperatorServices, type OperatorServices } from '../services/operator/index.js';

export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdin: Readable;
  env: Record<string, string | undefined>;
}

interface StoreContext {
  config: Config;
  database: Database;
  /** migrations this command applied before running */
  applied: string[];
}

export interface CommandContext extends StoreContext {
  services: Services;
}

export interface OperatorContext extends StoreContext {
  services: OperatorServices;
}

export interface OutputOptions {
  json?: boolean;
}

/** Runs `work` with the store open and migrated, and closes it afterwards. */
async function withStore<T>(
  io: CliIo,
  options: OpenOptions,
  work: (context: StoreContext & { store: Store }) => Promise<T>,
): Promise<T> {
  const config = loadConfig(io.env);
  const database = openDatabase(config.database, options);
  try {
    const applied = await database.migrate();
    return await work({ config, database, applied, store: new Store(database) });
  } finally {
    await database.close();
  }
}

/** Runs `work` with the store open and migrated and every service, and closes the store afterwards. */
export async function withContext<T>(
  io: CliIo,
  work: (context: CommandContext) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  return withStore(io, options, async ({ store, ...context }) => {
    const { createServices } = await import('../services/index.js');
    const services = createServices(store, { tracking: context.config.tracking, webhooks: context.config.webhooks, intelligence: context.config.intelligence });
    return work({ ...context, services });
  });
}

/** Like withContext, with the operator services alone (workspaces, API keys, site keys). */
export async function withOperatorContext<T>(io: CliIo, work: (context: OperatorContext) => Promise<T>): Promise<T> {
  return withStore(io, {}, async ({ store, ...context }) => work({ ...context, services: createOperatorServices(store) }));
}

/** Prints `document` as JSON with --json, otherwise the human-readable `text`. */
export function answer(io: CliIo, options: OutputOptions, document: unknown, text: string): void {
  io.stdout.write(options.json ? `${JSON.stringify(document)}\n` : `${text}\n`);
}

/** Rows as aligned columns, for people. */
export function table<Row extends object>(rows: readonly Row[], columns: (keyof Row & string)[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? '-')));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => (line[index] ?? '').length)));
  const render = (line: string[]) => line.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ').trimEnd();
  return [render(columns), ...cells.map(render)].join('\n');
}
