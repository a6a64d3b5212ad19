/**
 * `leadlight erase --workspace ID --email E` (or `--visitor-id V`), CONTRACT
 * C8.4: erases a person as POST /api/v1/erasures does, through the same
 * service, and prints the counts. Like the API, it writes one audit line
 * (JSON, on stderr: stdout stays the answer) naming the workspace, the kind
 * of subject and the counts, never the email or visitor id.
 */
import type { Command } from 'commander';
import { answer, withContext, type CliIo, type OutputOptions } from '../context.js';

export function registerErase(program: Command, io: CliIo): void {
  program
    .command('erase')
    .description("erase a person: their identities, activity, personalities, events, list memberships and leads")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--email <email>', 'the email of the person')
    .option('--visitor-id <uuid>', 'a visitor id of the person')
    .option('--json', 'print one JSON document')
    .action(async (options: OutputOptions & { workspace: string; email?: string; visitorId?: string }) => {
      await withContext(io, async ({ services }) => {
        const workspaceId = await services.workspaces.resolve(options.workspace);
        const { person: _person, scrubbed, ...counts } = await services
          .forWorkspace(workspaceId)
          .erasure.erase({ email: options.email, visitor_id: options.visitorId });
        io.stderr.write(
          `${JSON.stringify({
            level: 30,
            time: Date.now(),
            audit: 'erasure',
            via: 'cli',
            workspace_id: workspaceId,
            subject: options.email !== undefined ? 'email' : 'visitor_id',
            erased: counts,
            scrubbed,
            msg: 'audit: person erased',
          })}\n`,
        );
        const text = Object.entries(counts)
          .map(([kind, count]) => `${kind}: ${count}`)
          .join(', ');
        answer(io, options, counts, `Erased ${text}.`);
      });
    });
}
