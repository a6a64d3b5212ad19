/**
 * `leadlight import RESOURCE FILE --workspace ID` (CONTRACT C2.3): NDJSON from
 * a file or stdin (`-`), all or nothing, with a progress bar on a terminal.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import { IMPORT_RESOURCES, prestartParseWorker, type ImportResource } from '../../services/tenant/import/import.service.js';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

/** SQLite page cache of an import: a quarter of the machine's memory, at most 1 GiB */
const IMPORT_CACHE_MIB = Math.min(1024, Math.floor(os.totalmem() / 4 / 1024 / 1024));

function resourceName(value: string): ImportResource {
  if (!(IMPORT_RESOURCES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${IMPORT_RESOURCES.join(', ')}`);
  }
  return value as ImportResource;
}

function progressBar(io: CliIo, input: Readable, file: string): ((bytes: number) => void) | undefined {
  if (io.stderr.isTTY !== true || file === '-') return undefined;
  const total = fs.statSync(file).size;
  const bar = new SingleBar({
    stream: io.stderr,
    format: 'importing [{bar}] {percentage}% | {value}/{total} bytes | {duration}s',
    hideCursor: true,
  });
  bar.start(total, 0);
  input.on('close', () => bar.stop());
  return (bytes) => bar.update(bytes);
}

export function registerImport(program: Command, io: CliIo): void {
  program
    .command('import')
    .description(`import NDJSON into a workspace, all or nothing (${IMPORT_RESOURCES.join(', ')})`)
    .argument('<resource>', 'what the lines are', resourceName)
    .argument('<file>', 'an NDJSON file, or - for stdin')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--json', 'print one JSON document')
    .action(async (resource: ImportResource, file: string, options: OutputOptions & { workspace: string }) => {
      // its parsing thread loads while the store opens
      prestartParseWorker(resource);
      await withContext(
        io,
        async ({ services }) => {
        const input = file === '-' ? io.stdin : fs.createReadStream(file);
        if (file !== '-') {
          await new Promise<void>((resolve, reject) => {
            input.once('open', () => resolve());
            input.once('error', reject);
          });
        }
        const workspace = services.forWorkspace(await services.workspaces.resolve(options.workspace));
        const result = await workspace.imports.run(resource, input, progressBar(io, input, file));
        answer(io, options, result, `Imported ${result.imported} ${resource}.`);
        },
        // the whole import is one transaction: its pages should stay in memory
        { cacheMiB: IMPORT_CACHE_MIB },
      );
    });
}
