/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back
 * into the database file during a checkpoint, and with synchronous=FULL it
 * waits for the disk; run by the committing connection (the default, every
 * 1000 pages) that would stall every request for as long. The server turns
 * automatic checkpoints off and runs passive checkpoints from a worker
 * thread with its own connection: they never block a writer or a reader,
 * and the log starts over from its beginning once it has been copied.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const INTERVAL_MS = 1000;

/**
 * The write-ahead log is truncated to this size whenever it starts over, so
 * that space freed on a full disk is not kept by a large log and writes can
 * resume once a little space is available (issue 9).
 */
export const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
function open() {
  try {
    const db = new Database(workerData.filename, { fileMustExist: true });
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 0');
    db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
    return db;
  } catch {
    return undefined;
  }
}
const db = open();
if (db === undefined) {
  parentPort.close();
} else {
  const timer = setInterval(() => {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }, workerData.intervalMs);
  parentPort.on('message', () => {
    clearInterval(timer);
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
    db.close();
    parentPort.close();
  });
}
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(filename: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, filename, intervalMs: INTERVAL_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES } });
  worker.unref();
  // a checkpoint that cannot run is never worth crashing the server: the next commit's log just grows
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (worker.postMessage('stop'), exited);
      return stopping;
    },
  };
}
