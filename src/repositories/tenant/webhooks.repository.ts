/**
 * A workspace's webhook endpoints (CONTRACT C8.5), and its outbox: the
 * deliveries, one row per event and endpoint, written by `emit` in the
 * transaction of the change that caused the event. The endpoints subscribed
 * to each event type are read once per transaction (a repository lives as
 * long as its scope), so a batch of changes costs one read.
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export type WebhookRow = Omit<Selectable<Schema['webhooks']>, 'workspace_id' | 'events' | 'enabled'> & {
  events: string[];
  enabled: boolean;
};

export type DeliveryRow = Omit<Selectable<Schema['webhook_deliveries']>, 'workspace_id'>;

export interface NewWebhook {
  id: string;
  url: string;
  events: readonly string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  created_at: string;
}

export interface WebhookChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  enabled?: boolean;
}

const COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'secret', 'status', 'consecutive_failures', 'created_at', 'updated_at'] as const;
const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'message_id',
  'event_type',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_response_code',
  'last_duration_ms',
  'last_error',
  'log',
  'created_at',
  'delivered_at',
] as const;

export class WebhooksRepository extends KeyedTenantRepository {
  protected readonly table = 'webhooks' as const;
  #enabled: Promise<WebhookRow[]> | undefined;

  async insert(webhook: NewWebhook): Promise<WebhookRow> {
    await this.scope
      .insertInto('webhooks', [
        {
          id: webhook.id,
          url: webhook.url,
          events: JSON.stringify(webhook.events),
          description: webhook.description,
          enabled: this.codec.kind === 'postgres' ? webhook.enabled : webhook.enabled ? 1 : 0,
          secret: webhook.secret,
          status: 'active',
          consecutive_failures: 0,
          created_at: webhook.created_at,
          updated_at: webhook.created_at,
        },
      ])
      .execute();
    this.#enabled = undefined;
    return { ...webhook, events: [...webhook.events], status: 'active', consecutive_failures: 0, updated_at: webhook.created_at };
  }

  async findById(id: string): Promise<WebhookRow | undefined> {
    const row = await this.scope.selectFrom('webhooks').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && this.toWebhook(row);
  }

  list(page: Page): Promise<PageResult<WebhookRow>> {
    return this.scope.snapshot(async (scope) => {
      const result = await newestFirstPage(this.codec, scope.selectFrom('webhooks'), COLUMNS, page);
      return { items: result.items.map((row) => this.toWebhook(row as never)), total: result.total };
    });
  }

  async update(id: string, changes: WebhookChanges, at: string): Promise<WebhookRow | undefined> {
    const set: Record<string, unknown> = { updated_at: at };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.enabled !== undefined) set.enabled = this.codec.kind === 'postgres' ? changes.enabled : changes.enabled ? 1 : 0;
    const row = await this.scope.updateTable('webhooks').set(set).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
    this.#enabled = undefined;
    return row && this.toWebhook(row);
  }

  /** Deletes the endpoint and its deliveries; false when it is not the workspace's. */
  async delete(id: string): Promise<boolean> {
    await this.scope.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    const result = await this.scope.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
    this.#enabled = undefined;
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Writes one delivery of the event for every enabled endpoint subscribed
   * to `type` (or only to `onlyWebhook`, for a test event); call it in the
   * transaction of the change. Returns the deliveries written.
   */
  async emit(type: string, data: unknown, at: string, onlyWebhook?: string): Promise<number> {
    const targets =
      onlyWebhook === undefined
        ? (await this.enabled()).filter((webhook) => webhook.events.includes(type))
        : [await this.findById(onlyWebhook)].filter((webhook): webhook is WebhookRow => webhook !== undefined);
    if (targets.length === 0) return 0;
    const payload = JSON.stringify({ type, timestamp: at, data });
    const rows = targets.map((webhook) => {
      const id = crypto.randomUUID();
      return {
        id,
        webhook_id: webhook.id,
        message_id: `msg_${id.replace(/-/g, '')}`,
        event_type: type,
        payload,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: at,
        locked_until: null,
        last_response_code: null,
        last_duration_ms: null,
        last_error: null,
        log: '[]',
        created_at: at,
        delivered_at: null,
      };
    });
    await this.scope.insertInto('webhook_deliveries', rows).execute();
    return rows.length;
  }

  /** The deliveries of one endpoint, newest first. */
  deliveries(webhookId: string, page: Page): Promise<PageResult<DeliveryRow>> {
    return this.scope.snapshot(async (scope) => {
      const matching = scope.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      let rows = matching;
      const { after } = page;
      if (after !== undefined) rows = rows.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.at, after.id)));
      const items = await rows
        .select(DELIVERY_COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items, total: this.codec.count(counted.total) };
    });
  }

  /** Deletes up to `limit` settled deliveries (delivered or failed) created before `before`; returns how many. */
  async pruneDeliveries(before: string, limit: number): Promise<number> {
    const result = await this.scope
      .deleteFrom('webhook_deliveries')
      .where(
        'id',
        'in',
        this.scope
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('created_at', '<', before)
          .where('status', 'in', ['delivered', 'failed'])
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private enabled(): Promise<WebhookRow[]> {
    // a compiled template: every write that may emit an event asks this once
    this.#enabled ??= this.scope
      .template('webhooks.enabled', (q) =>
        q
          .selectFrom('webhooks')
          .select(COLUMNS)
          .where('enabled', '=', this.codec.kind === 'postgres' ? true : 1),
      )
      .all({})
      .then((rows) => rows.map((row) => this.toWebhook(row)));
    return this.#enabled;
  }

  private toWebhook(row: Pick<Selectable<Schema['webhooks']>, (typeof COLUMNS)[number]>): WebhookRow {
    const events: unknown = typeof row.events === 'string' ? JSON.parse(row.events) : row.events;
    return {
      ...row,
      events: Array.isArray(events) ? (events as string[]) : [],
      enabled: row.enabled === true || row.enabled === 1,
      consecutive_failures: Number(row.consecutive_failures),
    };
  }
}
