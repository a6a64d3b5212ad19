/**
 * The body of an export (CONTRACT C11.5): NDJSON (one JSON object a line) or
 * CSV (UTF-8, a header row, RFC 4180 quoting, CRLF), written chunk by chunk
 * as the client reads. Readable.from pulls the next chunk from the service
 * only when the socket has taken the last (backpressure), so memory stays
 * that of one chunk; a client that goes away stops the reading.
 * CSV cells that a spreadsheet would run as a formula (starting with = + - @,
 * tab or carriage return) are prefixed with a quote (OWASP CSV injection).
 */
import { Readable } from 'node:stream';
import { StoredJson } from '../schemas/json.js';

export type ExportFormat = 'ndjson' | 'csv';

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell of a value: null is empty, objects are their JSON text. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof StoredJson) text = value.text;
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface ExportShape<T> {
  /** the CSV columns, in the order of the resource's schema */
  columns: readonly (keyof T & string)[];
  /** the item as JSON text, as the API shows it */
  json: (item: T) => string;
}

/**
 * The most characters written at once. A chunk's text in one string (some
 * 400 KB for 1,000 leads) is past V8's largest young-generation object, so
 * each went to the large-object space, which only a full collection frees:
 * an export of a million leads as NDJSON grew the server by 324 MB
 * (BENCHMARKS.md "Search and export at a million after the afternoon's
 * changes"). Pieces of about 32 KB die young.
 */
const PIECE_CHARS = 32_768;

export function exportStream<T>(chunks: AsyncIterable<T[]>, format: ExportFormat, shape: ExportShape<T>): Readable {
  async function* lines(): AsyncGenerator<string> {
    if (format === 'csv') yield `${shape.columns.join(',')}\r\n`;
    for await (const chunk of chunks) {
      let text = '';
      for (const item of chunk) {
        text += format === 'ndjson' ? `${shape.json(item)}\n` : `${shape.columns.map((column) => csvCell(item[column])).join(',')}\r\n`;
        if (text.length >= PIECE_CHARS) {
          yield text;
          text = '';
        }
      }
      if (text !== '') yield text;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
