/**
 * The operator CLI (CONTRACT C2): `leadlight <command>`. Each command works on
 * the database DATABASE_URL names, exits non-zero with one clear line on
 * stderr when it fails, and with --json prints exactly one JSON document.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ServiceError } from '../services/errors.js';
import { registerDoctor } from './commands/doctor.command.js';
import { registerImport } from './commands/import.command.js';
import { registerKey } from './commands/key.command.js';
import { registerMigrate } from './commands/migrate.command.js';
import { registerSeed } from './commands/seed.command.js';
import { registerServe } from './commands/serve.command.js';
import { registerSiteKey } from './commands/site-key.command.js';
import { registerUser } from './commands/user.command.js';
import { registerWorkspace } from './commands/workspace.command.js';
import type { CliIo } from './context.js';
import { AnsweredFailure } from './exit-status.js';

export type { CliIo };

function oneLine(error: unknown): string {
  if (error instanceof ConfigError || error instanceof ServiceError) return error.message;
  if (error instanceof CommanderError) return `${error.message.replace(/^error: /, '')} (see --help)`;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
    return `cannot read ${(error as { path?: string }).path ?? 'the file'}: ${String(code)}`;
  }
  return error instanceof Error ? error.message.split('\n')[0] ?? error.name : String(error);
}

export function createProgram(io: CliIo): Command {
  const program = new Command('leadlight')
    .description('Leadlight: the Workspace Visitor and Lead API, and its operator tools')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // usage errors are reported by run(), as one line like every other failure
      outputError: () => undefined,
    });
  // Subcommands inherit the output and exit settings configured above.
  registerServe(program, io);
  registerMigrate(program, io);
  registerWorkspace(program, io);
  registerKey(program, io);
  registerSiteKey(program, io);
  registerImport(program, io);
  registerSeed(program, io);
  registerUser(program, io);
  registerDoctor(program, io);
  return program;
}

/** Runs one command line; resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof AnsweredFailure) return error.exitCode;
    if (error instanceof CommanderError) {
      if (['commander.helpDisplayed', 'commander.version'].includes(error.code)) return 0;
      if (error.code === 'commander.help') return error.exitCode || 1;
    }
    const message = oneLine(error);
    io.stderr.write(`leadlight: ${message}\n`);
    if (argv.includes('--json')) {
      const code =
        error instanceof ServiceError
          ? error.code
          : error instanceof ConfigError
            ? 'invalid_configuration'
            : error instanceof CommanderError
              ? 'invalid_usage'
              : 'failed';
      const details = error instanceof ServiceError ? error.details : undefined;
      io.stdout.write(`${JSON.stringify({ error: code, message, ...(details === undefined ? {} : { details }) })}\n`);
    }
    return 1;
  }
}
