/**
 * The per-line half of an import (CONTRACT C2.3), with no database: splits
 * NDJSON text into lines as `readline` does, parses and validates each line
 * like an API request body, and turns a valid line into its row. It runs on
 * the import's worker thread (import-parse.worker.ts), so this work overlaps
 * the writes on the main thread; what needs the workspace (references, ids
 * already taken) stays on the main thread.
 */
import type { ValidateFunction } from 'ajv';
import secureJson from 'secure-json-parse';
import { describeJsonProblem, findFieldProblem, isStorableText } from '../../../schemas/text-guards.js';
import { createAjv, describeErrors, type SchemaError } from '../../../schemas/validator.js';
import { RESOURCE_SPECS, type ImportResource, type References } from './import-lines.js';

export interface LineProblem {
  line: number;
  message: string;
}

/** A valid line, as its row and what must still be checked against the workspace. */
export interface ParsedLine {
  line: number;
  row: unknown;
  explicitId: boolean;
  references: References;
  /** the earlier line that gave the same id, if one did */
  repeats?: number;
}

/** What a piece of input gave: its valid lines and its bad ones, each in line order. */
export interface ParsedLines {
  lines: ParsedLine[];
  problems: LineProblem[];
}

function describeLine(problems: Record<string, string>): string {
  return Object.entries(problems)
    .map(([field, reason]) => (field === 'body' ? `the line ${reason}` : `${field} ${reason}`))
    .join(', ');
}

/** Breaks text into lines at \n, \r\n and a lone \r, like `readline` with `crlfDelay: Infinity`. */
export class LineSplitter {
  #rest = '';

  /** the complete lines of `text` after what came before; the unfinished tail is kept */
  push(text: string): string[] {
    const all = this.#rest + text;
    if (!all.includes('\r')) {
      const lines = all.split('\n');
      this.#rest = lines.pop() as string;
      return lines;
    }
    const lines: string[] = [];
    let start = 0;
    for (let index = 0; index < all.length; index += 1) {
      const code = all.charCodeAt(index);
      if (code === 10) {
        lines.push(all.slice(start, index));
        start = index + 1;
      } else if (code === 13) {
        // a \r at the very end may be the first half of \r\n: wait for the next text
        if (index + 1 === all.length) break;
        lines.push(all.slice(start, index));
        start = all.charCodeAt(index + 1) === 10 ? index + 2 : index + 1;
        if (start === index + 2) index += 1;
      }
    }
    this.#rest = all.slice(start);
    return lines;
  }

  /** the last line, when the input does not end with a line break */
  end(): string[] {
    const rest = this.#rest.endsWith('\r') ? this.#rest.slice(0, -1) : this.#rest;
    const ended = this.#rest === '' ? [] : [rest];
    this.#rest = '';
    return ended;
  }
}

/** Parses and validates the lines of one resource's import, numbering them from 1. */
export class ImportLineParser {
  readonly #spec;
  readonly #validate: ValidateFunction;
  readonly #splitter = new LineSplitter();
  /** given ids, and the line each was first given on */
  readonly #idLines = new Map<string, number>();
  #lineNumber = 0;

  constructor(
    resource: ImportResource,
    private readonly importedAt: string,
    validate?: ValidateFunction,
  ) {
    this.#spec = RESOURCE_SPECS[resource];
    this.#validate = validate ?? createAjv(false).compile(this.#spec.schema);
  }

  /** Compiles the resource's validator now; the parser is made once the import's instant is known. */
  static prepare(resource: ImportResource): (importedAt: string) => ImportLineParser {
    const validate = createAjv(false).compile(RESOURCE_SPECS[resource].schema);
    return (importedAt) => new ImportLineParser(resource, importedAt, validate);
  }

  push(text: string): ParsedLines {
    return this.#parse(this.#splitter.push(text));
  }

  end(): ParsedLines {
    return this.#parse(this.#splitter.end());
  }

  #parse(texts: string[]): ParsedLines {
    const parsed: ParsedLines = { lines: [], problems: [] };
    for (const text of texts) {
      this.#lineNumber += 1;
      const line = this.#lineNumber;
      if (text.trim() === '') continue;
      const result = this.#parseLine(text);
      if (typeof result === 'string') {
        parsed.problems.push({ line, message: result });
        continue;
      }
      const row = this.#spec.toRow(result as never, this.importedAt) as { id: string };
      const explicitId = result.id !== undefined;
      const repeats = explicitId ? this.#idLines.get(row.id) : undefined;
      if (explicitId && repeats === undefined) this.#idLines.set(row.id, line);
      parsed.lines.push({
        line,
        row,
        explicitId,
        references: this.#spec.references(result as never),
        ...(repeats === undefined ? {} : { repeats }),
      });
    }
    return parsed;
  }

  /** the valid line, or what is wrong with it */
  #parseLine(text: string): { id?: string } | string {
    let value: unknown;
    try {
      value = secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return 'not valid JSON (or uses the reserved keys __proto__ or constructor.prototype)';
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be a JSON object';
    const textProblems: Record<string, string> = {};
    for (const [field, fieldValue] of Object.entries(value)) {
      const problem = isStorableText(field) ? findFieldProblem(fieldValue) : 'text';
      if (problem !== null) textProblems[isStorableText(field) ? field : JSON.stringify(field)] = describeJsonProblem(problem);
    }
    if (Object.keys(textProblems).length > 0) return describeLine(textProblems);
    if (!this.#validate(value)) return describeLine(describeErrors((this.#validate.errors ?? []) as SchemaError[]));
    return value as { id?: string };
  }
}
