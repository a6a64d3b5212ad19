/**
 * `leadlight workspace create|list`.
 */
import type { Command } from 'commander';
import { answer, table, withContext, type CliIo, type OutputOptions } from '../context.js';

export function registerWorkspace(program: Command, io: CliIo): void {
  const workspace = program.command('workspace').description('create and list workspaces');

  workspace
    .command('create')
    .description('create a workspace')
    .requiredOption('--name <name>', 'workspace name')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { name: string }) => {
      await withContext(io, async ({ services }) => {
        const created = await services.workspaces.create(options.name);
        answer(io, options, created, `Created workspace "${created.name}" (${created.id}).`);
      });
    });

  workspace
    .command('list')
    .description('list every workspace')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions) => {
      await withContext(io, async ({ services }) => {
        const workspaces = (await services.workspaces.list()).map((entry) => ({
          id: entry.id,
          name: entry.name,
          created_at: entry.created_at,
          prod_last_use: entry.prod_last_use,
          dev_last_use: entry.dev_last_use,
        }));
        answer(io, options, workspaces, table(workspaces, ['id', 'name', 'created_at', 'prod_last_use', 'dev_last_use']));
      });
    });
}
