// The test runner's settings: every file in test/, in forked workers (native
// drivers), with the PostgreSQL template prepared once per run (the root's
// globalSetup: the projects inherit what it provides). Three projects, one
// after the other: files that start no browser and bound no wall time, two
// at a time (a third worker was slower still on two cores, and its load made
// an in-process server shed requests; each file has its own SQLite directory,
// cloned PostgreSQL database, Redis key prefix and free ports:
// test/helpers/stores.ts, postgres.ts, redis.ts, processes.ts); then the
// browser files one at a time; then the files that assert wall-clock bounds
// or rate-limit windows, alone on the machine. The plain files share their
// worker's loaded modules (isolate: false: about 2 s of CPU saved per file;
// no test sets process.env or mocks a module, and each file closes what it
// opens). Why: BENCHMARKS.md "CI time".
import { defineConfig } from 'vitest/config';

/** Files that drive chromium: several processes each, pages waited for with timeouts; one at a time, after the others (two at a time failed a tracker wait). */
const BROWSER = ['test/browser/**/*.test.ts', 'test/tracking/browser.test.ts'];

/** Files that bound elapsed wall time: they have the machine to themselves, last. */
const TIMED = [
  // answers, closes or reconnects within a bound of wall time, or a saturated event loop
  'test/http/admission.test.ts',
  'test/http/connection-policy.test.ts',
  'test/http/database-stall.test.ts',
  'test/http/overload-bounds.test.ts',
  'test/http/redis-stall.test.ts',
  'test/http/redis-rate-limit.test.ts',
  'test/http/slow-clients.test.ts',
  'test/db/group-commit.test.ts',
  'test/client/retries.test.ts',
  // real processes within a rate-limit window, a Live update within 5 s, a CLI process's answer within 10 s
  'test/cli/doctor.test.ts',
  'test/multi-process/live.test.ts',
  'test/multi-process/servers.test.ts',
];

const shared = {
  pool: 'forks' as const,
  // two files share the machine: a test waits for its share of two cores
  testTimeout: 60_000,
  // a file's beforeAll (databases, seeds, processes) on a machine shared by two workers
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    ...shared,
    reporters: ['default', './test/helpers/slow-files-reporter.ts'],
    projects: [
      { test: { ...shared, name: 'parallel', include: ['test/**/*.test.ts'], exclude: [...BROWSER, ...TIMED], maxWorkers: 2, isolate: false } },
      { test: { ...shared, name: 'browser', include: BROWSER, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { test: { ...shared, name: 'serial', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
