/**
 * A workspace's changes (CONTRACT C11.1): every event, written once by
 * emitEvent in the transaction of the change; the webhook deliveries are
 * fanned out from it (webhooks.repository.ts) and a replay reads it again.
 *
 * The feed reads in an order a stored cursor can resume from without
 * missing a row that commits later:
 * - SQLite has one writer at a time, so `position` (the rowid) is commit
 *   order: rows after the cursor's position.
 * - PostgreSQL hands out positions before commit, so a later position can
 *   commit first. Each row keeps its transaction's id (`xid`); a read serves
 *   only rows whose transaction is older than the oldest still running
 *   (`pg_snapshot_xmin(pg_current_snapshot())`, the visible horizon), in
 *   (xid, position) order. Every row served is below the horizon of its
 *   read; every row not yet visible belongs to a transaction at or above it,
 *   so it sorts after everything served and a cursor never passes it.
 */
import { sql } from 'kysely';
import { TenantRepository } from './tenant-repository.js';

/** A place in the feed: the transaction id (always '0' on SQLite) and the position of the last row served. */
export interface FeedPosition {
  xid: string;
  position: string;
}

export interface ChangeRow {
  xid: string;
  position: string;
  id: string;
  type: string;
  payload: string;
  created_at: string;
}

/**
 * The row's transaction id, qualified: `order by xid` would name the output
 * column of the same name (its text, which sorts 10 before 9).
 */
const XID = sql.ref('changes.xid');

export const FEED_START: FeedPosition = { xid: '0', position: '0' };

export class ChangesRepository extends TenantRepository {
  /** Writes one event; call it in the transaction of the change. Returns its id and the payload its deliveries send. */
  async append(type: string, data: unknown, at: string): Promise<{ id: string; payload: string }> {
    const id = `msg_${crypto.randomUUID().replace(/-/g, '')}`;
    const payload = JSON.stringify({ type, timestamp: at, data });
    // one compiled statement (insertRows): building and compiling the INSERT anew cost half of this row's time (issue 24)
    await this.scope.insertRows('changes', [{ id, type, payload, created_at: at }]);
    return { id, payload };
  }

  /** Up to `limit` rows after `after`, of `types` (all when undefined), in feed order, below the visible horizon on PostgreSQL. */
  async feed(after: FeedPosition, types: readonly string[] | undefined, limit: number): Promise<ChangeRow[]> {
    return this.scope.snapshot(async (scope) => {
      let query = scope.selectFrom('changes').select(['position', 'id', 'type', 'payload', 'created_at']);
      if (types !== undefined) query = query.where('type', 'in', types);
      if (this.codec.kind === 'sqlite') {
        const rows = await query.where('position', '>', Number(after.position)).orderBy('position').limit(limit).execute();
        return rows.map((row) => ({ ...row, xid: '0', position: String(row.position) }));
      }
      const rows = await query
        .select(sql<string>`${XID}::text`.as('xid_text'))
        .where(sql<boolean>`${XID} < pg_snapshot_xmin(pg_current_snapshot())`)
        .where(sql<boolean>`(${XID}, ${sql.ref('changes.position')}) > (${after.xid}::xid8, ${after.position}::bigint)`)
        .orderBy(XID)
        .orderBy('position')
        .limit(limit)
        .execute();
      return rows.map(({ xid_text, ...row }) => ({ ...row, xid: xid_text, position: String(row.position) }));
    });
  }

  /** Up to `limit` events of `types` created at or after `since`, after `after` in feed order, committed or not yet past the horizon (a replay). */
  async since(since: string, types: readonly string[], after: FeedPosition, limit: number): Promise<ChangeRow[]> {
    if (types.length === 0) return [];
    const query = this.scope
      .selectFrom('changes')
      .select(['position', 'id', 'type', 'payload', 'created_at'])
      .where('created_at', '>=', since)
      .where('type', 'in', types);
    if (this.codec.kind === 'sqlite') {
      const rows = await query.where('position', '>', Number(after.position)).orderBy('position').limit(limit).execute();
      return rows.map((row) => ({ ...row, xid: '0', position: String(row.position) }));
    }
    const rows = await query
      .select(sql<string>`${XID}::text`.as('xid_text'))
      .where(sql<boolean>`(${XID}, ${sql.ref('changes.position')}) > (${after.xid}::xid8, ${after.position}::bigint)`)
      .orderBy(XID)
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map(({ xid_text, ...row }) => ({ ...row, xid: xid_text, position: String(row.position) }));
  }

  /** Deletes up to `limit` events created before `before` (the 30-day retention); returns how many. */
  async prune(before: string, limit: number): Promise<number> {
    const result = await this.scope
      .deleteFrom('changes')
      .where('position', 'in', this.scope.selectFrom('changes').select('position').where('created_at', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
