/**
 * All SQL about the leads of one workspace. Every insert also counts the lead
 * in lead_counts, in the same transaction, so that list totals stay exact
 * (lead-totals.ts). The request paths run compiled templates (one per
 * statement shape: query-templates.ts).
 */
import type { Selectable, SelectQueryBuilder } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';
import type { JsonObject } from '../../schemas/json.js';
import type { Lead } from '../../schemas/resources.js';
import type { JsonChange } from '../json-change.js';
import { afterKey, type Keyset, type Page, type PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { bucketOf, LeadCountsRepository, nextDay, PendingCounts } from './lead-counts.repository.js';
import { filterValues, matching, shapeOf, type LeadFilters } from './lead-filters.js';
import { deleteNotesOf } from './lead-notes.repository.js';
import { byScore, oldestFirst, type Keyed, type LeadSort } from './lead-order.js';
import { countLeads, countLeadsCached, planTotal, totalExpression, totalKey } from './lead-totals.js';
import { offsetAnchorsOf } from './offset-anchors.js';
import { LeadText, leadJsonColumn } from './lead-text.js';
import { seenVersion, totalCacheOf, versionColumns, type TotalCache } from './total-cache.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export type { LeadFilters, LeadSort };

/** A page in a chosen order, with each lead's keyset in that order (for the next cursor). */
export interface SortedPage extends PageResult<Lead> {
  keys: Keyset[];
}

/** A lead to insert: its JSON fields are objects. */
export type NewLead = Omit<Lead, 'workspace_id' | 'properties' | 'location' | 'summary'> & {
  properties: JsonObject;
  location: JsonObject;
  summary: JsonObject | null;
};

export interface LeadChanges {
  properties?: JsonChange;
  location?: JsonChange;
  summary?: JsonChange<JsonObject | null>;
  company_id?: string | null;
}

/** A lead as scoring reads it. */
export interface ScoredLead {
  id: string;
  summary: JsonObject | null;
  /** what the scorer last wrote into summary */
  auto: JsonObject | null;
  updated_at: string;
  company_id: string | null;
}

const COLUMNS = [
  'id',
  'visitor_id',
  'workspace_id',
  'code',
  'source',
  'created_at',
  'updated_at',
  'properties',
  'location',
  'identity_id',
  'session_id',
  'summary',
  'company_id',
] as const;

type LeadRow = Pick<Selectable<Schema['leads']>, (typeof COLUMNS)[number]>;
/** a lead's row as SQLite renders it (lead-text.ts) */
interface TextRow {
  id: string;
  created_at: string;
  lead_json: string;
}
type ListedRow = LeadRow | TextRow;

/** The columns of a listed lead: all of them, or (`text`) the id, the creation time and the response JSON. */
function selectLead<Q extends SelectQueryBuilder<Schema, 'leads', object>>(query: Q, text: boolean) {
  return (text ? query.select(['id', 'created_at']).select(leadJsonColumn().as('lead_json')) : query.select(COLUMNS)) as unknown as SelectQueryBuilder<
    Schema,
    'leads',
    ListedRow
  >;
}

/** from this offset on, pages are read through the index first (deepPage) */
const DEEP_OFFSET = 1000;

/** The leads matching `filters`, after the cursor position when there is one (keyset on created_at, id). */
function afterCursor(scope: TenantScope, filters: LeadFilters, after: Page['after']) {
  const query = matching(scope, filters);
  return after === undefined
    ? query
    : query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(param('afterAt'), param('afterId'))));
}

export class LeadsRepository extends KeyedTenantRepository {
  protected readonly table = 'leads' as const;

  async findById(id: string): Promise<Lead | undefined> {
    const row = await this.scope
      .template('leads.byId', (q) => q.selectFrom('leads').select(COLUMNS).where('id', '=', param('id')))
      .first({ id });
    return row && this.toLead(row);
  }

