/**
 * All SQL about the intelligence queue of one workspace: which visitors'
 * scores, personalities and segments are due, and when (docs/intelligence.md,
 * "Keeping current"). Ingestion marks a visitor due now; a worker claims due
 * visitors with a lease (UPDATE … RETURNING; on PostgreSQL the rows are
 * picked FOR UPDATE SKIP LOCKED, so processes never claim the same one),
 * and when done either forgets the visitor or marks it due again later. A
 * mark made while a worker holds the visitor clears the claim, so the
 * worker's finish leaves the new mark in place. A crashed worker's lease
 * simply expires.
 */
import { sql } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export class IntelligenceDueRepository extends TenantRepository {
  /** Marks the visitors due at `at`, or earlier if they already were; clears any claim. */
  async markDue(visitorIds: readonly string[], at: string): Promise<void> {
    if (visitorIds.length === 0) return;
    const statement = this.scope.template('intelligence_due.mark', (q) =>
      q
        .insertInto('intelligence_due', [{ visitor_id: param('visitor'), due_at: param('at'), claim: null, claimed_until: null }])
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'visitor_id']).doUpdateSet({
            due_at: sql<string>`case when ${sql.ref('intelligence_due.due_at')} < ${sql.ref('excluded.due_at')} then ${sql.ref('intelligence_due.due_at')} else ${sql.ref('excluded.due_at')} end`,
            claim: null,
            claimed_until: null,
          }),
        ),
    );
    for (const visitor of visitorIds) await statement.all({ visitor, at });
  }

  /**
   * Marks due at `at` every visitor linked to an identity and the first
   * visitor of every identity (a rule changed: its members are evaluated
   * anew); two statements, whatever the workspace's size.
   */
  async markAllIdentified(at: string): Promise<void> {
    const upsert = (select: Parameters<TenantScope['insertSelect']>[2]) =>
      this.scope
        .insertSelect('intelligence_due', ['visitor_id', 'due_at'], select)
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'visitor_id']).doUpdateSet({ due_at: at, claim: null, claimed_until: null }),
        )
        .execute();
    const when = this.codec.kind === 'postgres' ? sql<string>`${at}::timestamptz` : sql<string>`${at}`;
    await upsert(
      this.scope
        .selectFrom('visitors')
        .select(['visitors.workspace_id', 'visitors.id', when.as('due_at')])
        .where('identity_id', 'is not', null) as never,
    );
    await upsert(
      this.scope
        .selectFrom('identities')
        .select(['identities.workspace_id', 'identities.visitor_id', when.as('due_at')])
        .distinct() as never,
    );
  }

  /**
   * Marks due at `at` those of these visitors that have events (a row in
   * `visitors`), keeping an earlier due time, in one statement, in visitor
   * id order (the order ingestion marks them in): imported leads (C6.2).
   */
  async markVisitorsDue(visitorIds: readonly string[], at: string): Promise<void> {
    if (visitorIds.length === 0) return;
    const when = this.codec.kind === 'postgres' ? sql<string>`${at}::timestamptz` : sql<string>`${at}`;
    await this.scope
      .insertSelect(
        'intelligence_due',
        ['visitor_id', 'due_at'],
        this.scope
          .selectFrom('visitors')
          .select(['visitors.workspace_id', 'visitors.id', when.as('due_at')])
          .where('visitors.id', 'in', [...new Set(visitorIds)])
          .orderBy('visitors.id') as never,
      )
      .onConflict((conflict) =>
        conflict.columns(['workspace_id', 'visitor_id']).doUpdateSet({
          due_at: sql<string>`case when ${sql.ref('intelligence_due.due_at')} < ${sql.ref('excluded.due_at')} then ${sql.ref('intelligence_due.due_at')} else ${sql.ref('excluded.due_at')} end`,
          claim: null,
          claimed_until: null,
        }),
      )
      .execute();
  }

  /**
   * Marks due at `at` every visitor whose visits name the company (its
   * size or industry changed: C6.7), in visitor id order, the order
   * ingestion marks them in, so the two never wait for each other in a circle.
   */
  async markCompanyVisitors(companyId: string, at: string): Promise<void> {
    const when = this.codec.kind === 'postgres' ? sql<string>`${at}::timestamptz` : sql<string>`${at}`;
    await this.scope
      .insertSelect(
        'intelligence_due',
        ['visitor_id', 'due_at'],
        this.scope
          .selectFrom('visitors')
          .select(['visitors.workspace_id', 'visitors.id', when.as('due_at')])
          .where('company_id', '=', companyId)
          .orderBy('visitors.id') as never,
      )
      .onConflict((conflict) => conflict.columns(['workspace_id', 'visitor_id']).doUpdateSet({ due_at: at, claim: null, claimed_until: null }))
      .execute();
  }

  /**
   * Claims up to `limit` visitors due by `now` and not held by a live lease,
   * for `token` until `until`; answers their ids.
   */
  async claim(now: string, until: string, token: string, limit: number): Promise<string[]> {
    const postgres = this.codec.kind === 'postgres';
    const rows = await this.scope
      .template(`intelligence_due.claim`, (q) => {
        let due = q
          .selectFrom('intelligence_due')
          .select('visitor_id')
          .where('due_at', '<=', param('now'))
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', param('now'))]))
          .orderBy('due_at')
          .limit(param<number>('limit'));
        if (postgres) due = due.forUpdate().skipLocked();
        return q
          .updateTable('intelligence_due')
          .set({ claim: param('token'), claimed_until: param('until') })
          .where('visitor_id', 'in', due)
          .returning('visitor_id');
      })
      .all({ now, until, token, limit });
    return rows.map((row) => row.visitor_id);
  }

  /** Done with a claimed visitor: forgotten, or due again at `next`; nothing when a new mark cleared the claim. */
  async finish(visitorId: string, token: string, next: string | null): Promise<void> {
    if (next === null) {
      await this.scope
        .template('intelligence_due.forget', (q) =>
          q.deleteFrom('intelligence_due').where('visitor_id', '=', param('visitor')).where('claim', '=', param('token')),
        )
        .all({ visitor: visitorId, token });
      return;
    }
    await this.scope
      .template('intelligence_due.later', (q) =>
        q
          .updateTable('intelligence_due')
          .set({ due_at: param('next'), claim: null, claimed_until: null })
          .where('visitor_id', '=', param('visitor'))
          .where('claim', '=', param('token')),
      )
      .all({ visitor: visitorId, token, next });
  }

  /** Forgets visitors that are gone (erasure, C8.4). */
  async forget(visitorIds: readonly string[]): Promise<void> {
    if (visitorIds.length === 0) return;
    await this.scope.deleteFrom('intelligence_due').where('visitor_id', 'in', visitorIds).execute();
  }

  /** How many visitors are due by `now` (tests, doctor). */
  async countDue(now: string): Promise<number> {
    const row = await this.scope
      .selectFrom('intelligence_due')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('due_at', '<=', now)
      .executeTakeFirstOrThrow();
    return this.codec.count(row.total);
  }
}
