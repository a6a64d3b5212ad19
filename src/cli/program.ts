/**
 * The operator CLI (CONTRACT C2): `leadlight <command>`. Each command works on
 * the database DATABASE_URL names, exits non-zero with one clear line on
 * stderr when it fails, and with --json prints exactly one JSON document.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ServiceError } from '../services/errors.js';
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

type Register = (program: Command, io: CliIo) => void;

/**
 * The commands, in the order `--help` lists them. Each is loaded only when it
 * runs (or for help): a command's start then pays for its own modules alone,
 * not for the HTTP server's or the importer's.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./commands/serve.command.js')).registerServe,
  migrate: async () => (await import('./commands/migrate.command.js')).registerMigrate,
  workspace: async () => (await import('./commands/workspace.command.js')).registerWorkspace,
  key: async () => (await import('./commands/key.command.js')).registerKey,
  'site-key': async () => (await import('./commands/site-key.command.js')).registerSiteKey,
  import: async () => (await import('./commands/import.command.js')).registerImport,
  seed: async () => (await import('./commands/seed.command.js')).registerSeed,
  user: async () => (await import('./commands/user.command.js')).registerUser,
  doctor: async () => (await import('./commands/doctor.command.js')).registerDoctor,
  erase: async () => (await import('./commands/erase.command.js')).registerErase,
  recompute: async () => (await import('./commands/recompute.command.js')).registerRecompute,
  webhook: async () => (await import('./commands/webhook.command.js')).registerWebhook,
};

/** The command a command line names, when it names one before any option. */
function namedCommand(argv: readonly string[]): string | undefined {
  const first = argv[0];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

export async function createProgram(io: CliIo, argv: readonly string[] = []): Promise<Command> {
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
  const named = namedCommand(argv);
  const names = named === undefined ? Object.keys(COMMANDS) : [named];
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, io);
  return program;
}

/** Runs one command line; resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const program = await createProgram(io, argv);
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
