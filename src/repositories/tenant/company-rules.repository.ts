/**
 * All SQL about a workspace's company rules (CONTRACT C6.8): written and
 * deleted by admins, listed newest first, and read whole by the rules cache
 * of ingestion and by the reverse DNS worker (a workspace has few).
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export type CompanyRuleKind = 'asn' | 'cidr' | 'domain';

export interface CompanyRuleRow {
  id: string;
  match_kind: CompanyRuleKind;
  match_value: string;
  company_id: string | null;
  not_a_company: boolean;
  created_at: string;
}

const COLUMNS = ['id', 'match_kind', 'match_value', 'company_id', 'not_a_company', 'created_at'] as const;

export class CompanyRulesRepository extends KeyedTenantRepository {
  protected readonly table = 'company_rules' as const;

  async insert(rule: CompanyRuleRow): Promise<CompanyRuleRow> {
    await this.scope.insertInto('company_rules', [{ ...rule, not_a_company: this.codec.bool(rule.not_a_company) }]).execute();
    return rule;
  }

  async findById(id: string): Promise<CompanyRuleRow | undefined> {
    const row = await this.scope.selectFrom('company_rules').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && this.toRule(row);
  }

  list(page: Page): Promise<PageResult<CompanyRuleRow>> {
    return this.scope.snapshot(async (scope) => {
      const result = await newestFirstPage(this.codec, scope.selectFrom('company_rules'), COLUMNS, page);
      return { items: result.items.map((row) => this.toRule(row as never)), total: result.total };
    });
  }

  /** Every rule of the workspace (ingestion's cache, the reverse DNS worker). */
  async all(): Promise<CompanyRuleRow[]> {
    const rows = await this.scope.selectFrom('company_rules').select(COLUMNS).orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => this.toRule(row));
  }

  /** False when the rule is not the workspace's. */
  async delete(id: string): Promise<boolean> {
    const result = await this.scope.deleteFrom('company_rules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private toRule(row: Pick<Selectable<Schema['company_rules']>, (typeof COLUMNS)[number]>): CompanyRuleRow {
    return {
      id: row.id,
      match_kind: row.match_kind as CompanyRuleKind,
      match_value: row.match_value,
      company_id: row.company_id,
      not_a_company: this.codec.readBool(row.not_a_company),
      created_at: row.created_at,
    };
  }
}
