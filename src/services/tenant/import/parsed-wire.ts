/**
 * How parsed lines cross from the parsing thread to the main thread. Copying
 * between threads (structured clone) costs per object and per key: a row as
 * an object with its references costs the main thread about as much as
 * parsing the line again. As one flat array of values per line, its keys
 * sent once per batch and the object rebuilt on arrival, it costs a fraction
 * of that (measured with v8.deserialize on the benchmark's leads).
 *
 * Fields a resource names as JSON columns (`jsonFields`: a lead's properties,
 * location and summary) cross as their JSON text and arrive as StoredJson,
 * which the codec writes as is: the worker serializes them, the main thread
 * neither copies their objects nor serializes them again (BENCHMARKS.md,
 * "Import, round three").
 */
import { StoredJson } from '../../../schemas/json.js';
import type { References } from './import-lines.js';
import type { LineProblem, ParsedLine, ParsedLines } from './import-parser.js';

/** [line, explicitId, repeats or 0, identities or 0, companies or 0, shape, ...row values] */
type WireLine = unknown[];

export interface WireLines {
  /** the key lists of the rows, each once */
  shapes: string[][];
  /** the keys whose non-null values are JSON text, to arrive as StoredJson */
  json: readonly string[];
  lines: WireLine[];
  problems: LineProblem[];
}

const VALUES_FROM = 6;
const NO_IDS: string[] = [];

/** whether `keys` lists the same keys as `shape`, in the same order */
function sameKeys(keys: string[], shape: string[] | undefined): boolean {
  if (shape === undefined || keys.length !== shape.length) return false;
  for (let index = 0; index < keys.length; index += 1) if (keys[index] !== shape[index]) return false;
  return true;
}

const NO_FIELDS: readonly string[] = [];

export function toWire(parsed: ParsedLines, jsonFields: readonly string[] = NO_FIELDS): WireLines {
  const shapes: string[][] = [];
  const lines = parsed.lines.map((line) => {
    const row = line.row as Record<string, unknown>;
    const keys = Object.keys(row);
    // rows of one resource nearly always share their keys: compare with the last shape first
    let shape = sameKeys(keys, shapes[shapes.length - 1]) ? shapes.length - 1 : shapes.findIndex((known) => sameKeys(keys, known));
    if (shape === -1) shape = shapes.push(keys) - 1;
    const { identities, companies } = line.references;
    const wire: WireLine = [
      line.line,
      line.explicitId,
      line.repeats ?? 0,
      identities.length === 0 ? 0 : identities,
      companies.length === 0 ? 0 : companies,
      shape,
    ];
    for (const key of keys) {
      const value = row[key];
      wire.push(value !== null && typeof value === 'object' && jsonFields.includes(key) ? JSON.stringify(value) : value);
    }
    return wire;
  });
  return { shapes, json: jsonFields, lines, problems: parsed.problems };
}

export function fromWire(wire: WireLines): ParsedLines {
  // per shape, which of its positions hold JSON text
  const jsonAt = wire.shapes.map((keys) => keys.map((key) => wire.json.includes(key)));
  const lines = wire.lines.map((values): ParsedLine => {
    const keys = wire.shapes[values[5] as number] as string[];
    const json = jsonAt[values[5] as number] as boolean[];
    const row: Record<string, unknown> = {};
    for (let index = 0; index < keys.length; index += 1) {
      const value = values[VALUES_FROM + index];
      row[keys[index] as string] = json[index] === true && typeof value === 'string' ? new StoredJson(value) : value;
    }
    const references: References = {
      identities: values[3] === 0 ? NO_IDS : (values[3] as string[]),
      companies: values[4] === 0 ? NO_IDS : (values[4] as string[]),
    };
    const parsed: ParsedLine = { line: values[0] as number, row, explicitId: values[1] as boolean, references };
    if (values[2] !== 0) parsed.repeats = values[2] as number;
    return parsed;
  });
  return { lines, problems: wire.problems };
}
