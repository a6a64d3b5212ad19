/**
 * `leadlight seed --demo [--workspace ID]`: realistic demo data, in a new demo
 * workspace or an existing one.
 */
import type { Command } from 'commander';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

export function registerSeed(program: Command, io: CliIo): void {
  program
    .command('seed')
    .description('fill a workspace with demo data')
    .requiredOption('--demo', 'realistic demo data (the only kind there is)')
    .option('--workspace <id>', 'seed this workspace instead of creating a demo workspace')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace?: string }) => {
      await withContext(io, async ({ services }) => {
        const counts = await services.seed.seedDemo(options.workspace);
        const { workspace_id: workspaceId, ...rest } = counts;
        const summary = Object.entries(rest)
          .map(([resource, count]) => `${count} ${resource}`)
          .join(', ');
        answer(io, options, counts, `Seeded workspace ${workspaceId}: ${summary}.`);
      });
    });
}