  /** A lead for a response: on SQLite as its JSON text (lead-text.ts), elsewhere as findById reads it. */
  async findText(id: string): Promise<Lead | LeadText | undefined> {
    if (this.codec.kind !== 'sqlite') return this.findById(id);
    const row = await this.scope
      .template('leads.textById', (q) => selectLead(q.selectFrom('leads'), true).where('id', '=', param('id')))
      .first({ id });
    return row && this.toListed(row, true);
  }

  /**
   * A company's leads (C9.4), newest first, and their exact total, in one
   * snapshot: read through leads_company_idx (migration 0020), so the cost
   * follows the company's own leads.
   */
  listByCompany(companyId: string, page: Page): Promise<PageResult<Lead>> {
    return this.scope.snapshot(async (scope) => {
      const matching = scope.selectFrom('leads').where('company_id', '=', companyId);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await afterKey(matching, page.after)
        .select(COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map((row) => this.toLead(row)), total: this.codec.count(counted.total) };
    });
  }

  /**
   * A page and its exact total. Near the start, one statement reads both
   * (the total as subqueries beside the rows: one snapshot, one round trip);
   * a deep page, or a page past the end (no row to carry the total), reads
   * them in one snapshot, statement by statement.
   */
  list(filters: LeadFilters, page: Page): Promise<PageResult<Lead>> {
    return this.listed(filters, page, false) as Promise<PageResult<Lead>>;
  }

  /** `list` for a response: on SQLite each lead as its JSON text (lead-text.ts), elsewhere as `list` reads it. */
  listText(filters: LeadFilters, page: Page): Promise<PageResult<Lead | LeadText>> {
    return this.listed(filters, page, this.codec.kind === 'sqlite');
  }

  private async listed(filters: LeadFilters, page: Page, text: boolean): Promise<PageResult<Lead | LeadText>> {
    const cache = this.totalCache();
    if (page.offset < DEEP_OFFSET) {
      const found = await this.pageWithTotal(filters, page, cache, text);
      if (found !== undefined) return { items: found.rows.map((row) => this.toListed(row, text)), total: found.total };
    }
    const anchors = cache === undefined ? undefined : offsetAnchorsOf(this.scope.connectionToken as object);
    return this.scope.snapshot(async (scope) => {
      if (cache === undefined || anchors === undefined) {
        const total = await countLeads(scope, filters);
        return { items: (await this.unanchoredRows(scope, filters, page, total, text)).map((row) => this.toListed(row, text)), total };
      }
      const { total, key, seen } = await countLeadsCached(scope, filters, cache);
      const deep = page.after === undefined && page.offset >= DEEP_OFFSET && page.offset < total;
      const nearest = deep ? anchors.nearest(key, seen, page.offset) : undefined;
      // an anchor far before the offset would step over more rows than the day counters leave (skipDays)
      const anchor = nearest !== undefined && page.offset - nearest.offset < DEEP_OFFSET ? nearest : undefined;
      const rows =
        anchor === undefined
          ? await this.unanchoredRows(scope, filters, page, total, text)
          : await this.pageRows(scope, filters, { limit: page.limit, offset: page.offset - anchor.offset, from: anchor }, text);
      const first = rows[0];
      const last = rows[rows.length - 1];
      if (deep && first !== undefined && last !== undefined) {
        anchors.remember(key, seen, [
          { offset: page.offset, at: first.created_at, id: first.id },
          { offset: page.offset + rows.length - 1, at: last.created_at, id: last.id },
        ]);
      }
      return { items: rows.map((row) => this.toListed(row, text)), total };
    });
  }

  /** The rows of a page read in a snapshot without an anchor: a deep page from its day on (skipDays), through the index. */
  private async unanchoredRows(scope: TenantScope, filters: LeadFilters, page: Page, total: number, text: boolean): Promise<ListedRow[]> {
    if (page.after === undefined && page.offset >= DEEP_OFFSET && page.offset < total) {
      const skipped = await this.skipDays(new LeadCountsRepository(scope), filters, page);
      if (skipped !== undefined) ({ filters, page } = skipped);
    }
    return page.offset < DEEP_OFFSET ? this.pageRows(scope, filters, page, text) : this.deepPage(scope, filters, page, text);
  }

