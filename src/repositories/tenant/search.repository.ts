/**
 * All SQL of the dashboard's search (C9.1): people whose name or email,
 * companies whose name or domain, and leads whose code contains a text,
 * case-insensitively, newest first, found through an index on both stores
 * (migration 0013a-search.ts): pg_trgm's GIN indexes serve `ILIKE` on
 * PostgreSQL; on SQLite the FTS5 trigram table of each searched table is
 * matched with the text as a phrase of trigrams, or, for two characters, with
 * every trigram of the index's vocabulary that begins with them. pg_trgm
 * cannot serve two characters: there the GIN index on the value's character
 * pairs (leadlight_pairs, migration 0013b) does.
 */
import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { Schema } from '../../db/schema.js';
import { TenantRepository } from './tenant-repository.js';

export interface PersonHit {
  id: string;
  name: string | null;
  email: string | null;
}

export interface CompanyHit {
  id: string;
  name: string;
  domain: string | null;
}

export interface LeadHit {
  id: string;
  code: string | null;
}

/** a phrase no row holds: what a two-character search matches when no trigram begins with it */
const NOTHING = `"${'\u0001'.repeat(3)}"`;

/** `text` as an FTS5 phrase */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** `text` as an ILIKE pattern: contains it, its wildcards taken literally */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

type Searched = 'identities' | 'companies' | 'leads';

/** PostgreSQL: `column` contains `text`, case-insensitively, through one of its GIN indexes (pairs for two characters, else trigrams) */
function contains<T extends Searched>(eb: ExpressionBuilder<Schema, T>, column: 'name' | 'email' | 'domain' | 'code', text: string) {
  if ([...text].length === 2) return sql<boolean>`leadlight_pairs(${sql.ref(column)}) @> ${sql.val([text.toLowerCase()])}::text[]`;
  return eb(sql.ref(column), 'ilike', containsPattern(text));
}

export class SearchRepository extends TenantRepository {
  async people(text: string, limit: number): Promise<PersonHit[]> {
    const query = this.scope.selectFrom('identities').select(['id', 'name', 'email']).limit(limit);
    if (this.codec.kind === 'sqlite') return query.where(this.#matches('identities', text, limit)).orderBy(sql`rowid`, 'desc').execute();
    return query
      .where((eb) => eb.or([contains(eb, 'name', text), contains(eb, 'email', text)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async companies(text: string, limit: number): Promise<CompanyHit[]> {
    const query = this.scope.selectFrom('companies').select(['id', 'name', 'domain']).limit(limit);
    if (this.codec.kind === 'sqlite') return query.where(this.#matches('companies', text, limit)).orderBy(sql`rowid`, 'desc').execute();
    return query
      .where((eb) => eb.or([contains(eb, 'name', text), contains(eb, 'domain', text)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async leads(text: string, limit: number): Promise<LeadHit[]> {
    const query = this.scope.selectFrom('leads').select(['id', 'code']).limit(limit);
    if (this.codec.kind === 'sqlite') return query.where(this.#matches('leads', text, limit)).orderBy(sql`rowid`, 'desc').execute();
    return query.where((eb) => contains(eb, 'code', text)).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** SQLite: the rows of `table` whose FTS5 trigram index holds `text` (the newest `limit` of the workspace's) */
  #matches(table: Searched, text: string, limit: number): RawBuilder<boolean> {
    const index = sql.raw(`${table}_search`);
    const lower = text.toLowerCase();
    const expression =
      [...lower].length >= 3
        ? sql`${phrase(lower)}`
        : sql`coalesce((select group_concat('"' || replace(term, '"', '""') || '"', ' OR ') from ${sql.raw(`${table}_search_vocab`)} where term >= ${lower} and term < ${`${lower}\u{10FFFF}`}), ${NOTHING})`;
    return sql<boolean>`rowid in (select rowid from ${index} where ${index} match ${expression} and workspace_id = ${this.workspaceId} order by rowid desc limit ${limit})`;
  }
}
