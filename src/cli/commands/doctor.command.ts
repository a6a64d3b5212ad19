/**
 * `leadlight doctor [--json]`: checks the installation without changing it
 * (doctor/run-doctor.ts) and prints each check; exits non-zero when one
 * fails (warnings do not). Unlike every other command it does not migrate
 * first: pending migrations are one of the things it reports.
 */
import type { Command } from 'commander';
import { answer, table, type CliIo, type OutputOptions } from '../context.js';
import { runDoctor } from '../doctor/run-doctor.js';
import { AnsweredFailure } from '../exit-status.js';

export function registerDoctor(program: Command, io: CliIo): void {
  program
    .command('doctor')
    .description(
      'check the installation without changing it: database reachable and migrated, SQLite pragmas, Redis, clock, disk; exits 1 when a check fails',
    )
    .option('--json', 'print one JSON document: {"ok", "checks": [{"name", "status", "detail"}]}')
    .action(async (options: OutputOptions) => {
      const checks = await runDoctor(io.env);
      const failed = checks.filter((check) => check.status === 'fail');
      const warned = checks.filter((check) => check.status === 'warn');
      const summary =
        failed.length > 0
          ? `Failed: ${failed.map((check) => check.name).join(', ')}.`
          : warned.length > 0
            ? `No check failed; warnings: ${warned.map((check) => check.name).join(', ')}.`
            : 'Every check passed.';
      answer(io, options, { ok: failed.length === 0, checks }, `${table(checks, ['name', 'status', 'detail'])}\n\n${summary}`);
      if (failed.length > 0) throw new AnsweredFailure();
    });
}
