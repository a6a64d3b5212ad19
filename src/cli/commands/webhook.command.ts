/**
 * `leadlight webhook create|list|delete` (CONTRACT C8.5): the operator's way
 * to manage a workspace's webhook endpoints, through the same service as
 * /api/v1/webhooks. `create` prints the signing secret, this once.
 */
import type { Command } from 'commander';
import type { Services } from '../../services/index.js';
import { answer, table, withContext, type CliIo, type OutputOptions } from '../context.js';

const events = (value: string) =>
  value
    .split(',')
    .map((event) => event.trim())
    .filter((event) => event !== '');

export function registerWebhook(program: Command, io: CliIo): void {
  const webhook = program.command('webhook').description('manage webhook endpoints (signed event deliveries)');
  const workspaceOf = async (services: Services, id: string) => services.forWorkspace(await services.workspaces.resolve(id));

  webhook
    .command('create')
    .description('create a webhook endpoint; prints its signing secret once')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--url <url>', 'where events are POSTed (http or https)')
    .requiredOption('--events <types>', 'comma-separated event types (lead.created, identity.identified, ...)', events)
    .option('--description <text>', 'a note about the endpoint')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; url: string; events: string[]; description?: string }) => {
      await withContext(io, async ({ services }) => {
        const workspace = await workspaceOf(services, options.workspace);
        const created = await workspace.webhooks.create({ url: options.url, events: options.events, description: options.description ?? null });
        answer(io, options, created, `Created webhook ${created.id} for ${created.events.join(', ')}.\nSigning secret (shown once): ${created.secret}`);
      });
    });

  webhook
    .command('list')
    .description('list the webhook endpoints of a workspace')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string }) => {
      await withContext(io, async ({ services }) => {
        const workspace = await workspaceOf(services, options.workspace);
        const { items } = await workspace.webhooks.list({ limit: 1000, offset: 0 });
        const rows = items.map((item) => ({ ...item, events: item.events.join(',') }));
        answer(io, options, items, table(rows, ['id', 'url', 'events', 'enabled', 'status', 'created_at']));
      });
    });

  webhook
    .command('delete')
    .description('delete a webhook endpoint and its deliveries')
    .requiredOption('--workspace <id>', 'workspace id')
    .argument('<webhook-id>', 'id of the endpoint')
    .option('--json', 'print one JSON document')
    .action(async (webhookId: string, options: OutputOptions & { workspace: string }) => {
      await withContext(io, async ({ services }) => {
        const workspace = await workspaceOf(services, options.workspace);
        await workspace.webhooks.delete(webhookId);
        answer(io, options, { id: webhookId, deleted: true }, `Deleted webhook ${webhookId}.`);
      });
    });
}
