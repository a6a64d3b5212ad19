/**
 * The import's worker thread: parses and validates the input's lines
 * (import-parser.ts) while the main thread writes the rows of earlier lines.
 * It receives the input as it is read, a chunk per message, and answers each
 * with the lines that chunk completed; `null` ends the input.
 */
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { ImportLineParser } from './import-parser.js';
import type { ParseWorkerData } from './parse-in-worker.js';
import { toWire } from './parsed-wire.js';

const port = parentPort;
if (port === null) throw new Error('import-parse.worker runs as a worker thread');
const { resource, importedAt } = workerData as ParseWorkerData;
const parser = new ImportLineParser(resource, importedAt);
const decoder = new StringDecoder('utf8');

port.on('message', (chunk: Uint8Array | string | null) => {
  if (chunk === null) {
    const tail = decoder.end();
    const last = parser.push(tail);
    const end = parser.end();
    port.postMessage({ ...toWire({ lines: [...last.lines, ...end.lines], problems: [...last.problems, ...end.problems] }), done: true });
    return;
  }
  const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  port.postMessage({ ...toWire(parser.push(text)), done: false });
});
