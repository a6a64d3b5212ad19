/**
 * Dashboard accounts (CONTRACT C7.2, C7.3): the password of a person (one
 * per person, shared by every workspace they belong to), dashboard sessions
 * (stored as the SHA-256 of a random token, with the workspace the session
 * is looking at), one-time invitation and reset tokens (hashed too), and the
 * failed sign-ins that throttling counts, in the database so that every
 * process agrees.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function accountsMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_passwords')
        .addColumn('user_id', uuid, (c) => c.primaryKey().references('users.id'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();

      await db.schema
        .createTable('user_sessions')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', uuid, (c) => c.notNull().references('users.id'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_seen_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();
      await db.schema.createIndex('user_sessions_user_idx').on('user_sessions').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('account_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', uuid, (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('invite', 'reset')`))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .$call(strict)
        .execute();
      await db.schema.createIndex('account_tokens_user_idx').on('account_tokens').columns(['user_id']).execute();

      await db.schema
        .createTable('sign_in_failures')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();
      await db.schema.createIndex('sign_in_failures_key_idx').on('sign_in_failures').columns(['key', 'at']).execute();
    },
  };
}
