/**
 * `leadlight recompute --workspace ID [--what scores|personalities|segments|companies]`
 * (docs/intelligence.md): rebuilds a workspace's derived intelligence from
 * the event log after a model or settings change, with a progress bar on a
 * terminal. Idempotent, and safe while servers run (recompute.service.ts).
 */
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import { RECOMPUTE_PARTS, type RecomputePart } from '../../services/intelligence/recompute.service.js';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

function parts(value: string, previous: RecomputePart[] = []): RecomputePart[] {
  const part = value.trim().toLowerCase();
  if (!(RECOMPUTE_PARTS as readonly string[]).includes(part)) throw new InvalidArgumentError(`must be one of ${RECOMPUTE_PARTS.join(', ')}`);
  return [...previous, part as RecomputePart];
}

export function registerRecompute(program: Command, io: CliIo): void {
  program
    .command('recompute')
    .description("rebuild a workspace's companies, scores, personalities and segments from its events")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--what <part>', `one of ${RECOMPUTE_PARTS.join(', ')} (repeatable; default all)`, parts)
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; what?: RecomputePart[] }) => {
      await withContext(io, async ({ services }) => {
        const workspaceId = await services.workspaces.resolve(options.workspace);
        const what = options.what ?? [...RECOMPUTE_PARTS];
        const bar = new SingleBar({
          stream: io.stderr,
          format: '{phase} [{bar}] {value}/{total}',
          hideCursor: true,
          clearOnComplete: true,
        });
        let phase = '';
        const report = await services.recompute.run(workspaceId, what, (current, done, total) => {
          if (current !== phase) {
            if (phase !== '') bar.stop();
            phase = current;
            bar.start(total, 0, { phase: current.padEnd(10) });
          }
          bar.update(done, { phase: current.padEnd(10) });
        });
        if (phase !== '') bar.stop();
        answer(io, options, { workspace_id: workspaceId, what, ...report }, `Recomputed ${what.join(', ')}: ${report.identities} identities, ${report.visitors} visitors.`);
      });
    });
}
