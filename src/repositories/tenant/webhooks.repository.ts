/**
 * A workspace's webhook endpoints (CONTRACT C8.5), and its outbox: the
 * deliveries, one row per event and endpoint, fanned out by `fanOut` from
 * the change (changes.repository.ts) in the transaction that caused it. The endpoints subscribed
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

/** An event as the outbox sends it: its id (the webhook-id), type and body. */
export interface Change {
  id: string;
  type: string;
  payload: string;
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
   * Writes one delivery of a change (changes.repository.ts) for every
   * enabled endpoint subscribed to its type, with the change's id as the
   * webhook-id; call it in the transaction of the change. Returns the
   * deliveries written.
   */
  async fanOut(change: Change, at: string): Promise<number> {
    const targets = (await this.enabled()).filter((webhook) => webhook.events.includes(change.type));
    return this.queue(targets.map((webhook) => ({ webhookId: webhook.id, change })), at);
  }

  /** Writes a delivery of a `webhook.test` event for one endpoint (not a change: it has its own webhook-id). */
  async emitTest(webhookId: string, type: string, data: unknown, at: string): Promise<number> {
    const id = `msg_${crypto.randomUUID().replace(/-/g, '')}`;
    return this.queue([{ webhookId, change: { id, type, payload: JSON.stringify({ type, timestamp: at, data }) } }], at);
  }

  /** Writes deliveries due at `at`, each with its change's id as webhook-id and its payload (a replay, C11.2). */
  async queue(deliveries: readonly { webhookId: string; change: Change }[], at: string): Promise<number> {
    if (deliveries.length === 0) return 0;
    this.scope.noteOutboxWrite('webhooks');
    const rows = deliveries.map(({ webhookId, change }) => ({
      id: crypto.randomUUID(),
      webhook_id: webhookId,
      message_id: change.id,
      event_type: change.type,
      payload: change.payload,
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
    }));
    await this.scope.insertInto('webhook_deliveries', rows).execute();
    return rows.length;
  }

  /** Makes one delivery of the endpoint due again at `at` (C11.2); false when the endpoint has no such delivery. */
  async retryDelivery(webhookId: string, deliveryId: string, at: string): Promise<DeliveryRow | undefined> {
    this.scope.noteOutboxWrite('webhooks');
    return this.scope
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: at, delivered_at: null })
      .where('webhook_id', '=', webhookId)
      .where('id', '=', deliveryId)
      .returning(DELIVERY_COLUMNS)
      .executeTakeFirst();
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
