/**
 * All SQL about the enrichment queue of one workspace (CONTRACT C6.7;
 * docs/intelligence.md, "Enrichment"): which companies are due for
 * enrichment, and when. A company with a domain is scheduled when it is
 * created; a worker claims due companies with a lease (UPDATE … RETURNING;
 * on PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED, so processes
 * never claim the same one) and, in the transaction that writes what it
 * found, marks the company due again: in 30 days after an answer, in a day
 * after a failure. A crashed worker's lease simply expires.
 */
import { param } from '../../db/query-templates.js';
import type { Selectable } from 'kysely';
import type { EnrichmentQueueTable } from '../../db/schema.js';
import { TenantRepository } from './tenant-repository.js';

export type EnrichmentEntry = Omit<Selectable<EnrichmentQueueTable>, 'workspace_id'>;

export interface EnrichmentOutcome {
  /** when the company is due again */
  next: string;
  at: string;
  /** null when every source answered */
  error: string | null;
}

export class EnrichmentQueueRepository extends TenantRepository {
  /** Schedules the companies for enrichment at `at`; a company already scheduled keeps its place. */
  async schedule(companyIds: readonly string[], at: string): Promise<void> {
    if (companyIds.length === 0) return;
    const statement = this.scope.template('enrichment_queue.schedule', (q) =>
      q
        .insertInto('enrichment_queue', [{ company_id: param('company'), due_at: param('at'), claim: null, claimed_until: null, failures: 0 }])
        .onConflict((conflict) => conflict.columns(['workspace_id', 'company_id']).doNothing()),
    );
    for (const company of companyIds) await statement.all({ company, at });
  }

  /** Schedules new companies (an import's: none is in the queue yet) at `at`, in few statements whatever their number. */
  async scheduleNew(companyIds: readonly string[], at: string): Promise<void> {
    await this.scope.insertColumns(
      'enrichment_queue',
      { company_id: 'uuid', due_at: 'timestamptz', failures: 'integer' },
      companyIds.map((company_id) => ({ company_id, due_at: at, failures: 0 })),
    );
  }

  /** Claims up to `limit` companies due by `now` and not held by a live lease, for `token` until `until`; answers their ids. */
  async claim(now: string, until: string, token: string, limit: number): Promise<string[]> {
    const postgres = this.codec.kind === 'postgres';
    const rows = await this.scope
      .template('enrichment_queue.claim', (q) => {
        let due = q
          .selectFrom('enrichment_queue')
          .select('company_id')
          .where('due_at', '<=', param('now'))
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', param('now'))]))
          .orderBy('due_at')
          .limit(param<number>('limit'));
        if (postgres) due = due.forUpdate().skipLocked();
        return q
          .updateTable('enrichment_queue')
          .set({ claim: param('token'), claimed_until: param('until') })
          .where('company_id', 'in', due)
          .returning('company_id');
      })
      .all({ now, until, token, limit });
    return rows.map((row) => row.company_id);
  }

  /**
   * Done with a claimed company: due again at `outcome.next`, its failures
   * counted (or reset). Answers false when the claim was no longer this
   * token's (its lease ran out and another process took it): then nothing
   * changed, and the caller must write nothing either.
   */
  async finish(companyId: string, token: string, outcome: EnrichmentOutcome): Promise<boolean> {
    const answered = outcome.error === null;
    const rows = await this.scope
      .template(`enrichment_queue.finish:${answered ? 'answered' : 'failed'}`, (q) =>
        q
          .updateTable('enrichment_queue')
          .set((eb) => ({
            due_at: param('next'),
            claim: null,
            claimed_until: null,
            last_attempt_at: param('at'),
            last_error: answered ? null : param('error'),
            failures: answered ? 0 : eb('failures', '+', 1),
            ...(answered ? { enriched_at: param('at') } : {}),
          }))
          .where('company_id', '=', param('company'))
          .where('claim', '=', param('token'))
          .returning('company_id'),
      )
      .all({ company: companyId, token, next: outcome.next, at: outcome.at, ...(answered ? {} : { error: outcome.error }) });
    return rows.length > 0;
  }

  /** Forgets a company that cannot be enriched (gone, or without a readable domain), if this token holds it. */
  async forget(companyId: string, token: string): Promise<void> {
    await this.scope
      .template('enrichment_queue.forget', (q) =>
        q.deleteFrom('enrichment_queue').where('company_id', '=', param('company')).where('claim', '=', param('token')),
      )
      .all({ company: companyId, token });
  }

  /** A company's place in the queue (tests, doctor). */
  async find(companyId: string): Promise<EnrichmentEntry | undefined> {
    const row = await this.scope
      .selectFrom('enrichment_queue')
      .select(['company_id', 'due_at', 'claim', 'claimed_until', 'failures', 'last_attempt_at', 'last_error', 'enriched_at'])
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return row && { ...row, failures: Number(row.failures) };
  }
}
