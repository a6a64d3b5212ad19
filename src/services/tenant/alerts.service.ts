/**
 * A workspace's alerts (CONTRACT C10.1, C10.2): create, list, read,
 * update, delete. A segment or webhook of another workspace is 403 (C3.7);
 * a Slack URL follows the webhook address rules (C8.5: no loopback or
 * private address unless WEBHOOK_ALLOW_PRIVATE=1).
 */
import { DEFAULT_WEBHOOKS, type WebhookConfig } from '../../config.js';
import type { TenantRepositories, WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { AlertChanges, AlertDeliveryRow, AlertRow } from '../../repositories/tenant/alerts.repository.js';
import { isUuid } from '../../schemas/fields.js';
import { now } from '../../schemas/instants.js';
import {
  DEFAULT_COOLDOWN_MINUTES,
  readDestination,
  readFilters,
  readTrigger,
  type AlertDestination,
  type AlertFacts,
  type AlertFilters,
  type AlertTrigger,
  type DestinationInput,
  type TriggerInput,
} from '../alerts/model.js';
import { ForbiddenReferenceError, InvalidRequestError, NotFoundError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { refusalOf } from '../webhooks/targets.js';

export type Alert = AlertRow;

export interface AlertInput {
  name: string;
  trigger: TriggerInput;
  filters?: AlertFilters;
  destination: DestinationInput;
  cooldown_minutes?: number;
  enabled?: boolean;
}

export type AlertUpdate = Partial<AlertInput>;

export type AlertDelivery = Omit<AlertDeliveryRow, 'payload' | 'locked_until' | 'log' | 'next_attempt_at'> & {
  next_attempt_at: string | null;
  log: { attempt: number; at: string; duration_ms: number; error: string | null }[];
};

function shownDelivery(row: AlertDeliveryRow): AlertDelivery {
  return {
    id: row.id,
    alert_id: row.alert_id,
    subject: row.subject,
    destination: row.destination,
    test: row.test,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    log: JSON.parse(row.log) as AlertDelivery['log'],
  };
}

/** The sample a test delivery tells about (POST /alerts/{id}/test). */
function sample(alert: AlertRow, at: string): AlertFacts {
  return {
    alert: { id: alert.id, name: alert.name },
    trigger: alert.trigger,
    subject: 'test',
    summary: 'viewed /pricing (a sample sent to test this alert)',
    person: null,
    company: null,
    visitor_id: null,
    country: 'US',
    score: 72,
    reasons: ['Viewed pricing 3 times in the last week', 'Works at a company in your ideal industries'],
    pages: ['/pricing', '/docs/getting-started', '/'],
    link: null,
    occurred_at: at,
    test: true,
  };
}

export class AlertsService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly config: WebhookConfig = DEFAULT_WEBHOOKS,
  ) {}

  /** The destination, its URL checked against C8.5's address rules. */
  private async destination(input: DestinationInput): Promise<AlertDestination> {
    const destination = readDestination(input);
    if (destination.type === 'slack') {
      const refusal = await refusalOf(destination.url, this.config.allowPrivate);
      if (refusal !== undefined) throw new InvalidRequestError(`destination.url ${refusal}`, { fields: { 'destination.url': refusal } });
    }
    return destination;
  }

  /** The references of a trigger and a destination belong to the workspace (else 403). */
  private async checkReferences(repos: TenantRepositories, trigger?: AlertTrigger, destination?: AlertDestination): Promise<void> {
    if (trigger?.type === 'segment_entered' && !(isUuid(trigger.list_id) && (await repos.lists.exists(trigger.list_id)))) {
      throw new ForbiddenReferenceError('trigger.list_id');
    }
    if (destination?.type === 'webhook' && !(isUuid(destination.webhook_id) && (await repos.webhooks.exists(destination.webhook_id)))) {
      throw new ForbiddenReferenceError('destination.webhook_id');
    }
  }

  async create(input: AlertInput): Promise<Alert> {
    const trigger = readTrigger(input.trigger);
    const filters = readFilters(input.filters);
    const destination = await this.destination(input.destination);
    return this.store.transaction(async (repos) => {
      await this.checkReferences(repos, trigger, destination);
      const at = now();
      return repos.alerts.insert({
        id: newId(),
        name: input.name,
        trigger,
        filters,
        destination,
        cooldown_minutes: input.cooldown_minutes ?? DEFAULT_COOLDOWN_MINUTES,
        enabled: input.enabled ?? true,
        created_at: at,
        updated_at: at,
      });
    });
  }

  list(page: Page): Promise<PageResult<Alert>> {
    return this.store.repos.alerts.list(page);
  }

  async get(id: string): Promise<Alert> {
    const row = await this.store.repos.alerts.findById(pathId(id, 'alert'));
    if (row === undefined) throw new NotFoundError('alert');
    return row;
  }

  async update(id: string, input: AlertUpdate): Promise<Alert> {
    const alertId = pathId(id, 'alert');
    const changes: AlertChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.trigger !== undefined) changes.trigger = readTrigger(input.trigger);
    if (input.filters !== undefined) changes.filters = readFilters(input.filters);
    if (input.destination !== undefined) changes.destination = await this.destination(input.destination);
    if (input.cooldown_minutes !== undefined) changes.cooldown_minutes = input.cooldown_minutes;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    const row = await this.store.transaction(async (repos) => {
      if (!(await repos.alerts.exists(alertId))) throw new NotFoundError('alert');
      await this.checkReferences(repos, changes.trigger, changes.destination);
      return repos.alerts.update(alertId, changes, now());
    });
    if (row === undefined) throw new NotFoundError('alert');
    return row;
  }

  async deliveries(id: string, page: Page): Promise<PageResult<AlertDelivery>> {
    const alertId = pathId(id, 'alert');
    if (!(await this.store.repos.alerts.exists(alertId))) throw new NotFoundError('alert');
    const result = await this.store.repos.alerts.deliveries(alertId, page);
    return { items: result.items.map(shownDelivery), total: result.total };
  }

  /** Queues a sample delivery to the alert's destination (whatever its cooldown, enabled or not). */
  async test(id: string): Promise<{ queued: number; delivery_id: string }> {
    const alertId = pathId(id, 'alert');
    const deliveryId = newId();
    await this.store.transaction(async (repos) => {
      const alert = await repos.alerts.findById(alertId);
      if (alert === undefined) throw new NotFoundError('alert');
      const at = now();
      await repos.alerts.enqueue({ id: deliveryId, alert_id: alert.id, subject: 'test', destination: alert.destination, payload: sample(alert, at), test: true, at });
    });
    return { queued: 1, delivery_id: deliveryId };
  }

  async delete(id: string): Promise<void> {
    const alertId = pathId(id, 'alert');
    const deleted = await this.store.transaction((repos) => repos.alerts.delete(alertId));
    if (!deleted) throw new NotFoundError('alert');
  }
}
