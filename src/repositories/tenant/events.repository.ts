/**
 * All SQL about the event log of one workspace (CONTRACT C5.3, C5.8): the
 * ids received (ingestion is idempotent by id), the events themselves
 * (append-only), a visitor's recent events (read once, when the visitor is
 * first identified: C5.6) and the deletions of retention. Inserts take one
 * statement shape whatever the batch size (TenantScope.insertColumns).
 *
 * The ids are kept apart from the log on PostgreSQL only (`event_ids`: the
 * partitioned log cannot hold a uniqueness without its partition key). On
 * SQLite the log holds them itself, and one write transaction runs at a
 * time, so a batch reads which of its ids the log has, then appends the
 * others in the same transaction. There the log is kept in arrival order
 * (migration 0022a), so reads by time go through the visitor index.
 */
import { sql } from 'kysely';
import type { StoreKind } from '../../db/codec.js';
import { param } from '../../db/query-templates.js';
import { formatInstant } from '../../schemas/instants.js';
import type { EventsTable } from '../../db/schema.js';
import type { JsonObject } from '../../schemas/json.js';
import type { ColumnKind } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export type EventType = EventsTable['type'];

/** One event as the log holds it. */
export interface LoggedEvent {
  id: string;
  occurred_at: string;
  received_at: string;
  visitor_id: string;
  session_id: string;
  type: EventType;
  name: string | null;
  url: string | null;
  path: string | null;
  title: string | null;
  referrer: string | null;
  code: string | null;
  /** properties (track, conversion) or traits (identify) */
  data: JsonObject | null;
  ip: string | null;
  city: string | null;
  country: string | null;
}

const EVENT_COLUMNS: Record<keyof LoggedEvent, ColumnKind> = {
  id: 'uuid',
  occurred_at: 'timestamptz',
  received_at: 'timestamptz',
  visitor_id: 'uuid',
  session_id: 'uuid',
  type: 'text',
  name: 'text',
  url: 'text',
  path: 'text',
  title: 'text',
  referrer: 'text',
  code: 'text',
  data: 'jsonb',
  ip: 'text',
  city: 'text',
  country: 'text',
};

const SELECTED = Object.keys(EVENT_COLUMNS) as (keyof LoggedEvent)[];

/** Events received in [from, before): from the log's start when `from` is absent. */
export interface ArrivalWindow {
  from?: string;
  before: string;
}

/** how much of the log SQLite's retention walks in one statement (retentionWindows) */
const RETENTION_WINDOW_MS = 3_600_000;

/**
 * The log's key after the workspace, before the id: the time on PostgreSQL
 * (partitioned by month), the arrival on SQLite (migration 0022a: a batch's
 * events are neighbours there, so its commit writes few pages of the log).
 */
const logKey = (kind: StoreKind): 'occurred_at' | 'received_at' => (kind === 'sqlite' ? 'received_at' : 'occurred_at');

export class EventsRepository extends TenantRepository {
  /**
   * Records the ids of `events` as received; returns those that were not
   * received before (the others are duplicates: C5.3).
   */
  async claimIds(events: readonly { id: string; occurred_at: string }[]): Promise<Set<string>> {
    if (this.codec.kind === 'postgres') {
      const claimed = await this.scope.insertColumns('event_ids', { id: 'uuid', occurred_at: 'timestamptz' }, events, { skipTaken: true });
      return new Set(claimed);
    }
    const known = await this.scope
      .template('events.known', (q) =>
        q
          .selectFrom('events')
          .select('id')
          .where('id', 'in', sql<string>`(select value from json_each(${param('ids')}))`),
      )
      .all({ ids: JSON.stringify(events.map((event) => event.id)) });
    const taken = new Set(known.map((row) => row.id));
    return new Set(events.map((event) => event.id).filter((id) => !taken.has(id)));
  }

  /** Appends events to the log. */
  async append(events: readonly LoggedEvent[]): Promise<void> {
    await this.scope.insertColumns(
      'events',
      EVENT_COLUMNS,
      events.map((event) => ({ ...event, data: event.data === null ? null : this.codec.json(event.data) })),
    );
  }

  /**
   * The events of a visitor from `since` on, oldest first, at most `limit`.
   * The keys are found in the visitor index, then the rows by the log's key:
   * asked in one SELECT for every column in (time, id) order, SQLite's
   * planner (no statistics) walked the log's key over every event of the
   * workspace since `since`, the visitor's or not (tens of milliseconds on
   * the event loop per first identification under ingest: BENCHMARKS.md
   * "Ingest, round two").
   */
  async forVisitor(visitorId: string, since: string, limit: number): Promise<LoggedEvent[]> {
    const key = logKey(this.codec.kind);
    const rows = await this.scope
      .template('events.forVisitor', (q) =>
        q
          .selectFrom('events')
          .select(SELECTED)
          .where((eb) =>
            eb(
              eb.refTuple(key, 'id'),
              'in',
              q
                .selectFrom('events')
                .select([key, 'id'])
                .where('visitor_id', '=', param('visitor'))
                .where('occurred_at', '>=', param('since'))
                .orderBy('occurred_at')
                .orderBy('id')
                .limit(param<number>('limit')) as never,
            ),
          )
          .orderBy('occurred_at')
          .orderBy('id'),
      )
      .all({ visitor: visitorId, since, limit });
    return rows.map((row) => ({ ...row, data: this.codec.readNullableJson(row.data) }));
  }

  /**
   * The arrival windows retention deletes in, each in transactions of its
   * own (TrackingMaintenance): an event that happened before `cutoff` was
   * received before `receivedBefore` (an event is accepted at most 7 days
   * after its time: C5.3). PostgreSQL finds such events by time, in one
   * window. SQLite walks its log in arrival order (migration 0022a): first
   * what arrived before the cutoff, then the week after it an hour at a time,
   * since one walk of a week of arrivals, mostly rows that stay, would hold
   * the store's one connection for a second at ten million events a week.
   */
  retentionWindows(cutoff: number, receivedBefore: number): ArrivalWindow[] {
    if (this.codec.kind !== 'sqlite') return [{ before: formatInstant(receivedBefore) }];
    const windows: ArrivalWindow[] = [{ before: formatInstant(cutoff) }];
    for (let from = cutoff; from < receivedBefore; from += RETENTION_WINDOW_MS) {
      windows.push({ from: formatInstant(from), before: formatInstant(Math.min(from + RETENTION_WINDOW_MS, receivedBefore)) });
    }
    return windows;
  }

  /** Deletes up to `limit` events that happened before `cutoff` and were received in `window`; returns how many. */
  async deleteBefore(cutoff: string, window: ArrivalWindow, limit: number): Promise<number> {
    const key = logKey(this.codec.kind);
    const result = await this.scope
      .deleteFrom('events')
      .where((eb) =>
        eb(
          eb.refTuple(key, 'id'),
          'in',
          this.scope
            .selectFrom('events')
            .select([key, 'id'])
            .$if(window.from !== undefined, (q) => q.where('received_at', '>=', window.from!))
            .where('received_at', '<', window.before)
            .where('occurred_at', '<', cutoff)
            .limit(limit) as never,
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Forgets up to `limit` received ids of events that happened before
   * `before`: such an event is ignored anyway (C5.3), so its id can never be
   * accepted twice. Returns how many.
   */
  async pruneIds(before: string, limit: number): Promise<number> {
    // SQLite: the ids leave with their events (deleteBefore)
    if (this.codec.kind !== 'postgres') return 0;
    const result = await this.scope
      .deleteFrom('event_ids')
      .where('id', 'in', this.scope.selectFrom('event_ids').select('id').where('occurred_at', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
