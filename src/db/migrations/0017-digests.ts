/**
 * Digests (CONTRACT C10.4; docs/alerts.md, "Digests"):
 *
 * - workspaces.time_zone: the IANA time zone whose 08:00 sends digests
 *   (default UTC), set by the workspace's admins;
 * - workspace_members.digest: off, daily or weekly, each member's own
 *   choice in the workspace, and digest_since: when it last changed (a
 *   period whose 08:00 is earlier is not sent: no digest right after one
 *   turns it on, none of the old kind after a switch);
 * - digest_sends: one row per member and period (the primary key is the
 *   claim): written in a transaction before the email is sent, `sent` once
 *   the SMTP server took it; a claim whose lease ran out (a process killed
 *   while sending) is taken again, a sent one never.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function digestsMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('workspaces').addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC')).execute();
      await db.schema
        .alterTable('workspace_members')
        .addColumn('digest', 'text', (c) => c.notNull().defaultTo('off').check(sql`digest in ('off', 'daily', 'weekly')`))
        .execute();
      await db.schema.alterTable('workspace_members').addColumn('digest_since', ts).execute();
      await db.schema
        .createTable('digest_sends')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('user_id', uuid, (c) => c.notNull())
        /** daily:YYYY-MM-DD or weekly:YYYY-MM-DD (the local date of the period's 08:00) */
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('claimed', 'sent', 'empty')`))
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('claimed_until', ts, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('sent_at', ts)
        .addPrimaryKeyConstraint('digest_sends_pkey', ['workspace_id', 'user_id', 'period'])
        .$call(strict)
        .execute();
    },
  };
}
