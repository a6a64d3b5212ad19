/**
 * All SQL about a workspace's alert rules (CONTRACT C10.1): written by the
 * API and the dashboard, listed newest first, and the enabled ones read
 * once per transaction by trigger evaluation (a workspace has few).
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { AlertDestination, AlertFacts, AlertFilters, AlertTrigger } from '../../services/alerts/model.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export interface AlertRow {
  id: string;
  name: string;
  trigger: AlertTrigger;
  filters: AlertFilters;
  destination: AlertDestination;
  cooldown_minutes: number;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export type AlertDeliveryRow = Omit<Selectable<Schema['alert_deliveries']>, 'workspace_id' | 'destination' | 'payload' | 'test'> & {
  destination: AlertDestination;
  payload: AlertFacts;
  test: boolean;
};

export interface AlertChanges {
  name?: string;
  trigger?: AlertTrigger;
  filters?: AlertFilters;
  destination?: AlertDestination;
  cooldown_minutes?: number;
  enabled?: boolean;
}

const COLUMNS = ['id', 'name', 'trigger', 'filters', 'destination', 'cooldown_minutes', 'enabled', 'created_at', 'updated_at'] as const;

const DELIVERY_COLUMNS = [
  'id',
  'alert_id',
  'subject',
  'destination',
  'payload',
  'test',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_error',
  'log',
  'created_at',
  'delivered_at',
] as const;

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export class AlertsRepository extends KeyedTenantRepository {
  protected readonly table = 'alerts' as const;
  #enabled: Promise<AlertRow[]> | undefined;

  async insert(alert: AlertRow): Promise<AlertRow> {
    await this.scope
      .insertInto('alerts', [
        {
          ...alert,
          trigger: JSON.stringify(alert.trigger),
          filters: JSON.stringify(alert.filters),
          destination: JSON.stringify(alert.destination),
          enabled: this.codec.bool(alert.enabled),
        },
      ])
      .execute();
    this.#enabled = undefined;
    return alert;
  }

  async findById(id: string): Promise<AlertRow | undefined> {
    const row = await this.scope.selectFrom('alerts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && this.toAlert(row);
  }

  list(page: Page): Promise<PageResult<AlertRow>> {
    return this.scope.snapshot(async (scope) => {
      const result = await newestFirstPage(this.codec, scope.selectFrom('alerts'), COLUMNS, page);
      return { items: result.items.map((row) => this.toAlert(row as never)), total: result.total };
    });
  }

  async update(id: string, changes: AlertChanges, at: string): Promise<AlertRow | undefined> {
    const set: Record<string, unknown> = { updated_at: at };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.trigger !== undefined) set.trigger = JSON.stringify(changes.trigger);
    if (changes.filters !== undefined) set.filters = JSON.stringify(changes.filters);
    if (changes.destination !== undefined) set.destination = JSON.stringify(changes.destination);
    if (changes.cooldown_minutes !== undefined) set.cooldown_minutes = changes.cooldown_minutes;
    if (changes.enabled !== undefined) set.enabled = this.codec.bool(changes.enabled);
    const row = await this.scope.updateTable('alerts').set(set).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
    this.#enabled = undefined;
    return row && this.toAlert(row);
  }

  /** Deletes the alert, its cooldowns and its deliveries; false when it is not the workspace's. */
  async delete(id: string): Promise<boolean> {
    await this.scope.deleteFrom('alert_deliveries').where('alert_id', '=', id).execute();
    await this.scope.deleteFrom('alert_cooldowns').where('alert_id', '=', id).execute();
    const result = await this.scope.deleteFrom('alerts').where('id', '=', id).executeTakeFirst();
    this.#enabled = undefined;
    return Number(result.numDeletedRows) > 0;
  }

  /** The enabled alerts, read once per transaction (every change that may fire one asks). */
  enabled(): Promise<AlertRow[]> {
    this.#enabled ??= this.scope
      .template('alerts.enabled', (q) => q.selectFrom('alerts').select(COLUMNS).where('enabled', '=', this.codec.bool(true)))
      .all({})
      .then((rows) => rows.map((row) => this.toAlert(row)));
    return this.#enabled;
  }

  /**
   * Takes the alert's cooldown for one subject at `at`: true when it fired
   * for that subject never, or at or before `edge` (at − cooldown), and the
   * firing at `at` is now recorded. One statement (an upsert whose update is
   * conditional), so of two transactions that see the same fact, in one
   * process or two, one takes it: the other waits for its row and finds it taken.
   */
  async takeCooldown(alertId: string, subject: string, at: string, edge: string): Promise<boolean> {
    const taken = await this.scope
      .insertInto('alert_cooldowns', [{ alert_id: alertId, subject, fired_at: at }])
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'alert_id', 'subject'])
          .doUpdateSet({ fired_at: at })
          .where('alert_cooldowns.fired_at', '<=', edge),
      )
      .returning('alert_id')
      .execute();
    return taken.length > 0;
  }

  /** Writes one delivery to the outbox; call it in the transaction of the change that caused it. */
  async enqueue(delivery: { id: string; alert_id: string; subject: string; destination: AlertDestination; payload: AlertFacts; test: boolean; at: string }): Promise<void> {
    this.scope.noteOutboxWrite('alerts');
    await this.scope
      .insertInto('alert_deliveries', [
        {
          id: delivery.id,
          alert_id: delivery.alert_id,
          subject: delivery.subject,
          destination: JSON.stringify(delivery.destination),
          payload: JSON.stringify(delivery.payload),
          test: this.codec.bool(delivery.test),
          status: 'pending',
          attempts: 0,
          next_attempt_at: delivery.at,
          locked_until: null,
          last_error: null,
          log: '[]',
          created_at: delivery.at,
          delivered_at: null,
        },
      ])
      .execute();
  }

  /** The deliveries of one alert, newest first. */
  deliveries(alertId: string, page: Page): Promise<PageResult<AlertDeliveryRow>> {
    return this.scope.snapshot(async (scope) => {
      const matching = scope.selectFrom('alert_deliveries').where('alert_id', '=', alertId);
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
      return {
        items: items.map((row) => ({
          ...row,
          destination: parsed<AlertDestination>(row.destination),
          payload: parsed<AlertFacts>(row.payload),
          test: this.codec.readBool(row.test),
          attempts: Number(row.attempts),
        })),
        total: this.codec.count(counted.total),
      };
    });
  }

  private toAlert(row: Pick<Selectable<Schema['alerts']>, (typeof COLUMNS)[number]>): AlertRow {
    return {
      id: row.id,
      name: row.name,
      trigger: parsed<AlertTrigger>(row.trigger),
      filters: parsed<AlertFilters>(row.filters),
      destination: parsed<AlertDestination>(row.destination),
      cooldown_minutes: Number(row.cooldown_minutes),
      enabled: this.codec.readBool(row.enabled),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
