/**
 * All SQL about the visitor lists (segments) of one workspace: the lists
 * themselves and their rules (C6.4; members: list-members.repository.ts).
 */
import type { JsonObject } from '../../schemas/json.js';
import type { VisitorList } from '../../schemas/resources.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

const COLUMNS = ['id', 'name', 'description', 'color', 'created_at'] as const;

export type ListChanges = Partial<Pick<VisitorList, 'name' | 'description' | 'color'>> & { rule?: JsonObject | null };

export class ListsRepository extends KeyedTenantRepository {
  protected readonly table = 'visitor_lists' as const;

  list(page: Page): Promise<PageResult<VisitorList>> {
    return this.scope.snapshot((scope) => newestFirstPage(this.codec, scope.selectFrom('visitor_lists'), COLUMNS, page));
  }

  async findById(id: string): Promise<(VisitorList & { rule: JsonObject | null }) | undefined> {
    const row = await this.scope.selectFrom('visitor_lists').select([...COLUMNS, 'rule']).where('id', '=', id).executeTakeFirst();
    return row && { ...row, rule: this.codec.readNullableJson(row.rule) };
  }

  /** Every rule segment of the workspace with its rule (the worker caches them briefly). */
  async ruleLists(): Promise<{ id: string; rule: JsonObject }[]> {
    const rows = await this.scope
      .template('visitor_lists.rules', (q) => q.selectFrom('visitor_lists').select(['id', 'rule']).where('rule', 'is not', null))
      .all();
    return rows.map((row) => ({ id: row.id, rule: this.codec.readJson(row.rule) }));
  }

  async insert(list: VisitorList, rule: JsonObject | null): Promise<void> {
    await this.scope.insertInto('visitor_lists', [{ ...list, rule: this.codec.nullableJson(rule) }]).execute();
  }

  async update(id: string, changes: ListChanges): Promise<boolean> {
    const { rule, ...fields } = changes;
    const set = { ...fields, ...(rule === undefined ? {} : { rule: this.codec.nullableJson(rule) }) };
    if (Object.keys(set).length === 0) return this.exists(id);
    const result = await this.scope.updateTable('visitor_lists').set(set).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.scope.deleteFrom('visitor_lists').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(lists: readonly VisitorList[]): Promise<number> {
    return this.scope.insertRows(
      'visitor_lists',
      lists.map((list) => ({
        id: list.id,
        name: list.name,
        description: list.description,
        color: list.color,
        created_at: list.created_at,
      })),
    );
  }
}
