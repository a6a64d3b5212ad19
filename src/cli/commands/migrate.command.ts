/**
 * `leadlight migrate`: applies pending migrations (every command does so
 * first; this one only reports what it applied).
 */
import type { Command } from 'commander';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

export function registerMigrate(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions) => {
      await withContext(io, async ({ applied }) => {
        answer(
          io,
          options,
          { applied },
          applied.length === 0 ? 'The database is up to date.' : `Applied migrations: ${applied.join(', ')}`,
        );
      });
    });
}
