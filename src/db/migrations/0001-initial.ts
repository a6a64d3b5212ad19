/**
 * The first schema: every resource of the spec, keys and workspaces.
 * Tenant tables have (workspace_id, id) primary keys and indexes that start
 * with workspace_id and end with the list order (created_at, id), one per
 * filter, so every list is an index range scan on both stores.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

function types(kind: StoreKind) {
  return kind === 'postgres'
    ? ({ uuid: 'uuid', ts: 'timestamptz', json: 'jsonb', bool: 'boolean', real: 'double precision' } as const)
    : ({ uuid: 'text', ts: 'text', json: 'text', bool: 'integer', real: 'real' } as const);
}

const MERGE_PATCH_FUNCTION = sql`
CREATE OR REPLACE FUNCTION leadlight_merge_patch(target jsonb, patch jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb;
  item record;
BEGIN
  -- RFC 7396: a non-object patch replaces the target; an object patch merges
  -- member by member, and a null member removes that member.
  IF patch IS NULL OR jsonb_typeof(patch) <> 'object' THEN
    RETURN patch;
  END IF;
  IF target IS NULL OR jsonb_typeof(target) <> 'object' THEN
    result := '{}'::jsonb;
  ELSE
    result := target;
  END IF;
  FOR item IN SELECT key, value FROM jsonb_each(patch) LOOP
    IF jsonb_typeof(item.value) = 'null' THEN
      result := result - item.key;
    ELSE
      result := result || jsonb_build_object(item.key, leadlight_merge_patch(result -> item.key, item.value));
    END IF;
  END LOOP;
  RETURN result;
END
$$`;

export function initialMigration(kind: StoreKind): Migration {
  const t = types(kind);
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addColumn('prod_last_use', t.ts)
        .addColumn('dev_last_use', t.ts)
        .$call(strict)
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('production', 'development')`))
        .addColumn('name', 'text')
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addColumn('last_used_at', t.ts)
        .addColumn('revoked_at', t.ts)
        .addColumn('replaces', t.uuid)
        .$call(strict)
        .execute();
      await db.schema.createIndex('api_keys_workspace_idx').on('api_keys').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('companies')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_normalized', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('domain_normalized', 'text')
        .addColumn('description', 'text')
        .addColumn('employees', 'text')
        .addColumn('main_industry', 'text')
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('companies_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('companies_created_idx').on('companies').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('companies_domain_idx')
        .on('companies')
        .columns(['workspace_id', 'domain_normalized', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('identities')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('visitor_id', t.uuid, (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('email_normalized', 'text')
        .addColumn('name', 'text')
        .addColumn('traits', t.json, (c) => c.notNull())
        .addColumn('first_seen', t.ts, (c) => c.notNull())
        .addColumn('last_seen', t.ts, (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('city', 'text')
        .addColumn('country', 'text')
        .addColumn('is_favorite', t.bool, (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('identities_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      for (const [name, column] of [
        ['identities_created_idx', null],
        ['identities_email_idx', 'email_normalized'],
        ['identities_visitor_idx', 'visitor_id'],
        ['identities_favorite_idx', 'is_favorite'],
      ] as const) {
        const columns = column === null ? ['workspace_id', 'created_at', 'id'] : ['workspace_id', column, 'created_at', 'id'];
        await db.schema.createIndex(name).on('identities').columns(columns).execute();
      }

      await db.schema
        .createTable('leads')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('visitor_id', t.uuid, (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('source', 'text')
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addColumn('updated_at', t.ts, (c) => c.notNull())
        .addColumn('properties', t.json, (c) => c.notNull())
        .addColumn('location', t.json, (c) => c.notNull())
        .addColumn('identity_id', t.uuid)
        .addColumn('session_id', t.uuid)
        .addColumn('summary', t.json)
        .addColumn('company_id', t.uuid)
        .addPrimaryKeyConstraint('leads_pkey', ['workspace_id', 'id'])
        .addForeignKeyConstraint('leads_identity_fk', ['workspace_id', 'identity_id'], 'identities', ['workspace_id', 'id'])
        .addForeignKeyConstraint('leads_company_fk', ['workspace_id', 'company_id'], 'companies', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      for (const [name, column] of [
        ['leads_created_idx', null],
        ['leads_source_idx', 'source'],
        ['leads_code_idx', 'code'],
      ] as const) {
        const columns = column === null ? ['workspace_id', 'created_at', 'id'] : ['workspace_id', column, 'created_at', 'id'];
        await db.schema.createIndex(name).on('leads').columns(columns).execute();
      }

      await db.schema
        .createTable('identity_activity')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('identity_id', t.uuid, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('who', 'text')
        .addColumn('what', 'text')
        .addColumn('source', 'text')
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('identity_activity_pkey', ['workspace_id', 'id'])
        .addForeignKeyConstraint('identity_activity_identity_fk', ['workspace_id', 'identity_id'], 'identities', [
          'workspace_id',
          'id',
        ])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('identity_activity_identity_idx')
        .on('identity_activity')
        .columns(['workspace_id', 'identity_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('personalities')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('visitor_id', t.uuid, (c) => c.notNull())
        .addColumn('score', t.real, (c) => c.notNull())
        .addColumn('personality', t.json, (c) => c.notNull())
        .addColumn('features', t.json, (c) => c.notNull())
        .addColumn('learning_percentage', t.real, (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('personalities_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('personalities_visitor_idx')
        .on('personalities')
        .columns(['workspace_id', 'visitor_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('visitor_lists')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('color', 'text')
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('visitor_lists_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('visitor_lists_created_idx')
        .on('visitor_lists')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('avatar', 'text')
        .addColumn('username', 'text')
        .addColumn('language', 'text')
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .$call(strict)
        .execute();

      await db.schema
        .createTable('workspace_members')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('joined_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_members_pkey', ['workspace_id', 'user_id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('workspace_members_joined_idx')
        .on('workspace_members')
        .columns(['workspace_id', 'joined_at', 'user_id'])
        .execute();
      await db.schema
        .createIndex('workspace_members_role_idx')
        .on('workspace_members')
        .columns(['workspace_id', 'role', 'joined_at', 'user_id'])
        .execute();

      if (kind === 'postgres') await MERGE_PATCH_FUNCTION.execute(db);
    },
  };
}
