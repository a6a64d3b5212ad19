/**
 * Runs an import's parsing and validation (import-parser.ts) on a worker
 * thread, so that it overlaps the writes on the main thread. The input is
 * read here and handed over chunk by chunk; reading pauses while CHUNKS_AHEAD
 * chunks wait in the worker, so a large file is never all in memory.
 *
 * A worker whose import read its input to the end is kept, unreferenced,
 * for the process's next import (of any resource): starting one costs a
 * fifth of a second of CPU compiled and over half a second run from the
 * sources, and the tests import fixtures hundreds of times (BENCHMARKS.md,
 * "CI time: plain files"). One whose import failed or stopped early is
 * terminated.
 *
 * The worker loads the compiled module next to this one (dist/); run from
 * TypeScript sources (tests, `node --import tsx`), it loads the .ts module
 * through tsx.
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportResource } from './import-lines.js';
import type { ParsedLines } from './import-parser.js';
import { fromWire, type WireLines } from './parsed-wire.js';

export interface ParseWorkerData {
  /** the resource whose validator the worker compiles as it starts */
  resource: ImportResource;
}

/** The first message of each import the worker parses. */
export interface ParseStart {
  resource: ImportResource;
  importedAt: string;
}

/**
 * input chunks (64 KiB from a file) handed to the worker and not yet taken
 * by the import, parsed or not: parsed lines waiting for the writes count
 * too, so a parser faster than the writes never piles rows up in memory
 */
export const CHUNKS_AHEAD = 32;

function startWorker(resource: ImportResource): Worker {
  const data: ParseWorkerData = { resource };
  const compiled = import.meta.url.endsWith('.js');
  const url = new URL(`./import-parse.worker.${compiled ? 'js' : 'ts'}`, import.meta.url);
  if (compiled) return new Worker(url, { workerData: data });
  // tsx's ES module entry (its CommonJS one registers hooks that cannot find their module)
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const load = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(load, { eval: true, workerData: data });
}

interface Waiting {
  worker: Worker;
  /** the resource whose validator it compiled first */
  resource: ImportResource;
  /** it failed or stopped while it waited */
  broken: boolean;
}

/** workers kept after their import, at most: imports of one process run one after another, or a few at once */
const KEPT = 2;

/**
 * Workers started ahead of their import, or kept after one; unreferenced,
 * they never keep the process alive.
 */
const waiting: Waiting[] = [];

/** Forgets an import's listeners (only these events: Worker listens to its own newListener and removeListener). */
function detach(worker: Worker): void {
  for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event);
}

function keep(worker: Worker, resource: ImportResource): void {
  const entry: Waiting = { worker, resource, broken: false };
  worker.unref();
  worker.once('error', () => (entry.broken = true));
  worker.once('exit', () => (entry.broken = true));
  waiting.push(entry);
}

/**
 * Starts the worker of an import of `resource` now, so that loading its
 * modules and compiling its validator overlap the start of the command.
 */
export function prestartParseWorker(resource: ImportResource): void {
  if (waiting.some((entry) => entry.resource === resource && !entry.broken)) return;
  keep(startWorker(resource), resource);
}

/** A waiting worker, the one that compiled this resource's validator first, or a new one. */
function takeWorker(resource: ImportResource): Worker {
  for (const entry of waiting.filter((candidate) => candidate.broken)) {
    waiting.splice(waiting.indexOf(entry), 1);
    void entry.worker.terminate();
  }
  if (waiting.length === 0) return startWorker(resource);
  const same = waiting.findIndex((entry) => entry.resource === resource);
  const [entry] = waiting.splice(same === -1 ? 0 : same, 1) as [Waiting];
  detach(entry.worker);
  entry.worker.ref();
  return entry.worker;
}

/** The parsed lines of `input`, in order, as the worker delivers them. */
export class ParseInWorker {
  readonly #worker: Worker;
  readonly #ready: ParsedLines[] = [];
  #inFlight = 0;
  #done = false;
  /** the worker sent the import's last lines: it is free for another import */
  #finished = false;
  #failure: unknown = undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly resource: ImportResource,
    importedAt: string,
    private readonly input: Readable,
  ) {
    this.#worker = takeWorker(resource);
    const start: ParseStart = { resource, importedAt };
    this.#worker.postMessage(start);
    this.#worker.on('message', (message: WireLines & { done: boolean }) => {
      this.#ready.push(fromWire(message));
      if (message.done) {
        this.#done = true;
        this.#finished = true;
      }
      this.#notify();
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => {
      if (!this.#done) this.#fail(new Error(`the import's parsing thread stopped (exit code ${code})`));
    });
    input.on('data', (chunk: Buffer | string) => {
      this.#inFlight += 1;
      this.#worker.postMessage(chunk);
      if (this.#inFlight >= CHUNKS_AHEAD) input.pause();
    });
    input.on('end', () => this.#worker.postMessage(null));
    input.on('error', (error) => this.#fail(error));
  }

  async *results(): AsyncGenerator<ParsedLines> {
    for (;;) {
      const next = this.#ready.shift();
      if (next !== undefined) {
        this.#taken();
        yield next;
        if (this.#ready.length === 0 && this.#done) return;
        continue;
      }
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#done) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** the import is over: its worker waits for the next one if it parsed the whole input, else it stops */
  async close(): Promise<void> {
    this.#done = true;
    this.input.pause();
    if (this.#finished && this.#failure === undefined && waiting.length < KEPT) {
      detach(this.#worker);
      keep(this.#worker, this.resource);
      return;
    }
    await this.#worker.terminate();
  }

  /** the import took one chunk's lines: reading may go on */
  #taken(): void {
    if (this.#done) return;
    this.#inFlight -= 1;
    if (this.#inFlight < CHUNKS_AHEAD && this.input.isPaused()) this.input.resume();
  }

  #fail(error: unknown): void {
    this.#failure ??= error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
