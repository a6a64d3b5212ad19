/**
 * What every CLI command shares (CONTRACT C2): the process's streams and
 * environment, the store that DATABASE_URL names with pending migrations
 * applied first, the services, and the two ways of answering (a line for
 * people, one JSON document with --json).
 */
import type { Readable, Writable } from 'node:stream';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database, type OpenOptions } from '../db/database.js';
import { Store } from '../repositories/index.js';
import { createServices, type Services } from '../services/index.js';

export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdin: Readable;
  env: Record<string, string | undefined>;
}

export interface CommandContext {
  config: Config;
  database: Database;
  services: Services;
  /** migrations this command applied before running */
  applied: string[];
}

export interface OutputOptions {
  json?: boolean;
}

/** Runs `work` with the store open and migrated, and closes it afterwards. */
export async function withContext<T>(
  io: CliIo,
  work: (context: CommandContext) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const config = loadConfig(io.env);
  const database = openDatabase(config.database, options);
  try {
    const applied = await database.migrate();
    return await work({ config, database, services: createServices(new Store(database), { tracking: config.tracking, webhooks: config.webhooks }), applied });
  } finally {
    await database.close();
  }
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
