/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back
 * into the database file during a checkpoint, and with synchronous=FULL it
 * waits for the disk; run by the committing connection (the default, every
 * 1000 pages) that would stall every request for as long. The server turns
 * automatic checkpoints off and runs passive checkpoints from a worker
 * thread with its own connection: they never block a writer or a reader,
 * and the log starts over from its beginning once it has been copied.
 *
 * On a full disk (issue 19) a checkpoint must grow the database file by the
 * pages the log added; one that cannot finish still writes what fits and
 * keeps it, so that space freed by an operator went to a copy that failed
 * and writes, which only need room in the log, kept failing. A checkpoint
 * therefore runs only when the volume has room for all the growth and
 * ROOM_BYTES more for writes; meanwhile writes go on into the log. When
 * room is short, a checkpoint that can run truncates the log to nothing
 * (TRUNCATE), giving its space back to the volume at once.
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

/** the room writes need (the largest body the API takes): what a checkpoint leaves free at least, and what readiness asks for */
export const ROOM_BYTES = 1024 * 1024;

/** What the last checkpoint attempt found. */
export interface CheckpointState {
  /** free space the log's copy lacked (its growth of the database file and ROOM_BYTES, less what is free); 0 when it could run */
  shortBytes: number;
}

const WORKER_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const { filename, roomBytes, journalSizeLimit } = workerData;
function open() {
  try {
    const db = new Database(filename, { fileMustExist: true });
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 0');
    db.pragma('journal_size_limit = ' + journalSizeLimit);
    return db;
  } catch {
    return undefined;
  }
}
const db = open();
let reported = 0;
/** the log was held for want of room: once a copy can run, it truncates the log */
let truncate = false;
function checkpoint() {
  try {
    const volume = fs.statfsSync(path.dirname(filename));
    const free = volume.bavail * volume.bsize;
    const pages = db.pragma('page_count', { simple: true });
    const pageSize = db.pragma('page_size', { simple: true });
    const growth = Math.max(0, pages * pageSize - fs.statSync(filename).size);
    const short = Math.max(0, growth + roomBytes - free);
    if (short > 0) {
      truncate = true;
      return short;
    }
    if (truncate || free - growth < journalSizeLimit + roomBytes) {
      // busy (a reader or a writer): tried again next time
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
      truncate = result.busy !== 0;
    } else {
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    return 0;
  } catch {
    return reported;
  }
}
function run(id) {
  const short = checkpoint();
  if (short !== reported || id !== undefined) parentPort.postMessage({ id, shortBytes: short });
  reported = short;
}
if (db === undefined) {
  parentPort.close();
} else {
  const timer = setInterval(() => run(undefined), workerData.intervalMs);
  parentPort.on('message', (message) => {
    if (message.type === 'checkpoint') return run(message.id);
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort.close();
  });
}
`;

export interface Checkpointer {
  stop(): Promise<void>;
  /** a checkpoint now, if the volume has room for it (the readiness probe while writes fail) */
  checkpointNow(): Promise<CheckpointState>;
  /** what the last attempt found */
  readonly state: CheckpointState;
}

export function startCheckpointer(filename: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, filename, intervalMs: INTERVAL_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES, roomBytes: ROOM_BYTES },
  });
  worker.unref();
  // a checkpoint that cannot run is never worth crashing the server: the next commit's log just grows
  worker.on('error', () => undefined);
  let state: CheckpointState = { shortBytes: 0 };
  let asked = 0;
  const answers = new Map<number, (state: CheckpointState) => void>();
  worker.on('message', (message: { id?: number; shortBytes: number }) => {
    state = { shortBytes: message.shortBytes };
    if (message.id === undefined) return;
    answers.get(message.id)?.(state);
    answers.delete(message.id);
  });
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      for (const answer of answers.values()) answer(state);
      answers.clear();
      resolve();
    }),
  );
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      // referenced while it stops: an unreferenced worker's exit would not
      // keep the process alive, and the caller awaiting it would never resume
      worker.ref();
      stopping ??= (worker.postMessage({ type: 'stop' }), exited);
      return stopping;
    },
    checkpointNow() {
      if (!running || stopping !== undefined) return Promise.resolve(state);
      asked += 1;
      const id = asked;
      return new Promise((resolve) => {
        answers.set(id, resolve);
        worker.postMessage({ type: 'checkpoint', id });
      });
    },
    get state() {
      return state;
    },
  };
}
