/**
 * Fixtures made ahead, for a test file that runs the same tests on each
 * store: every store's fixture (a server, its database, its seed) starts
 * when the file starts, so PostgreSQL's (a cloned database and a seed over
 * the network, mostly waiting on the database server) is made while the
 * SQLite tests run instead of after them. A fixture's failure surfaces in
 * the hook that awaits it; every fixture made is closed when the file ends.
 * Why: BENCHMARKS.md "CI time: browser files".
 */
import { afterAll, beforeAll } from 'vitest';

export function fixturesAhead<K, T>(kinds: readonly K[], make: (kind: K) => Promise<T>, close: (fixture: T) => Promise<void>): (kind: K) => Promise<T> {
  const made = new Map<K, Promise<T>>();
  beforeAll(() => {
    for (const kind of kinds) {
      const fixture = make(kind);
      // reported where it is awaited, not as an unhandled rejection meanwhile
      fixture.catch(() => undefined);
      made.set(kind, fixture);
    }
  });
  afterAll(async () => {
    for (const fixture of made.values()) {
      const value = await fixture.catch(() => undefined);
      if (value !== undefined) await close(value);
    }
  });
  return (kind) => {
    const fixture = made.get(kind);
    if (fixture === undefined) throw new Error(`no fixture made for ${String(kind)}`);
    return fixture;
  };
}

/**
 * `fill(resource)`, closing the resource when filling it fails: a fixture
 * whose seed throws after its server was made would otherwise leave that
 * server and its database open, since only fixtures that were made are
 * closed at the file's end.
 */
export async function closedOnFailure<R, T>(resource: R, close: (resource: R) => Promise<void>, fill: (resource: R) => Promise<T>): Promise<T> {
  try {
    return await fill(resource);
  } catch (error) {
    await close(resource).catch(() => undefined);
    throw error;
  }
}
