/**
 * All SQL about the notes on a workspace's leads (CONTRACT C9.3): written
 * one at a time, listed newest first per lead with their exact total, and
 * deleted with their leads (leads.repository.ts deleteWhere calls
 * `deleteForLeads` in the same transaction).
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { LeadNote } from '../../schemas/resources.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

const COLUMNS = ['id', 'lead_id', 'body', 'author_type', 'author_id', 'author_name', 'created_at'] as const;

export type NoteRow = Pick<Selectable<Schema['lead_notes']>, (typeof COLUMNS)[number]>;

/** Deletes the notes of these leads; used inside the transaction that deletes the leads. */
export async function deleteNotesOf(scope: TenantScope, leadIds: readonly string[]): Promise<void> {
  for (let start = 0; start < leadIds.length; start += 500) {
    await scope.deleteFrom('lead_notes').where('lead_id', 'in', leadIds.slice(start, start + 500)).execute();
  }
}

export class LeadNotesRepository extends TenantRepository {
  async insert(note: NoteRow): Promise<LeadNote> {
    await this.scope.insertInto('lead_notes', [note]).execute();
    return toNote(note);
  }

  /** One note of a lead; undefined when the lead has no such note in this workspace. */
  async findById(leadId: string, id: string): Promise<LeadNote | undefined> {
    const row = await this.scope.selectFrom('lead_notes').select(COLUMNS).where('lead_id', '=', leadId).where('id', '=', id).executeTakeFirst();
    return row && toNote(row);
  }

  /** The notes of a lead, newest first (created_at, then id), and their total, in one snapshot. */
  list(leadId: string, page: Page): Promise<PageResult<LeadNote>> {
    return this.scope.snapshot(async (scope) => {
      const result = await newestFirstPage(this.codec, scope.selectFrom('lead_notes').where('lead_id', '=', leadId), COLUMNS, page);
      return { items: result.items.map((row) => toNote(row)), total: result.total };
    });
  }
}

function toNote(row: NoteRow): LeadNote {
  return {
    id: row.id,
    body: row.body,
    author: { type: row.author_type, id: row.author_id, name: row.author_name },
    created_at: row.created_at,
  };
}
