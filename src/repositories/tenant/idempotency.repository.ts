/**
 * idempotency_keys of one workspace (CONTRACT C8.2). The unique key
 * (workspace_id, key) is what resolves concurrent duplicates: the first
 * INSERT claims the key, every other sees the row that is there. A claim
 * carries a token and a lease; only the holder of the token can mark it
 * applied or store its answer, and a lease that ran out (its process died
 * before the write committed) can be taken over.
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import { TenantRepository } from './tenant-repository.js';

export type IdempotencyRecord = Omit<Selectable<Schema['idempotency_keys']>, 'workspace_id'>;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class IdempotencyRepository extends TenantRepository {
  /** Claims `key` for a request; false when the workspace already holds it. */
  async claim(key: string, requestHash: string, token: string, lockedUntil: string, at: string): Promise<boolean> {
    const row = await this.scope
      .insertInto('idempotency_keys', [
        { key, request_hash: requestHash, state: 'running', lock_token: token, locked_until: lockedUntil, created_at: at },
      ])
      .onConflict((conflict) => conflict.columns(['workspace_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  async find(key: string): Promise<IdempotencyRecord | undefined> {
    return this.scope
      .selectFrom('idempotency_keys')
      .select(['key', 'request_hash', 'state', 'lock_token', 'locked_until', 'response_status', 'response_headers', 'response_body', 'created_at'])
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /** Takes over a claim whose write never committed and whose lease ran out; false when another got it first. */
  async takeOver(key: string, token: string, lockedUntil: string, at: string): Promise<boolean> {
    const row = await this.scope
      .updateTable('idempotency_keys')
      .set({ lock_token: token, locked_until: lockedUntil })
      .where('key', '=', key)
      .where('state', '=', 'running')
      .where('locked_until', '<', at)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks the claim applied (call it in the write's transaction); false when the claim is no longer this token's. */
  async markApplied(key: string, token: string): Promise<boolean> {
    const row = await this.scope
      .updateTable('idempotency_keys')
      .set({ state: 'applied' })
      .where('key', '=', key)
      .where('lock_token', '=', token)
      .where('state', 'in', ['running', 'applied'])
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Stores the answer of the claim's request. */
  async complete(key: string, token: string, answer: StoredAnswer): Promise<boolean> {
    const row = await this.scope
      .updateTable('idempotency_keys')
      .set({
        state: 'completed',
        response_status: answer.status,
        response_headers: JSON.stringify(answer.headers),
        response_body: answer.body,
      })
      .where('key', '=', key)
      .where('lock_token', '=', token)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets a claim whose request wrote nothing (refused, or failed): the key can be used again. */
  async release(key: string, token: string): Promise<void> {
    await this.scope
      .deleteFrom('idempotency_keys')
      .where('key', '=', key)
      .where('lock_token', '=', token)
      .where('state', '=', 'running')
      .execute();
  }

  /** Deletes up to `limit` keys created before `before`; returns how many. */
  async prune(before: string, limit: number): Promise<number> {
    const result = await this.scope
      .deleteFrom('idempotency_keys')
      .where('key', 'in', this.scope.selectFrom('idempotency_keys').select('key').where('created_at', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
