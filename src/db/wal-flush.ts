/**
 * The write-ahead log's flush, off the event loop (issue 24). With
 * synchronous=FULL SQLite fsyncs the log inside every COMMIT, and
 * better-sqlite3 runs COMMIT on the event loop: on a disk whose fdatasync
 * takes milliseconds, the whole process waited for it. The group commit
 * (group-commit.ts) instead commits with synchronous=NORMAL, which in WAL
 * mode is FULL without that one sync (SQLite still syncs the log's header
 * when it starts over, and the log and the database around every
 * checkpoint), and then asks this flusher for the sync FULL would have done:
 * one fdatasync of the -wal file on libuv's thread pool. A write is
 * acknowledged only once a flush that began after its COMMIT has returned,
 * so an acknowledged write survives a power loss as it did with FULL.
 *
 * Flushes are shared: a flush asked for while one runs waits for the next,
 * which covers every commit made before it began. docs/durability.md has the
 * reasoning and what could go wrong.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const fdatasync = promisify(fs.fdatasync);
const open = promisify(fs.open);

/** how the log's file is synced: fdatasync on the thread pool, unless a caller brings its own (tests that hold a flush back) */
export type SyncFile = (fd: number) => Promise<void>;

export interface WalFlusher {
  /** resolves once every commit made before the call is on disk; rejects with an SQLITE_IOERR_FSYNC error when the sync fails */
  flush(): Promise<void>;
  /** resolves once the flushes asked for so far have returned (at once when none is under way) */
  settled(): Promise<void>;
  /** flushes that completed, for /metrics and tests */
  readonly completed: number;
  /** closes the log's descriptor once the flushes under way are done */
  close(): Promise<void>;
}

/** An fdatasync failure told as SQLite tells its own (errors.ts: a storage failure, answered 507). */
function fsyncError(cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return Object.assign(new Error(`the write-ahead log could not be synced to disk: ${reason}`), { code: 'SQLITE_IOERR_FSYNC', cause });
}

export function walFlusher(databaseFile: string, sync: SyncFile = (fd) => fdatasync(fd)): WalFlusher {
  let fd: Promise<number> | undefined;
  let completed = 0;
  /** the flush running now, and the one that waits for it (shared by every caller that came meanwhile) */
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  const descriptor = (): Promise<number> => {
    // the log exists once the connection has committed in WAL mode; SQLite
    // creates it with a sync of its directory, which is done once here too
    fd ??= (async () => {
      const opened = await open(`${databaseFile}-wal`, 'r');
      const directory = await open(path.dirname(databaseFile), 'r');
      try {
        await sync(directory);
      } finally {
        fs.close(directory, () => undefined);
      }
      return opened;
    })();
    return fd;
  };

  const once = async (): Promise<void> => {
    try {
      await sync(await descriptor());
      completed += 1;
    } catch (error) {
      throw fsyncError(error);
    }
  };

  return {
    flush() {
      if (running === undefined) {
        running = once().finally(() => (running = undefined));
        return running;
      }
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = undefined;
          running = once().finally(() => (running = undefined));
          return running;
        });
      return next;
    },
    settled() {
      return next ?? running ?? Promise.resolve();
    },
    get completed() {
      return completed;
    },
    async close() {
      // a descriptor closed under a pending fdatasync could be reused by another file before the sync runs
      await next?.catch(() => undefined);
      await running?.catch(() => undefined);
      const opened = await fd?.catch(() => undefined);
      fd = undefined;
      if (opened !== undefined) fs.closeSync(opened);
    },
  };
}
