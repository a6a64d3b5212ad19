/**
 * All SQL about the reverse DNS queue of one workspace (CONTRACT C6.6;
 * docs/intelligence.md, "From reverse DNS"): visitors whose address is to
 * be looked up. Ingestion enqueues a visitor (with the address of its
 * latest network change) in the transaction of its events; a worker of any
 * process claims due rows with a lease (UPDATE … RETURNING; on PostgreSQL
 * picked FOR UPDATE SKIP LOCKED, so processes never claim the same row) and
 * deletes each once done. A new address while a worker holds the visitor
 * clears the claim, so the worker's finish leaves it for the next round. A
 * crashed worker's lease simply expires.
 */
import { param } from '../../db/query-templates.js';
import { TenantRepository } from './tenant-repository.js';

export interface DueLookup {
  visitor_id: string;
  address: string;
}

export class ReverseDnsDueRepository extends TenantRepository {
  /** Enqueues the visitor's address, due at `at`; a pending row takes the new address and clears any claim. */
  async enqueue(visitorId: string, address: string, at: string): Promise<void> {
    await this.scope
      .template('reverse_dns_due.enqueue', (q) =>
        q
          .insertInto('reverse_dns_due', [{ visitor_id: param('visitor'), address: param('address'), due_at: param('at'), claim: null, claimed_until: null }])
          .onConflict((conflict) =>
            conflict.columns(['workspace_id', 'visitor_id']).doUpdateSet({ address: param('address'), due_at: param('at'), claim: null, claimed_until: null }),
          ),
      )
      .all({ visitor: visitorId, address, at });
  }

  /** Claims up to `limit` rows due by `now` and not held by a live lease, for `token` until `until`. */
  async claim(now: string, until: string, token: string, limit: number): Promise<DueLookup[]> {
    const postgres = this.codec.kind === 'postgres';
    return this.scope
      .template('reverse_dns_due.claim', (q) => {
        let due = q
          .selectFrom('reverse_dns_due')
          .select('visitor_id')
          .where('due_at', '<=', param('now'))
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', param('now'))]))
          .orderBy('due_at')
          .limit(param<number>('limit'));
        if (postgres) due = due.forUpdate().skipLocked();
        return q
          .updateTable('reverse_dns_due')
          .set({ claim: param('token'), claimed_until: param('until') })
          .where('visitor_id', 'in', due)
          .returning(['visitor_id', 'address']);
      })
      .all({ now, until, token, limit });
  }

  /** Done with a claimed row: deleted, unless a new address cleared the claim. */
  async finish(visitorId: string, token: string): Promise<void> {
    await this.scope
      .template('reverse_dns_due.finish', (q) =>
        q.deleteFrom('reverse_dns_due').where('visitor_id', '=', param('visitor')).where('claim', '=', param('token')),
      )
      .all({ visitor: visitorId, token });
  }

  /** Forgets visitors that are gone (erasure, C8.4). */
  async forget(visitorIds: readonly string[]): Promise<void> {
    if (visitorIds.length === 0) return;
    await this.scope.deleteFrom('reverse_dns_due').where('visitor_id', 'in', visitorIds).execute();
  }

  /** How many rows are waiting (tests, the demo). */
  async count(): Promise<number> {
    const row = await this.scope
      .selectFrom('reverse_dns_due')
      .select((eb) => eb.fn.countAll().as('total'))
      .executeTakeFirstOrThrow();
    return this.codec.count(row.total);
  }
}
