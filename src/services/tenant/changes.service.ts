/**
 * A workspace's changes feed (CONTRACT C11.1): every event of C8.5's
 * catalogue as `{id, type, timestamp, data}`, oldest first, from a stored
 * position; kept CHANGE_RETENTION_DAYS (the hourly upkeep prunes older ones).
 * The order and why a resumed reader never misses or repeats a change are
 * in repositories/tenant/changes.repository.ts and docs/changes.md.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import { FEED_START, type FeedPosition } from '../../repositories/tenant/changes.repository.js';
import { InvalidRequestError } from '../errors.js';
import { WEBHOOK_EVENTS } from '../webhooks/events.js';

export const CHANGE_RETENTION_DAYS = 30;

export interface ChangeEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

export interface ChangesPage {
  items: ChangeEvent[];
  /** the position after the page's last item (or the one it started from, when empty) */
  last: FeedPosition;
  /** whether more items may follow right now (the page was full) */
  more: boolean;
}

/** `types=a,b` as a list of known event types; undefined for every type. Unknown types are 400 (details.parameters). */
export function parseTypes(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const types = [...new Set(text.split(',').map((type) => type.trim()))];
  const unknown = types.filter((type) => !(WEBHOOK_EVENTS as readonly string[]).includes(type));
  if (unknown.length > 0 || types.length === 0) {
    const problem = `unknown event type${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`;
    throw new InvalidRequestError(`types: ${problem}`, { parameters: { types: problem } });
  }
  return types;
}

export class ChangesService {
  constructor(private readonly store: WorkspaceStore) {}

  /** Up to `limit` events after `after` (the start when undefined), of `types`. */
  async list(after: FeedPosition | undefined, types: readonly string[] | undefined, limit: number): Promise<ChangesPage> {
    const from = after ?? FEED_START;
    const rows = await this.store.repos.changes.feed(from, types, limit + 1);
    // the rows read may be committed and not yet synced (Store.durable): their positions are handed out only once they are on disk
    await this.store.durable();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => ({ id: row.id, ...(JSON.parse(row.payload) as Omit<ChangeEvent, 'id'>) })),
      last: last === undefined ? from : { xid: last.xid, position: last.position },
      more: rows.length > limit,
    };
  }
}
