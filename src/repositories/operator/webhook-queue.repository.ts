/**
 * The webhook outbox as the delivery workers see it (CONTRACT C8.5): the
 * due deliveries of every workspace, claimed by one process at a time. On
 * PostgreSQL a claim locks the rows it takes with FOR UPDATE SKIP LOCKED, so
 * processes never wait on each other nor take the same delivery; on SQLite
 * one process holds the write lock, and the claim is one UPDATE … RETURNING.
 * A claim is a lease (locked_until): a process that dies while sending
 * leaves the delivery to be claimed again once the lease runs out (at least once).
 */
import { sql } from 'kysely';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export interface ClaimedDelivery {
  workspace_id: WorkspaceId;
  id: string;
  webhook_id: string;
  message_id: string;
  payload: string;
  attempts: number;
  created_at: string;
  log: string;
  url: string | null;
  secret: string | null;
  enabled: boolean | null;
}

export interface Outcome {
  /** delivered, failed (given up), or pending again at `next_attempt_at` */
  status: 'delivered' | 'pending' | 'failed';
  next_attempt_at: string;
  response_code: number | null;
  duration_ms: number;
  error: string | null;
  at: string;
  log: string;
}

export class WebhookQueueRepository extends OperatorRepository {
  /** Claims up to `limit` deliveries due at `now`, leased until `until`, with their endpoint. */
  async claimDue(now: string, until: string, limit: number): Promise<ClaimedDelivery[]> {
    const claimed =
      this.codec.kind === 'postgres'
        ? await sql<{ workspace_id: WorkspaceId; id: string }>`
            update webhook_deliveries d set locked_until = ${until}
            from (
              select workspace_id, id from webhook_deliveries
              where status = 'pending' and next_attempt_at <= ${now} and (locked_until is null or locked_until < ${now})
              order by next_attempt_at limit ${limit}
              for update skip locked
            ) due
            where d.workspace_id = due.workspace_id and d.id = due.id
            returning d.workspace_id, d.id`.execute(this.db)
        : await sql<{ workspace_id: WorkspaceId; id: string }>`
            update webhook_deliveries set locked_until = ${until}
            where rowid in (
              select rowid from webhook_deliveries
              where status = 'pending' and next_attempt_at <= ${now} and (locked_until is null or locked_until < ${now})
              order by next_attempt_at limit ${limit}
            )
            returning workspace_id, id`.execute(this.db);
    const deliveries: ClaimedDelivery[] = [];
    for (const { workspace_id, id } of claimed.rows) {
      const row = await this.db
        .selectFrom('webhook_deliveries as d')
        .leftJoin('webhooks as w', (join) => join.onRef('w.workspace_id', '=', 'd.workspace_id').onRef('w.id', '=', 'd.webhook_id'))
        .select(['d.workspace_id', 'd.id', 'd.webhook_id', 'd.message_id', 'd.payload', 'd.attempts', 'd.created_at', 'd.log', 'w.url', 'w.secret', 'w.enabled'])
        .where('d.workspace_id', '=', workspace_id)
        .where('d.id', '=', id)
        .executeTakeFirst();
      if (row === undefined) continue;
      deliveries.push({
        ...row,
        attempts: Number(row.attempts),
        enabled: row.enabled === null ? null : row.enabled === true || row.enabled === 1,
      });
    }
    return deliveries;
  }

  /** Records an attempt's outcome, and the endpoint's health: failing after `failingAfter` failures in a row. */
  async settle(delivery: ClaimedDelivery, outcome: Outcome, failingAfter: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: delivery.attempts + 1,
        next_attempt_at: outcome.next_attempt_at,
        locked_until: null,
        last_response_code: outcome.response_code,
        last_duration_ms: outcome.duration_ms,
        last_error: outcome.error,
        log: outcome.log,
        delivered_at: outcome.status === 'delivered' ? outcome.at : null,
      })
      .where('workspace_id', '=', delivery.workspace_id)
      .where('id', '=', delivery.id)
      .execute();
    const endpoint = this.db
      .updateTable('webhooks')
      .where('workspace_id', '=', delivery.workspace_id)
      .where('id', '=', delivery.webhook_id);
    if (outcome.status === 'delivered') {
      await endpoint.set({ consecutive_failures: 0, status: 'active' }).execute();
    } else {
      await endpoint
        .set((eb) => ({
          consecutive_failures: eb('consecutive_failures', '+', 1),
          status: eb
            .case()
            .when('consecutive_failures', '>=', failingAfter - 1)
            .then(sql.lit('failing'))
            .else(eb.ref('status'))
            .end() as never,
        }))
        .execute();
    }
  }
}
