/**
 * All SQL about a workspace's alert rules (CONTRACT C10.1): written by the
 * API and the dashboard, listed newest first, and the enabled ones read
 * once per transaction by trigger evaluation (a workspace has few).
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { AlertDestination, AlertFilters, AlertTrigger } from '../../services/alerts/model.js';
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

export interface AlertChanges {
  name?: string;
  trigger?: AlertTrigger;
  filters?: AlertFilters;
  destination?: AlertDestination;
  cooldown_minutes?: number;
  enabled?: boolean;
}

const COLUMNS = ['id', 'name', 'trigger', 'filters', 'destination', 'cooldown_minutes', 'enabled', 'created_at', 'updated_at'] as const;

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