  /**
   * A page in `sort`'s order (C9.3) and its exact total, in one snapshot.
   * Newest first is `list`; the other orders are lead-order.ts.
   */
  async listSorted(sort: LeadSort, filters: LeadFilters, page: Page): Promise<SortedPage> {
    if (sort === '-created_at') {
      const result = await this.list(filters, page);
      return { ...result, keys: result.items.map((lead) => ({ at: lead.created_at, id: lead.id })) };
    }
    return this.scope.snapshot(async (scope) => {
      const total = await countLeads(scope, filters);
      const keyed: Keyed<LeadRow>[] =
        sort === 'created_at'
          ? await oldestFirst<typeof COLUMNS, LeadRow>(scope, COLUMNS, filters, page)
          : await byScore<typeof COLUMNS, LeadRow>(scope, this.codec, COLUMNS, sort, filters, page);
      return { items: keyed.map(({ row }) => this.toLead(row)), keys: keyed.map(({ key }) => key), total };
    });
  }

  /**
   * The totals this repository's lists may remember: SQLite's, outside
   * transactions (a list inside a write transaction could see rows that are
   * rolled back later); none on PostgreSQL.
   */
  private totalCache(): TotalCache | undefined {
    if (this.codec.kind !== 'sqlite') return undefined;
    const token = this.scope.connectionToken;
    return token === undefined ? undefined : totalCacheOf(token);
  }

