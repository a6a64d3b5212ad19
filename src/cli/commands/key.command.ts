/**
 * `leadlight key create|list|rotate|revoke` (CONTRACT C2.1, C2.2). The secret
 * is printed by create and rotate only, once.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { KeyType } from '../../services/operator/api-keys.service.js';
import { answer, table, withOperatorContext, type CliIo, type OutputOptions } from '../context.js';

const ONCE = 'Store it now: it is shown this once and cannot be recovered.';

export function registerKey(program: Command, io: CliIo): void {
  const key = program.command('key').description('manage API keys');

  key
    .command('create')
    .description('create an API key for a workspace')
    .requiredOption('--workspace <id>', 'workspace id')
    .addOption(
      new Option('--type <type>', 'key type').choices(['production', 'development']).makeOptionMandatory(),
    )
    .option('--name <label>', 'a label for the key')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; type: KeyType; name?: string }) => {
      await withOperatorContext(io, async ({ services }) => {
        const created = await services.apiKeys.create(options.workspace, options.type, options.name ?? null);
        answer(io, options, created, `Created ${created.type} key ${created.id}.\n${created.key}\n${ONCE}`);
      });
    });

  key
    .command('list')
    .description('list the active keys of a workspace (no secrets)')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string }) => {
      await withOperatorContext(io, async ({ services }) => {
        const keys = await services.apiKeys.list(options.workspace);
        answer(io, options, keys, table(keys, ['id', 'type', 'name', 'hint', 'created_at', 'last_used_at']));
      });
    });

  key
    .command('rotate')
    .description('replace a key by a new one of the same workspace, type and name; the old one stops working')
    .argument('<key-id>', 'id of the key to replace', nonEmpty)
    .option('--json', 'print one JSON document')
    .action(async (keyId: string, options: OutputOptions) => {
      await withOperatorContext(io, async ({ services }) => {
        const rotated = await services.apiKeys.rotate(keyId);
        const document = {
          id: rotated.id,
          replaces: rotated.replaces,
          workspace_id: rotated.workspace_id,
          type: rotated.type,
          name: rotated.name,
          key: rotated.key,
          created_at: rotated.created_at,
        };
        answer(io, options, document, `Key ${rotated.replaces} is revoked; its replacement is ${rotated.id}.\n${rotated.key}\n${ONCE}`);
      });
    });

  key
    .command('revoke')
    .description('revoke a key: the very next request with it is refused')
    .argument('<key-id>', 'id of the key to revoke', nonEmpty)
    .option('--json', 'print one JSON document')
    .action(async (keyId: string, options: OutputOptions) => {
      await withOperatorContext(io, async ({ services }) => {
        const revoked = await services.apiKeys.revoke(keyId);
        answer(io, options, revoked, `Key ${revoked.id} was revoked at ${revoked.revoked_at}.`);
      });
    });
}

function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}
