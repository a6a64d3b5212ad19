/**
 * `leadlight import` (CONTRACT C2.3): NDJSON in, one resource of one
 * workspace out, all or nothing. Every line is parsed and validated like an
 * API request body, and checked against the workspace (references that must
 * exist, ids that must not); rows are written in batches inside one
 * transaction, and if any line is invalid nothing is written and every bad
 * line is reported by number.
 */
import type { Readable } from 'node:stream';
import type { TenantRepositories, WorkspaceStore } from '../../../repositories/index.js';
import type { PeopleRepository } from '../../../repositories/operator/people.repository.js';
import { PendingCounts } from '../../../repositories/tenant/lead-counts.repository.js';
import { now } from '../../../schemas/instants.js';
import { ServiceError } from '../../errors.js';
import { IMPORT_RESOURCES, RESOURCE_SPECS, type ImportResource, type ImportRun } from './import-lines.js';
import type { LineProblem, ParsedLine, ParsedLines } from './import-parser.js';
import { ParseInWorker } from './parse-in-worker.js';

export { prestartParseWorker } from './parse-in-worker.js';

export { IMPORT_RESOURCES, type ImportResource, type LineProblem };

/** lines checked against the workspace together (one lookup of their ids and references) */
const BATCH_SIZE = 500;
/**
 * checked rows written together: on PostgreSQL one COPY (and one statement
 * marking visitors due) per group; from groups of 500 to 5,000 the CLI's CPU
 * on a million leads fell by a quarter to a third, its main thread's by half
 * (BENCHMARKS.md, "Import, round three")
 */
const INSERT_ROWS = 5_000;
/** bad lines kept for the report; the count goes on */
const MAX_REPORTED = 100;

export class ImportValidationError extends ServiceError {
  constructor(
    readonly resource: ImportResource,
    readonly problems: LineProblem[],
    readonly invalidLines: number,
  ) {
    const shown = problems.map((problem) => `line ${problem.line}: ${problem.message}`).join('; ');
    const more = invalidLines > problems.length ? `; and ${invalidLines - problems.length} more` : '';
    super('invalid_request', `${invalidLines} invalid line${invalidLines === 1 ? '' : 's'}, nothing imported: ${shown}${more}`, {
      invalid_lines: invalidLines,
      lines: problems,
    });
  }
}

export interface ImportResult {
  resource: ImportResource;
  imported: number;
}

type Pending = ParsedLine;

/** The valid and the bad lines of `parsed` together, in line order. */
function* inLineOrder(parsed: ParsedLines): Generator<ParsedLine | LineProblem> {
  const { lines, problems } = parsed;
  let problem = 0;
  for (const line of lines) {
    while (problem < problems.length && (problems[problem] as LineProblem).line < line.line) yield problems[problem++] as LineProblem;
    yield line;
  }
  while (problem < problems.length) yield problems[problem++] as LineProblem;
}

export class ImportService {
  constructor(private readonly store: WorkspaceStore) {}

  async run(resource: ImportResource, input: Readable, onProgress?: (bytesRead: number) => void): Promise<ImportResult> {
    const spec = RESOURCE_SPECS[resource];
    const importedAt = now();

    if (onProgress !== undefined) {
      let bytesRead = 0;
      input.on('data', (chunk: Buffer | string) => {
        bytesRead += chunk.length;
        onProgress(bytesRead);
      });
    }
    // reading and parsing start at once, beside the transaction's start
    const parsed = new ParseInWorker(resource, importedAt, input);

    try {
      return await this.store.bulkTransaction(async (repos, people) => {
        const problems: LineProblem[] = [];
        let invalidLines = 0;
        let imported = 0;
        let batch: Pending[] = [];
        /** checked rows not yet written */
        let ready: unknown[] = [];
        const known = { identities: new Set<string>(), companies: new Set<string>() };
        const run: ImportRun = { leadCounts: new PendingCounts(), at: importedAt };
        // Into a workspace that held none of these rows, a given id can only
        // collide with another line of the file: no lookup per batch at all.
        const againstWorkspace = spec.hadRows === undefined ? true : await spec.hadRows(repos);

        const reject = (line: number, message: string) => {
          invalidLines += 1;
          if (problems.length < MAX_REPORTED) problems.push({ line, message });
        };

        const write = async () => {
          const rows = ready;
          ready = [];
          if (invalidLines > 0 || rows.length === 0) return;
          const written = await spec.insert(repos, people, rows as never[], run);
          if (written !== rows.length) throw new Error(`import wrote ${written} of ${rows.length} rows of a batch`);
          imported += written;
        };

        const flush = async () => {
          const bad = await this.checkAgainstWorkspace(repos, people, spec.taken.bind(spec), batch, known, againstWorkspace);
          for (const pending of batch) {
            const message = bad.get(pending);
            if (message === undefined) {
              if (invalidLines === 0) ready.push(pending.row);
            } else reject(pending.line, message);
          }
          batch = [];
          if (ready.length >= INSERT_ROWS) await write();
        };

        for await (const piece of parsed.results()) {
          for (const item of inLineOrder(piece)) {
            if ('message' in item) reject(item.line, item.message);
            else {
              batch.push(item);
              if (batch.length >= BATCH_SIZE) await flush();
            }
          }
        }
        await flush();
        await write();
        if (invalidLines > 0) throw new ImportValidationError(resource, problems, invalidLines);
        await spec.finish?.(repos, run);
        return { resource, imported };
      });
    } finally {
      await parsed.close();
    }
  }

  /** Lines of the batch that name an unknown identity or company, or an id already taken. */
  private async checkAgainstWorkspace(
    repos: TenantRepositories,
    people: PeopleRepository,
    taken: (repos: TenantRepositories, people: PeopleRepository, rows: never[]) => Promise<Set<unknown>>,
    batch: Pending[],
    known: { identities: Set<string>; companies: Set<string> },
    againstWorkspace: boolean,
  ): Promise<Map<Pending, string>> {
    const bad = new Map<Pending, string>();
    for (const kind of ['identities', 'companies'] as const) {
      const knownIds = known[kind];
      const wanted = new Set<string>();
      for (const pending of batch) {
        for (const id of pending.references[kind]) if (!knownIds.has(id)) wanted.add(id);
      }
      if (wanted.size === 0) continue;
      for (const id of await repos[kind].existingIds([...wanted])) knownIds.add(id);
      const message = `${kind === 'identities' ? 'identity_id' : 'company_id'} does not name a ${kind === 'identities' ? 'identity' : 'company'} of the workspace`;
      for (const pending of batch) {
        if (pending.references[kind].some((id) => !knownIds.has(id))) bad.set(pending, message);
      }
    }
    const fresh: Pending[] = [];
    for (const pending of batch) {
      if (pending.repeats !== undefined) bad.set(pending, `id ${(pending.row as { id: string }).id} repeats line ${pending.repeats}`);
      else if (pending.explicitId) fresh.push(pending);
    }
    // Lines repeating an id of this import are marked by the parser, so the
    // lookup only ever finds rows that were there before it, through the primary key.
    if (fresh.length > 0 && againstWorkspace) {
      const takenRows = await taken(repos, people, fresh.map((pending) => pending.row) as never[]);
      for (const pending of fresh) {
        if (takenRows.has(pending.row)) bad.set(pending, `id ${(pending.row as { id: string }).id} is already taken`);
      }
    }
    return bad;
  }
}