  /**
   * The rows of a page and the total of the list, or undefined when the page
   * is empty (no row to carry the total). With `cache`: when a total is
   * remembered, the page is read with the store's version and given the
   * remembered total if the version is the same; otherwise (or if it is
   * not) with its total and the version, which is remembered.
   */
  private async pageWithTotal(
    filters: LeadFilters,
    page: Page,
    cache: TotalCache | undefined,
    text: boolean,
  ): Promise<{ rows: ListedRow[]; total: number } | undefined> {
    const plan = planTotal(filters);
    const { after } = page;
    const shape = `${shapeOf(filters)}${after === undefined ? '' : ':after'}${text ? ':text' : ''}`;
    const values = { ...plan.values, limit: page.limit, offset: page.offset, afterAt: after?.at, afterId: after?.id };
    const key = cache === undefined ? '' : totalKey(this.scope.workspaceId, plan);
    if (cache !== undefined && cache.has(key)) {
      const rows = await this.scope
        .template(`leads.pageVersioned:${shape}`, (q) =>
          selectLead(afterCursor(q, filters, after), text)
            .select(() => versionColumns())
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(param<number>('limit'))
            .offset(param<number>('offset')),
        )
        .all(values);
      const first = rows[0];
      const total = first === undefined ? undefined : cache.get(key, seenVersion(first));
      if (total !== undefined) return { rows, total };
    }
    const rows = await this.scope
      .template(`leads.pageWithTotal:${shape}:${plan.shape}${cache === undefined ? '' : ':versioned'}`, (q) => {
        const selected = selectLead(afterCursor(q, filters, after), text).select((eb) => totalExpression(q, plan, eb).as('total'));
        return (cache === undefined ? selected : selected.select(() => versionColumns()))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param<number>('limit'))
          .offset(param<number>('offset'));
      })
      .all(values);
    const first = rows[0] as { total: unknown; store_version?: unknown; store_changes?: unknown } | undefined;
    if (first === undefined) return undefined;
    const total = this.codec.count(first.total as number);
    if (cache !== undefined) cache.remember(key, seenVersion(first), total);
    return { rows, total };
  }

  /**
   * The rows of a page near the start, without its total; or of a page
   * `from` an anchor: the rows at or after its keyset, `offset` of them
   * stepped over (offset-anchors.ts).
   */
  private pageRows(scope: TenantScope, filters: LeadFilters, page: Page & { from?: Keyset }, text: boolean): Promise<ListedRow[]> {
    const { after, from } = page;
    const position = from ?? after;
    const suffix = `${from !== undefined ? ':from' : after !== undefined ? ':after' : ''}${text ? ':text' : ''}`;
    return scope
      .template(`leads.page:${shapeOf(filters)}${suffix}`, (q) => {
        const query =
          from === undefined
            ? afterCursor(q, filters, after)
            : matching(q, filters).where((eb) => eb(eb.refTuple('created_at', 'id'), '<=', eb.tuple(param('afterAt'), param('afterId'))));
        return selectLead(query, text)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param<number>('limit'))
          .offset(param<number>('offset'));
      })
      .all({ ...filterValues(filters), limit: page.limit, offset: page.offset, afterAt: position?.at, afterId: position?.id });
  }

  /**
   * A deep page of leads filtered at most by source starts on a known day:
   * the counters say which day holds the row at the offset and how many rows
   * lie on the days after it, so the page is read from that day on with the
   * offset that remains, instead of walking every row before it. The same
   * snapshot holds the counters and the rows, so they agree.
   */
  private async skipDays(counts: LeadCountsRepository, filters: LeadFilters, page: Page): Promise<{ filters: LeadFilters; page: Page } | undefined> {
    if (filters.code !== undefined || filters.createdAfter !== undefined || filters.createdBefore !== undefined) return undefined;
    const found = await counts.dayAt(bucketOf(filters.source), page.offset);
    if (found === undefined) return undefined;
    return {
      filters: { ...filters, createdBefore: nextDay(found.day) },
      page: { limit: page.limit, offset: page.offset - found.rowsAfter },
    };
  }

  /**
   * A page far from the start, in two steps: the ids of the page, found by
   * walking the index alone (no row is read for the rows skipped), then those
   * rows by primary key. On PostgreSQL that avoids a heap fetch for every
   * skipped row (BENCHMARKS.md, "Figures behind design decisions"). Two statements rather than a
   * join, because with prepared statements neither store plans such a join
   * well (the planners cannot see the limit: docs/postgres-plans.md).
   */
  private async deepPage(scope: TenantScope, filters: LeadFilters, page: Page, text: boolean): Promise<ListedRow[]> {
    const values = { ...filterValues(filters), limit: page.limit, offset: page.offset };
    const ids = await scope
      .template(`leads.pageIds:${shapeOf(filters)}`, (q) =>
        matching(q, filters)
          .select('id')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param<number>('limit'))
          .offset(param<number>('offset')),
      )
      .all(values);
    if (ids.length === 0) return [];
    const byId: Record<string, unknown> = {};
    ids.forEach((row, index) => (byId[`id${index}`] = row.id));
    const rows = await scope
      .template(`leads.byIds:${ids.length}${text ? ':text' : ''}`, (q) =>
        selectLead(q.selectFrom('leads'), text).where(
            'id',
            'in',
            ids.map((_, index) => param(`id${index}`)),
          ),
      )
      .all(byId);
    const position = new Map(ids.map((row, index) => [row.id, index]));
    return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  }

  /** Inserts a lead and counts it, in one transaction. */
  insert(lead: NewLead): Promise<Lead> {
    return this.scope.inTransaction(async (scope) => {
      await scope.insertRows('leads', [this.toRow(lead)]);
      await new LeadCountsRepository(scope).add(new PendingCounts().add([lead]));
      return { ...lead, workspace_id: scope.workspaceId };
    });
  }

  /**
   * Inserts leads and counts them, in one transaction. Returns how many were
   * written. A bulk writer may pass `pending` to gather the counts of many
   * calls and write them once (LeadCountsRepository.add) in the same transaction.
   */
  insertMany(leads: readonly NewLead[], pending?: PendingCounts): Promise<number> {
    if (leads.length === 0) return Promise.resolve(0);
    return this.scope.inTransaction(async (scope) => {
      const written = await scope.insertRows('leads', leads.map((lead) => this.toRow(lead)));
      if (pending === undefined) await new LeadCountsRepository(scope).add(new PendingCounts().add(leads));
      else pending.add(leads);
      return written;
    });
  }

  /**
   * Gives the visitor's leads that have no identity this one (C5.7: a
   * conversion's lead gets its identity when its visitor is identified);
   * returns how many changed.
   */
  async identifyVisitor(visitorId: string, identityId: string, at: string): Promise<number> {
    const rows = await this.scope
      .template('leads.identifyVisitor', (q) =>
        q
          .updateTable('leads')
          .set({ identity_id: param('identity'), updated_at: param('at') })
          .where('visitor_id', '=', param('visitor'))
          .where('identity_id', 'is', null)
          .returning('id'),
      )
      .all({ visitor: visitorId, identity: identityId, at });
    return rows.length;
  }

  /**
   * Links the identity's leads that have no company to `companyId`, with
   * `match` as their properties.company_match (C6.1); returns how many changed.
   */
  async linkCompany(identityId: string, companyId: string, match?: JsonObject): Promise<number> {
    const rows = await this.scope
      .template(`leads.linkCompany:${match === undefined ? 'plain' : 'match'}`, (q) =>
        q
          .updateTable('leads')
          .set(
            match === undefined
              ? { company_id: param('company') }
              : { company_id: param('company'), properties: this.codec.mergePatch('properties', param('patch')) },
          )
          .where('identity_id', '=', param('identity'))
          .where('company_id', 'is', null)
          .returning('id'),
      )
      .all({ identity: identityId, company: companyId, patch: JSON.stringify({ company_match: match ?? null }) });
    return rows.length;
  }

  /**
   * Links the unidentified visitor's leads that have no company to
   * `companyId`, with `match` as their properties.company_match (C6.6: a
   * reverse DNS answer found after the leads were made; an identified
   * visitor's leads are linked through its identity); returns how many changed.
   */
  async linkVisitorCompany(visitorId: string, companyId: string, match: JsonObject): Promise<number> {
    const rows = await this.scope
      .template('leads.linkVisitorCompany', (q) =>
        q
          .updateTable('leads')
          .set({ company_id: param('company'), properties: this.codec.mergePatch('properties', param('patch')) })
          .where('visitor_id', '=', param('visitor'))
          .where('identity_id', 'is', null)
          .where('company_id', 'is', null)
          .returning('id'),
      )
      .all({ visitor: visitorId, company: companyId, patch: JSON.stringify({ company_match: match }) });
    return rows.length;
  }

  /**
   * The leads of a visitor, with what scoring reads of them (C6.2): those
   * without an identity, and, once the visitor is identified, those of its
   * identity too (a client may write a lead of an identified visitor without
   * its identity_id). Two statements, each on its partial index.
   */
  async scoredForVisitor(visitorId: string, identityId: string | null): Promise<ScoredLead[]> {
    const columns = ['id', 'summary', 'summary_auto', 'updated_at', 'company_id'] as const;
    const rows = await this.scope
      .template('leads.scoredUnidentified', (q) =>
        q.selectFrom('leads').select(columns).where('visitor_id', '=', param('visitor')).where('identity_id', 'is', null),
      )
      .all({ visitor: visitorId });
    if (identityId !== null) {
      rows.push(
        ...(await this.scope
          .template('leads.scoredIdentified', (q) =>
            q.selectFrom('leads').select(columns).where('identity_id', '=', param('identity')).where('visitor_id', '=', param('visitor')),
          )
          .all({ visitor: visitorId, identity: identityId })),
      );
    }
    return rows.map((row) => ({
      id: row.id,
      summary: this.codec.readNullableJson(row.summary),
      auto: this.codec.readNullableJson(row.summary_auto),
      updated_at: row.updated_at,
      company_id: row.company_id,
    }));
  }

  /** Writes a lead's summary and what the scorer wrote of it, unless the lead changed since it was read. */
  async writeScore(id: string, summary: JsonObject, auto: JsonObject, readAt: string, at: string): Promise<boolean> {
    const rows = await this.scope
      .template('leads.writeScore', (q) =>
        q
          .updateTable('leads')
          .set({ summary: param('summary'), summary_auto: param('auto'), updated_at: param('at') })
          .where('id', '=', param('id'))
          .where('updated_at', '=', param('read_at'))
          .returning('id'),
      )
      .all({ id, summary: JSON.stringify(summary), auto: JSON.stringify(auto), read_at: readAt, at });
    return rows.length > 0;
  }

  /**
   * Deletes the leads with this id, or of these visitors or identities, with
   * their notes (C9.3: a note belongs to its lead), and takes them out of
   * lead_counts, in one transaction (C8.4: totals stay exact). Returns the
   * leads deleted.
   */
  deleteWhere(where: { id?: string; visitorIds?: readonly string[]; identityIds?: readonly string[] }): Promise<Lead[]> {
    const { id, visitorIds = [], identityIds = [] } = where;
    if (id === undefined && visitorIds.length === 0 && identityIds.length === 0) return Promise.resolve([]);
    return this.scope.inTransaction(async (scope) => {
      const rows = await scope
        .deleteFrom('leads')
        .where((eb) =>
          eb.or([
            ...(id === undefined ? [] : [eb('id', '=', id)]),
            ...(visitorIds.length === 0 ? [] : [eb('visitor_id', 'in', visitorIds)]),
            ...(identityIds.length === 0 ? [] : [eb('identity_id', 'in', identityIds)]),
          ]),
        )
        .returning(COLUMNS)
        .execute();
      await deleteNotesOf(scope, rows.map((row) => row.id));
      await new LeadCountsRepository(scope).subtract(new PendingCounts().add(rows));
      return rows.map((row) => this.toLead(row));
    });
  }

  /** Applies `changes` in one UPDATE; undefined when the lead is not in the workspace. */
  async update(id: string, changes: LeadChanges, updatedAt: string): Promise<Lead | undefined> {
    const { codec } = this;
    const shape: string[] = [];
    const values: Record<string, unknown> = { id, updated_at: updatedAt };
    const set: Record<string, unknown> = { updated_at: param('updated_at') };
    for (const column of ['properties', 'location', 'summary'] as const) {
      const change = changes[column];
      if (change === undefined) continue;
      if (change.mode === 'replace') {
        shape.push(`${column}=`);
        set[column] = param(column);
        values[column] = change.value === null ? null : codec.json(change.value);
      } else {
        shape.push(`${column}+`);
        set[column] = codec.mergePatch(column, param(column));
        values[column] = codec.json(change.patch);
      }
    }
    if (changes.company_id !== undefined) {
      shape.push('company');
      set.company_id = param('company_id');
      values.company_id = changes.company_id;
    }
    const row = await this.scope
      .template(`leads.update:${shape.join(',')}`, (q) =>
        q.updateTable('leads').set(set).where('id', '=', param('id')).returning(COLUMNS),
      )
      .first(values);
    return row && this.toLead(row as LeadRow);
  }

  private toRow(lead: NewLead) {
    const { codec } = this;
    return {
      id: lead.id,
      visitor_id: lead.visitor_id,
      code: lead.code,
      source: lead.source,
      created_at: lead.created_at,
      updated_at: lead.updated_at,
      properties: codec.json(lead.properties),
      location: codec.json(lead.location),
      identity_id: lead.identity_id,
      session_id: lead.session_id,
      summary: codec.nullableJson(lead.summary),
      company_id: lead.company_id,
    };
  }

  private toListed(row: ListedRow, text: boolean): Lead | LeadText {
    if (!text) return this.toLead(row as LeadRow);
    const { id, created_at, lead_json } = row as TextRow;
    return new LeadText(id, created_at, lead_json);
  }

  /** JSON columns stay as stored text: responses pass them through unparsed. */
  toLead(row: LeadRow): Lead {
    const { codec } = this;
    return {
      id: row.id,
      visitor_id: row.visitor_id,
      workspace_id: row.workspace_id,
      code: row.code,
      source: row.source,
      created_at: row.created_at,
      updated_at: row.updated_at,
      properties: codec.storedJson(row.properties),
      location: codec.storedJson(row.location),
      identity_id: row.identity_id,
      session_id: row.session_id,
      summary: codec.storedNullableJson(row.summary),
      company_id: row.company_id,
    };
  }
}

/** The columns of a lead row, for other readers of the table (search, export). */
export { COLUMNS as LEAD_COLUMNS };
