/**
 * `leadlight site-key create|list|revoke` (CONTRACT C5.1): the publishable
 * keys the tracker sends events with. They are public, so `list` shows them
 * whole; `revoke` makes the next event request with one answer 401.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { answer, table, withOperatorContext, type CliIo, type OutputOptions } from '../context.js';

function originList(value: string): string[] {
  return value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
}

function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

export function registerSiteKey(program: Command, io: CliIo): void {
  const siteKey = program.command('site-key').description('manage site keys (the tracker sends events with one)');

  siteKey
    .command('create')
    .description('create a site key for a workspace')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--name <name>', 'a label for the key')
    .option('--origins <origins>', 'comma-separated origins allowed to send events (https://shop.example.com, https://*.example.com); any when absent', originList)
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; name?: string; origins?: string[] }) => {
      await withOperatorContext(io, async ({ services }) => {
        const created = await services.siteKeys.create(options.workspace, options.name ?? null, options.origins ?? []);
        const origins = created.origins.length === 0 ? 'any origin' : created.origins.join(', ');
        const snippet = `<script defer src="https://YOUR-LEADLIGHT-HOST/t.js" data-key="${created.key}"></script>`;
        answer(io, options, created, `Created site key ${created.id} (${origins}).\n${created.key}\nInstall it with:\n  ${snippet}`);
      });
    });

  siteKey
    .command('list')
    .description('list the active site keys of a workspace')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string }) => {
      await withOperatorContext(io, async ({ services }) => {
        const keys = await services.siteKeys.list(options.workspace);
        const rows = keys.map((key) => ({ ...key, origins: key.origins.length === 0 ? '*' : key.origins.join(',') }));
        answer(io, options, keys, table(rows, ['id', 'name', 'key', 'origins', 'created_at', 'last_used_at']));
      });
    });

  siteKey
    .command('revoke')
    .description('revoke a site key: the next event request with it is refused')
    .argument('<site-key-id>', 'id of the site key to revoke', nonEmpty)
    .option('--json', 'print one JSON document')
    .action(async (keyId: string, options: OutputOptions) => {
      await withOperatorContext(io, async ({ services }) => {
        const revoked = await services.siteKeys.revoke(keyId);
        answer(io, options, revoked, `Site key ${revoked.id} was revoked at ${revoked.revoked_at}.`);
      });
    });
}
