/**
 * The operator CLI (CONTRACT C2): `leadlight <command>`. Each command works on
 * the database DATABASE_URL names, exits non-zero with one clear line on
 * stderr when it fails, and with --json prints exactly one JSON document.
 */
import { Command, CommanderError, Help } from 'commander';
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

interface CommandEntry {
  /** how `--help` lists the command: its name, options and arguments, as commander writes them */
  term: string;
  description: string;
  load: () => Promise<Register>;
}

/**
 * The commands, in the order `--help` lists them. Each is loaded only when it
 * runs (or for its own help): a command's start then pays for its own modules
 * alone. `leadlight --help` lists them from the term and description here
 * without loading any; a test checks that they match the commands' own.
 */
const COMMANDS: Record<string, CommandEntry> = {
  serve: {
    term: 'serve [options]',
    description: 'run the HTTP API',
    load: async () => (await import('./commands/serve.command.js')).registerServe,
  },
  migrate: {
    term: 'migrate [options]',
    description: 'apply pending database migrations',
    load: async () => (await import('./commands/migrate.command.js')).registerMigrate,
  },
  workspace: {
    term: 'workspace',
    description: 'create and list workspaces',
    load: async () => (await import('./commands/workspace.command.js')).registerWorkspace,
  },
  key: {
    term: 'key',
    description: 'manage API keys',
    load: async () => (await import('./commands/key.command.js')).registerKey,
  },
  'site-key': {
    term: 'site-key',
    description: 'manage site keys (the tracker sends events with one)',
    load: async () => (await import('./commands/site-key.command.js')).registerSiteKey,
  },
  import: {
    term: 'import [options] <resource> <file>',
    description: 'import NDJSON into a workspace, all or nothing (leads, identities, activity, personalities, companies, lists, users)',
    load: async () => (await import('./commands/import.command.js')).registerImport,
  },
  seed: {
    term: 'seed [options]',
    description: 'fill a workspace with demo data',
    load: async () => (await import('./commands/seed.command.js')).registerSeed,
  },
  user: {
    term: 'user',
    description: 'invite dashboard users and reset their passwords',
    load: async () => (await import('./commands/user.command.js')).registerUser,
  },
  doctor: {
    term: 'doctor [options]',
    description:
      'check the installation without changing it: database reachable and migrated, SQLite pragmas, Redis, clock, disk; exits 1 when a check fails',
    load: async () => (await import('./commands/doctor.command.js')).registerDoctor,
  },
  erase: {
    term: 'erase [options]',
    description: 'erase a person: their identities, activity, personalities, events, list memberships and leads',
    load: async () => (await import('./commands/erase.command.js')).registerErase,
  },
  recompute: {
    term: 'recompute [options]',
    description: "rebuild a workspace's companies, scores, personalities and segments from its events",
    load: async () => (await import('./commands/recompute.command.js')).registerRecompute,
  },
  webhook: {
    term: 'webhook',
    description: 'manage webhook endpoints (signed event deliveries)',
    load: async () => (await import('./commands/webhook.command.js')).registerWebhook,
  },
};

/** The command a command line names (`leadlight NAME …`, `leadlight help NAME`), if any. */
function namedCommand(argv: readonly string[]): string | undefined {
  const name = argv[0] === 'help' ? argv[1] : argv[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
}

/**
 * The program for one command line: with the command it names loaded, or,
 * when it names none (`--help`, no command, an unknown one), with every
 * command listed from COMMANDS without loading any. `everyCommand` loads
 * them all instead (the test that compares both listings).
 */
export async function createProgram(io: CliIo, argv: readonly string[] = [], everyCommand = false): Promise<Command> {
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
  if (named === undefined && !everyCommand) {
    for (const [name, entry] of Object.entries(COMMANDS)) program.command(name).description(entry.description);
    const standard = new Help();
    program.configureHelp({ subcommandTerm: (command) => COMMANDS[command.name()]?.term ?? standard.subcommandTerm(command) });
    return program;
  }
  const names = named === undefined ? Object.keys(COMMANDS) : [named];
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!.load()));
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
