/**
 * The rules of notes on leads (CONTRACT C9.3): a note is written on a lead
 * of the workspace (404 otherwise) by a dashboard user or an API key, whose
 * name is kept as it was then; `note.created` fires in the same transaction.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import { now } from '../../schemas/instants.js';
import type { LeadNote } from '../../schemas/resources.js';
import { NotFoundError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { emitEvent } from '../webhooks/events.js';

export type NoteAuthor = LeadNote['author'];

export class LeadNotesService {
  constructor(private readonly store: WorkspaceStore) {}

  /** A lead's notes, newest first; 404 for a lead that is not the workspace's. */
  list(leadId: string, page: Page): Promise<PageResult<LeadNote>> {
    const id = pathId(leadId, 'lead');
    return this.store.transaction(async (repos) => {
      if (!(await repos.leads.exists(id))) throw new NotFoundError('lead');
      return repos.leadNotes.list(id, page);
    });
  }

  /** One note of one of the workspace's leads; 404 otherwise. */
  async get(leadId: string, noteId: string): Promise<LeadNote> {
    const note = await this.store.repos.leadNotes.findById(pathId(leadId, 'lead'), pathId(noteId, 'note'));
    if (note === undefined) throw new NotFoundError('note');
    return note;
  }

  create(leadId: string, body: string, author: NoteAuthor): Promise<LeadNote> {
    const id = pathId(leadId, 'lead');
    const createdAt = now();
    return this.store.transaction(async (repos) => {
      if (!(await repos.leads.exists(id))) throw new NotFoundError('lead');
      const note = await repos.leadNotes.insert({
        id: newId(),
        lead_id: id,
        body,
        author_type: author.type,
        author_id: author.id,
        author_name: author.name,
        created_at: createdAt,
      });
      await emitEvent(repos, 'note.created', { ...note, lead_id: id }, createdAt);
      return note;
    });
  }
}
