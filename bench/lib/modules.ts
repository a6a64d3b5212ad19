/**
 * Benchmark modules that bring their own store and data (unlike the HTTP
 * scenarios, which share the generated million-lead store): each is one
 * `--scenarios` id that bench/run.ts runs once per store, with a bounded
 * size or time from its own flags, and whose lines (markdown tables) go in
 * the report's notes. A failure fails that module only.
 */
import { adminUrl, type Log, type StoreKind } from './data.js';
import { benchLive } from './live.js';
import { benchSearch } from './search.js';
import { benchSearchExport } from './search-export.js';

export interface ModuleOptions {
  /** leads of the search-export workspace (the million: --search-leads 1000000) */
  searchLeads: number;
  /** identities of each of the search module's two workspaces */
  searchIdentities: number;
  liveStreams: number;
  liveSeconds: number;
  liveRounds: number;
  /** the bench's own: connections of the load, extra flags of the server, where the processes' logs go */
  connections: number;
  serverNodeFlags: string[];
  logDir: string;
}

/** the flags of the modules, for run.ts's parseArgs, with their defaults (bounded: minutes, not hours) */
export const MODULE_FLAGS = {
  'search-leads': { type: 'string', default: '200000' },
  'search-identities': { type: 'string', default: '100000' },
  'live-streams': { type: 'string', default: '1000' },
  'live-seconds': { type: 'string', default: '10' },
  'live-rounds': { type: 'string', default: '3' },
} as const;

type Module = (store: StoreKind, options: ModuleOptions, log: Log) => Promise<string[]>;

const MODULES: Record<string, Module> = {
  'search-export': (store, options, log) => benchSearchExport(store, options.searchLeads, log),
  search: (store, options, log) => benchSearch(store, options.searchIdentities, log),
  live: (store, options, log) =>
    benchLive(
      store,
      {
        streams: options.liveStreams,
        seconds: options.liveSeconds,
        rounds: options.liveRounds,
        connections: options.connections,
        serverNodeFlags: options.serverNodeFlags,
        logDir: options.logDir,
      },
      log,
    ),
};

export const MODULE_IDS = Object.keys(MODULES);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs the chosen modules on one store; answers their lines as notes, and their failures. */
export async function runModules(store: StoreKind, ids: readonly string[], options: ModuleOptions, log: Log): Promise<{ notes: string[]; failures: string[] }> {
  // the modules make their PostgreSQL databases beside the bench's own
  process.env.TEST_POSTGRES_URL ??= adminUrl();
  const notes: string[] = [];
  const failures: string[] = [];
  for (const id of MODULE_IDS.filter((module) => ids.includes(module))) {
    try {
      notes.push(...(await MODULES[id]!(store, options, log)));
    } catch (error) {
      log(`[${store}/${id}] FAILED: ${message(error)}`);
      failures.push(`${store}/${id}: ${message(error)}`);
    }
  }
  return { notes, failures };
}
