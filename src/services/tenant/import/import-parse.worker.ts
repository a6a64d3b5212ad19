/**
 * The import's worker thread: parses and validates the input's lines
 * (import-parser.ts) while the main thread writes the rows of earlier lines.
 * Its first message gives the import's instant; then it receives the input
 * as it is read, a chunk per message, and answers each with the lines that
 * chunk completed; `null` ends the input. It may start before its import
 * (parse-in-worker.ts), so the validator compiles while the CLI starts.
 */
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { ImportLineParser } from './import-parser.js';
import type { ParseWorkerData } from './parse-in-worker.js';
import { toWire } from './parsed-wire.js';

const port = parentPort;
if (port === null) throw new Error('import-parse.worker runs as a worker thread');
const { resource } = workerData as ParseWorkerData;
const prepared = ImportLineParser.prepare(resource);
let parser: ImportLineParser | undefined;
const decoder = new StringDecoder('utf8');

port.on('message', (chunk: Uint8Array | string | null | { importedAt: string }) => {
  if (parser === undefined) {
    parser = prepared((chunk as { importedAt: string }).importedAt);
    return;
  }
  if (chunk === null) {
    const tail = decoder.end();
    const last = parser.push(tail);
    const end = parser.end();
    port.postMessage({ ...toWire({ lines: [...last.lines, ...end.lines], problems: [...last.problems, ...end.problems] }), done: true });
    return;
  }
  const bytes = chunk as Uint8Array | string;
  const text = typeof bytes === 'string' ? bytes : decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  port.postMessage({ ...toWire(parser.push(text)), done: false });
});
