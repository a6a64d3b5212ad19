/**
 * The import's worker thread: parses and validates the input's lines
 * (import-parser.ts) while the main thread writes the rows of earlier lines.
 * Each import starts with a message giving its resource and instant; then
 * the worker receives the input as it is read, a chunk per message, and
 * answers each with the lines that chunk completed; `null` ends the input.
 * The worker then waits for another import (parse-in-worker.ts keeps it for
 * the process's next one), each resource's validator compiled once. It may
 * start before its import (parse-in-worker.ts), so the validator of
 * `workerData.resource` compiles while the CLI starts.
 */
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { RESOURCE_SPECS, type ImportResource } from './import-lines.js';
import { ImportLineParser } from './import-parser.js';
import type { ParseStart, ParseWorkerData } from './parse-in-worker.js';
import { toWire } from './parsed-wire.js';

const port = parentPort;
if (port === null) throw new Error('import-parse.worker runs as a worker thread');
const prepared = new Map<ImportResource, (importedAt: string) => ImportLineParser>();
function parserOf(resource: ImportResource): (importedAt: string) => ImportLineParser {
  let make = prepared.get(resource);
  if (make === undefined) {
    make = ImportLineParser.prepare(resource);
    prepared.set(resource, make);
  }
  return make;
}
parserOf((workerData as ParseWorkerData).resource);

let parser: ImportLineParser | undefined;
/** the JSON fields of the resource being imported (parsed-wire.ts) */
let jsonFields: readonly string[] = [];
let decoder = new StringDecoder('utf8');

port.on('message', (chunk: Uint8Array | string | null | ParseStart) => {
  if (parser === undefined) {
    const start = chunk as ParseStart;
    parser = parserOf(start.resource)(start.importedAt);
    jsonFields = RESOURCE_SPECS[start.resource].jsonFields ?? [];
    decoder = new StringDecoder('utf8');
    return;
  }
  if (chunk === null) {
    const tail = decoder.end();
    const last = parser.push(tail);
    const end = parser.end();
    parser = undefined;
    port.postMessage({ ...toWire({ lines: [...last.lines, ...end.lines], problems: [...last.problems, ...end.problems] }, jsonFields), done: true });
    return;
  }
  const bytes = chunk as Uint8Array | string;
  const text = typeof bytes === 'string' ? bytes : decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  port.postMessage({ ...toWire(parser.push(text), jsonFields), done: false });
});
