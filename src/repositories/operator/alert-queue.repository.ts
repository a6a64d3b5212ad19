/**
 * The alert outbox as the alert workers see it (CONTRACT C10.3): the due
 * deliveries of every workspace, claimed by one process at a time, as the
 * webhook outbox is (webhook-queue.repository.ts): FOR UPDATE SKIP LOCKED on
 * PostgreSQL, one UPDATE … RETURNING on SQLite; a claim is a lease, so a
 * process killed while sending leaves the delivery to be claimed again
 * (at least once).
 */
import { sql } from 'kysely';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export interface ClaimedAlertDelivery {
  workspace_id: WorkspaceId;
  id: string;
  alert_id: string;
  /** JSON text */
  destination: string;
  /** JSON text */
  payload: string;
  attempts: number;
  created_at: string;
  log: string;
}

export interface AlertOutcome {
  status: 'delivered' | 'pending' | 'failed';
  next_attempt_at: string;
  error: string | null;
  at: string;
  log: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export class AlertQueueRepository extends OperatorRepository {
  /** Claims up to `limit` deliveries due at `now`, leased until `until`. */
  async claimDue(now: string, until: string, limit: number): Promise<ClaimedAlertDelivery[]> {
    const claimed =
      this.codec.kind === 'postgres'
        ? await sql<{ workspace_id: WorkspaceId; id: string }>`
            update alert_deliveries d set locked_until = ${until}
            from (
              select workspace_id, id from alert_deliveries
              where status = 'pending' and next_attempt_at <= ${now} and (locked_until is null or locked_until < ${now})
              order by next_attempt_at limit ${limit}
              for update skip locked
            ) due
            where d.workspace_id = due.workspace_id and d.id = due.id
            returning d.workspace_id, d.id`.execute(this.db)
        : await sql<{ workspace_id: WorkspaceId; id: string }>`
            update alert_deliveries set locked_until = ${until}
            where rowid in (
              select rowid from alert_deliveries
              where status = 'pending' and next_attempt_at <= ${now} and (locked_until is null or locked_until < ${now})
              order by next_attempt_at limit ${limit}
            )
            returning workspace_id, id`.execute(this.db);
    const deliveries: ClaimedAlertDelivery[] = [];
    for (const { workspace_id, id } of claimed.rows) {
      const row = await this.db
        .selectFrom('alert_deliveries')
        .select(['workspace_id', 'id', 'alert_id', 'destination', 'payload', 'attempts', 'created_at', 'log'])
        .where('workspace_id', '=', workspace_id)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) continue;
      deliveries.push({ ...row, destination: text(row.destination), payload: text(row.payload), attempts: Number(row.attempts) });
    }
    return deliveries;
  }

  /** Records an attempt's outcome. */
  async settle(delivery: ClaimedAlertDelivery, outcome: AlertOutcome): Promise<void> {
    await this.db
      .updateTable('alert_deliveries')
      .set({
        status: outcome.status,
        attempts: delivery.attempts + 1,
        next_attempt_at: outcome.next_attempt_at,
        locked_until: null,
        last_error: outcome.error,
        log: outcome.log,
        delivered_at: outcome.status === 'delivered' ? outcome.at : null,
      })
      .where('workspace_id', '=', delivery.workspace_id)
      .where('id', '=', delivery.id)
      .execute();
  }
}
