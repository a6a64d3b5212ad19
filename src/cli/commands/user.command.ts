/**
 * `leadlight user invite|reset-password` (CONTRACT C7.2): dashboard
 * accounts. An invitation makes the person a member with a role and prints
 * a link that sets their password (7 days); a reset prints a link that sets
 * a new one (24 hours). Links start with PUBLIC_URL and are shown once:
 * only a hash of their secret is stored.
 */
import { Option, type Command } from 'commander';
import { passwordLinkUrl } from '../../services/operator/account-tokens.js';
import { ROLES } from '../../services/operator/roles.js';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

export function registerUser(program: Command, io: CliIo): void {
  const user = program.command('user').description('invite dashboard users and reset their passwords');

  user
    .command('invite')
    .description('make a person a member of a workspace, with a link that sets their password')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--email <email>', 'their email address')
    .addOption(new Option('--role <role>', 'their role').choices([...ROLES]).makeOptionMandatory())
    .option('--name <name>', 'their full name (for a new person)')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; email: string; role: string; name?: string }) => {
      await withContext(io, async ({ services, config }) => {
        const workspaceId = await services.workspaces.resolve(options.workspace);
        const invitation = await services.accounts.invite(workspaceId, { email: options.email, role: options.role, name: options.name ?? null });
        const document = {
          user_id: invitation.user_id,
          invite_url: invitation.link === null ? null : passwordLinkUrl(config.publicUrl, invitation.link.token),
          expires_at: invitation.link?.expires_at ?? null,
        };
        const text =
          document.invite_url === null
            ? `${options.email} is a ${options.role} of the workspace (user ${document.user_id}); they already have a password and sign in with it.`
            : `${options.email} is a ${options.role} of the workspace (user ${document.user_id}).\nSend them this link to set their password (valid until ${document.expires_at}; shown this once):\n${document.invite_url}`;
        answer(io, options, document, text);
      });
    });

  user
    .command('reset-password')
    .description('print a link that sets a new password for the person with this email')
    .requiredOption('--email <email>', 'their email address')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { email: string }) => {
      await withContext(io, async ({ services, config }) => {
        const link = await services.accounts.resetLink(options.email);
        const document = { reset_url: passwordLinkUrl(config.publicUrl, link.token), expires_at: link.expires_at };
        answer(io, options, document, `Send this link to ${options.email} (valid until ${link.expires_at}; shown this once):\n${document.reset_url}`);
      });
    });
}
