/**
 * What every tenant repository shares: the scope of its workspace (the only
 * way it reaches the database: scope/tenant-scope.ts), and for tables keyed
 * by (workspace_id, id) the existence checks that reference checks use.
 */
import { param } from '../../db/query-templates.js';
import type { Codec } from '../../db/codec.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import type { KeyedTable, TenantScope } from '../scope/tenant-scope.js';

/** Tenant tables whose rows are keyed by (workspace_id, id). */
export type KeyedTenantTable = KeyedTable;

export abstract class TenantRepository {
  constructor(protected readonly scope: TenantScope) {}

  protected get codec(): Codec {
    return this.scope.codec;
  }

  /** The workspace this repository is bound to. */
  get workspaceId(): WorkspaceId {
    return this.scope.workspaceId;
  }
}

export abstract class KeyedTenantRepository extends TenantRepository {
  protected abstract readonly table: KeyedTenantTable;

  /** Whether `id` names a row of the workspace (a compiled template: reference checks run on writes). */
  async exists(id: string): Promise<boolean> {
    const row = await this.scope
      .template(`${this.table}.exists`, (q) => q.selectFrom(this.table).select('id').where('id', '=', param('id')))
      .first({ id });
    return row !== undefined;
  }

  /** Whether the workspace holds any row of the table. */
  async hasAny(): Promise<boolean> {
    const row = await this.scope.template(`${this.table}.any`, (q) => q.selectFrom(this.table).select('id').limit(1)).first();
    return row !== undefined;
  }

  /** The subset of `ids` that exist in the workspace, each found through the primary key. */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += 500) {
      for (const id of await this.scope.probeIds(this.table, ids.slice(start, start + 500))) found.add(id);
    }
    return found;
  }
}
