/**
 * A workspace's webhook endpoints (CONTRACT C8.5): create (the `whsec_`
 * secret is answered this once), list, read, update, delete; the delivery
 * log of an endpoint; a test event on demand. URLs on loopback or private
 * addresses are refused (400) unless WEBHOOK_ALLOW_PRIVATE=1, and checked
 * again at every delivery (webhooks/targets.ts). A delivery can be sent
 * again at once, and every event since a time replayed from the changes
 * feed with its own webhook-id (C11.2).
 */
import { DEFAULT_WEBHOOKS, type WebhookConfig } from '../../config.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { DeliveryRow, WebhookChanges, WebhookRow } from '../../repositories/tenant/webhooks.repository.js';
import { FEED_START, type FeedPosition } from '../../repositories/tenant/changes.repository.js';
import { formatInstant, now, parseInstant } from '../../schemas/instants.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { CHANGE_RETENTION_DAYS } from './changes.service.js';
import { TEST_EVENT, WEBHOOK_EVENTS } from '../webhooks/events.js';
import { newWebhookSecret } from '../webhooks/signing.js';
import { refusalOf } from '../webhooks/targets.js';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** active, or failing after repeated failed deliveries */
  status: 'active' | 'failing';
  created_at: string;
  updated_at: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  log: { attempt: number; at: string; response_code: number | null; duration_ms: number; error: string | null }[];
}

function shown(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function delivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    message_id: row.message_id,
    event_type: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_response_code: row.last_response_code === null ? null : Number(row.last_response_code),
    last_duration_ms: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    log: JSON.parse(row.log) as Delivery['log'],
  };
}

/** events read and queued per statement of a replay */
const REPLAY_CHUNK = 500;

export class WebhooksService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly config: WebhookConfig = DEFAULT_WEBHOOKS,
  ) {}

  private async checkTarget(url: string): Promise<void> {
    const refusal = await refusalOf(url, this.config.allowPrivate);
    if (refusal !== undefined) throw new InvalidRequestError(`url ${refusal}`, { fields: { url: refusal } });
  }

  private checkEvents(events: readonly string[]): void {
    const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
    if (unknown.length > 0 || events.length === 0) {
      throw new InvalidRequestError(`events must name at least one of ${WEBHOOK_EVENTS.join(', ')}`, {
        fields: { events: unknown.length > 0 ? `must name only known events (not ${unknown.join(', ')})` : 'must not be empty' },
      });
    }
  }

  async create(input: WebhookInput): Promise<Webhook & { secret: string }> {
    this.checkEvents(input.events);
    await this.checkTarget(input.url);
    const secret = newWebhookSecret();
    const row = await this.store.transaction((repos) =>
      repos.webhooks.insert({
        id: newId(),
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        secret,
        created_at: now(),
      }),
    );
    return { ...shown(row), secret };
  }

  async list(page: Page): Promise<PageResult<Webhook>> {
    const result = await this.store.repos.webhooks.list(page);
    return { items: result.items.map(shown), total: result.total };
  }

  async get(id: string): Promise<Webhook> {
    const row = await this.store.repos.webhooks.findById(pathId(id, 'webhook'));
    if (row === undefined) throw new NotFoundError('webhook');
    return shown(row);
  }

  async update(id: string, changes: WebhookChanges): Promise<Webhook> {
    const webhookId = pathId(id, 'webhook');
    if (changes.events !== undefined) this.checkEvents(changes.events);
    if (changes.url !== undefined) await this.checkTarget(changes.url);
    const row = await this.store.transaction((repos) =>
      repos.webhooks.update(webhookId, { ...changes, events: changes.events && [...new Set(changes.events)] }, now()),
    );
    if (row === undefined) throw new NotFoundError('webhook');
    return shown(row);
  }

  async delete(id: string): Promise<void> {
    const webhookId = pathId(id, 'webhook');
    const deleted = await this.store.transaction((repos) => repos.webhooks.delete(webhookId));
    if (!deleted) throw new NotFoundError('webhook');
  }

  async deliveries(id: string, page: Page): Promise<PageResult<Delivery>> {
    const webhookId = pathId(id, 'webhook');
    if (!(await this.store.repos.webhooks.exists(webhookId))) throw new NotFoundError('webhook');
    const result = await this.store.repos.webhooks.deliveries(webhookId, page);
    return { items: result.items.map(delivery), total: result.total };
  }

  /** Queues a `webhook.test` event for this endpoint alone (whatever it subscribes to). */
  async test(id: string): Promise<{ queued: number }> {
    const webhookId = pathId(id, 'webhook');
    const queued = await this.store.transaction(async (repos) => {
      if (!(await repos.webhooks.exists(webhookId))) throw new NotFoundError('webhook');
      return repos.webhooks.emitTest(webhookId, TEST_EVENT, { webhook_id: webhookId, message: 'a test event from Leadlight' }, now());
    });
    return { queued };
  }

  /** Makes one delivery of the endpoint due now, whatever its status (C11.2): the worker sends it at its next poll, same webhook-id. */
  async retry(id: string, deliveryId: string): Promise<Delivery> {
    const webhookId = pathId(id, 'webhook');
    if (!(await this.store.repos.webhooks.exists(webhookId))) throw new NotFoundError('webhook');
    const row = await this.store.transaction((repos) => repos.webhooks.retryDelivery(webhookId, pathId(deliveryId, 'delivery'), now()));
    if (row === undefined) throw new NotFoundError('delivery');
    return delivery(row);
  }

  /**
   * Queues again every event since `since` of the types the endpoint
   * subscribes to, oldest first, each with its own webhook-id and body
   * (C11.2); `since` must lie within the feed's retention.
   */
  async replay(id: string, since: string, at: number = Date.now()): Promise<{ queued: number }> {
    const webhookId = pathId(id, 'webhook');
    const parsed = parseInstant(since);
    if (parsed === null) throw new InvalidRequestError('since must be an ISO 8601 date-time', { fields: { since: 'must be an ISO 8601 date-time' } });
    const oldest = at - CHANGE_RETENTION_DAYS * 86_400_000;
    if (parsed.ms < oldest) {
      const problem = `must not be before ${formatInstant(oldest)}: events are kept ${CHANGE_RETENTION_DAYS} days`;
      throw new InvalidRequestError(`since ${problem}`, { fields: { since: problem } });
    }
    return this.store.transaction(async (repos) => {
      const webhook = await repos.webhooks.findById(webhookId);
      if (webhook === undefined) throw new NotFoundError('webhook');
      const queuedAt = now();
      let queued = 0;
      let after: FeedPosition = FEED_START;
      for (;;) {
        const rows = await repos.changes.since(formatInstant(parsed.ms), webhook.events, after, REPLAY_CHUNK);
        queued += await repos.webhooks.queue(
          rows.map((row) => ({ webhookId, change: row })),
          queuedAt,
        );
        const last = rows[rows.length - 1];
        if (last === undefined || rows.length < REPLAY_CHUNK) return { queued };
        after = { xid: last.xid, position: last.position };
      }
    });
  }
}
