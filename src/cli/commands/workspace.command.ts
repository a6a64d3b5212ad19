/**
 * `leadlight workspace create|list|settings`: settings are a workspace's
 * lead intelligence settings (ideal customer, page kinds: docs/intelligence.md).
 */
import type { Command } from 'commander';
import { InvalidRequestError } from '../../services/errors.js';
import { answer, table, withContext, withOperatorContext, type CliIo, type OutputOptions } from '../context.js';

export function registerWorkspace(program: Command, io: CliIo): void {
  const workspace = program.command('workspace').description('create and list workspaces');

  workspace
    .command('create')
    .description('create a workspace')
    .requiredOption('--name <name>', 'workspace name')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { name: string }) => {
      await withOperatorContext(io, async ({ services }) => {
        const created = await services.workspaces.create(options.name);
        answer(io, options, created, `Created workspace "${created.name}" (${created.id}).`);
      });
    });

  workspace
    .command('list')
    .description('list every workspace')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions) => {
      await withOperatorContext(io, async ({ services }) => {
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

  workspace
    .command('settings')
    .description("show or change a workspace's lead intelligence settings (ideal customer, page kinds)")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--set <json>', 'sections to replace, e.g. {"ideal_customer":{"industries":["Software"],"employee_ranges":["51-200"],"countries":["DE"]}}')
    .action(async (options: { workspace: string; set?: string }) => {
      await withContext(io, async ({ services }) => {
        const settings = services.forWorkspace(await services.workspaces.resolve(options.workspace)).intelligenceSettings;
        let input: unknown;
        if (options.set !== undefined) {
          try {
            input = JSON.parse(options.set);
          } catch {
            throw new InvalidRequestError('--set must be a JSON object');
          }
        }
        const current = input === undefined ? await settings.get() : await settings.set(input);
        io.stdout.write(`${JSON.stringify(current, null, 2)}\n`);
        if (input !== undefined) io.stderr.write('Saved. Scores follow within a minute; run `leadlight recompute` to apply new page kinds to past events.\n');
      });
    });
}
