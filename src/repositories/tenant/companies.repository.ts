/**
 * All SQL about the companies of one workspace: the resource, which of its
 * fields automatic sources wrote (C6.7), and what the dashboard's list of
 * accounts sorts by (C6.9, C9.4).
 */
import { sql } from 'kysely';
import { param } from '../../db/query-templates.js';
import { readAutoFields, type AutoFields, type EnrichedField } from '../../intelligence/enrichment/fields.js';
import { normalizeText } from '../../schemas/normalize.js';
import type { Company } from '../../schemas/resources.js';
import { containsPattern, newestFirstPage, type Page, type PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { KeyedTenantRepository } from './tenant-repository.js';

/** A company as written: `auto_fields` names the fields an automatic source wrote (absent: all written by a person or a client). */
export type NewCompany = Company & { auto_fields?: AutoFields };

/** How the dashboard's list of accounts is ordered (C9.4): newest, latest visit or highest account score first. */
export type AccountOrder = '-created_at' | '-last_seen' | '-account_score';

/** A company in the dashboard's list of accounts, with what it is sorted by and how many people and visitors it has. */
export type AccountItem = Company & { last_seen: string | null; account_score: number | null; people: number; visitors: number };

export interface CompanyFilters {
  /** case-insensitive substring of the name; % and _ are literal */
  name?: string;
  /** case-insensitive exact domain */
  domain?: string;
}

const COLUMNS = ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'] as const;
/** how much later a visit must be to move a company's last_seen (recordSeen) */
const SEEN_SLACK_MS = 60_000;

export class CompaniesRepository extends KeyedTenantRepository {
  protected readonly table = 'companies' as const;

  findById(id: string): Promise<Company | undefined> {
    return this.scope.selectFrom('companies').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** These companies (a page of identities' companies at once: the draft count of a segment rule). */
  async findByIds(ids: readonly string[]): Promise<Company[]> {
    if (ids.length === 0) return [];
    return this.scope.selectFrom('companies').select(COLUMNS).where('id', 'in', ids).execute();
  }

  /** The newest companies' fields (suggestions in the segment builder, C9.6). */
  async newest(limit: number): Promise<Company[]> {
    return this.scope.selectFrom('companies').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** The name of each of these companies (a page of leads names its companies: C9.3). */
  async labelsByIds(ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return this.scope.selectFrom('companies').select(['id', 'name']).where('id', 'in', ids).execute();
  }

  list(filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.scope.snapshot((scope) => newestFirstPage(this.codec, this.matching(scope, filters), COLUMNS, page));
  }

  /** The companies of the scope's workspace that the list's filters keep (the list, the accounts and the export read them). */
  matching(scope: TenantScope, filters: CompanyFilters) {
    let query = scope.selectFrom('companies');
    if (filters.name !== undefined) {
      const pattern = containsPattern(normalizeText(filters.name));
      query = query.where(sql<boolean>`${sql.ref('name_normalized')} like ${pattern} escape '\\'`);
    }
    if (filters.domain !== undefined) query = query.where('domain_normalized', '=', normalizeText(filters.domain));
    return query;
  }

  /** The oldest company with this domain (compared lower-case), C6.1. */
  async findByDomain(domain: string): Promise<Company | undefined> {
    return this.scope
      .template('companies.byDomain', (q) =>
        q.selectFrom('companies').select(COLUMNS).where('domain_normalized', '=', param('domain')).orderBy('created_at').orderBy('id').limit(1),
      )
      .first({ domain: normalizeText(domain) });
  }

  /** The oldest company with this name (compared lower-case): a network's organisation, C6.1. */
  async findByName(name: string): Promise<Company | undefined> {
    return this.scope
      .template('companies.byName', (q) =>
        q.selectFrom('companies').select(COLUMNS).where('name_normalized', '=', param('name')).orderBy('created_at').orderBy('id').limit(1),
      )
      .first({ name: normalizeText(name) });
  }

  /** A company with the sources of its fields (C6.7). */
  async findWithSources(id: string): Promise<{ company: Company; auto: AutoFields } | undefined> {
    const row = await this.scope.selectFrom('companies').select([...COLUMNS, 'auto_fields']).where('id', '=', id).executeTakeFirst();
    if (row === undefined) return undefined;
    const { auto_fields, ...company } = row;
    return { company, auto: readAutoFields(auto_fields) };
  }

  /** Writes fields an automatic source found, and the sources of the fields (C6.7); answers the company as it is now. */
  async writeFound(id: string, changes: Partial<Record<EnrichedField, string>>, auto: AutoFields): Promise<Company | undefined> {
    const values: Record<string, string> = { ...changes, auto_fields: this.codec.json(auto as Record<string, string>) };
    if (changes.name !== undefined) values.name_normalized = normalizeText(changes.name);
    return this.scope.updateTable('companies').set(values).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
  }

  /**
   * Records visits to companies (C6.9): each company's last_seen moves to its
   * instant when that is more than a minute later (so a busy company's row
   * is not written by every batch). Rows are written in id order, so
   * concurrent transactions wait for each other, never in a circle.
   */
  async recordSeen(seen: ReadonlyMap<string, string>): Promise<void> {
    const statement = this.scope.template('companies.recordSeen', (q) =>
      q
        .updateTable('companies')
        .set({ last_seen: param('at') })
        .where('id', '=', param('id'))
        .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', param('before'))])),
    );
    for (const id of [...seen.keys()].sort()) {
      const at = seen.get(id) as string;
      await statement.all({ id, at, before: new Date(Date.parse(at) - SEEN_SLACK_MS).toISOString() });
    }
  }

  /** When each of the companies was last seen (C6.9): what an alert on a company's return compares with (C10.1). */
  async lastSeen(ids: readonly string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.scope.selectFrom('companies').select(['id', 'last_seen']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row.last_seen]));
  }

  /** Writes a company's account score (C6.9), when it changed. */
  async setAccountScore(id: string, score: number): Promise<void> {
    await this.scope
      .template('companies.setAccountScore', (q) =>
        q
          .updateTable('companies')
          .set({ account_score: param<number>('score') })
          .where('id', '=', param('id'))
          .where((eb) => eb.or([eb('account_score', 'is', null), eb('account_score', '<>', param<number>('score'))])),
      )
      .all({ id, score });
  }

  /**
   * The dashboard's list of accounts (C9.4): companies as `list` filters
   * them, ordered by `order` (companies never seen, or not scored yet,
   * last), each with its people (identities linked to it) and visitors.
   */
  listAccounts(filters: CompanyFilters, order: AccountOrder, page: Page): Promise<PageResult<AccountItem>> {
    return this.scope.snapshot(async (scope) => {
      const matching = this.matching(scope, filters);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      let ordered = matching.select([...COLUMNS, 'last_seen', 'account_score']).select([
        scope
          .selectFrom('identities')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('identities.company_id', '=', sql<string>`${sql.ref('companies.id')}`)
          .as('people'),
        scope
          .selectFrom('visitors')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('visitors.company_id', '=', sql<string>`${sql.ref('companies.id')}`)
          .as('visitors'),
      ]);
      if (order === '-created_at') ordered = ordered.orderBy('created_at', 'desc');
      else if (order === '-last_seen') ordered = ordered.orderBy('last_seen', (direction) => direction.desc().nullsLast());
      else ordered = ordered.orderBy('account_score', (direction) => direction.desc().nullsLast());
      const rows = await ordered.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
      return {
        items: rows.map((row) => ({
          ...row,
          account_score: row.account_score === null ? null : Number(row.account_score),
          people: this.codec.count(row.people),
          visitors: this.codec.count(row.visitors),
        })),
        total: this.codec.count(counted.total),
      };
    });
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(companies: readonly NewCompany[]): Promise<number> {
    return this.scope.insertRows(
      'companies',
      companies.map((company) => ({
        id: company.id,
        name: company.name,
        name_normalized: normalizeText(company.name),
        domain: company.domain,
        domain_normalized: company.domain === null ? null : normalizeText(company.domain),
        description: company.description,
        employees: company.employees,
        main_industry: company.main_industry,
        created_at: company.created_at,
        auto_fields: company.auto_fields === undefined ? null : this.codec.json(company.auto_fields as Record<string, string>),
      })),
    );
  }
}

/** The columns of a company as the API shows it, for other readers of the table (search, export). */
export { COLUMNS as COMPANY_COLUMNS };
