/**
 * All SQL about a workspace's digests (CONTRACT C10.4): each member's own
 * choice (workspace_members.digest) and the claim of one member's digest of
 * one period (digest_sends, keyed by member and period), taken by one
 * conditional upsert so that of two processes that reach the same period
 * one sends it.
 */
import type { DigestFrequency } from '../../services/digests/period.js';
import { TenantRepository } from './tenant-repository.js';

export type DigestChoice = 'off' | DigestFrequency;

export interface DigestPreference {
  digest: DigestChoice;
  since: string | null;
}

export class DigestsRepository extends TenantRepository {
  /** The member's choice; undefined when they are not a member. */
  async preference(userId: string): Promise<DigestPreference | undefined> {
    const row = await this.scope.selectFrom('workspace_members').select(['digest', 'digest_since']).where('user_id', '=', userId).executeTakeFirst();
    return row && { digest: row.digest as DigestChoice, since: row.digest_since };
  }

  /** Sets the member's choice; `since` moves only when it changes. Answers whether they are a member. */
  async setPreference(userId: string, digest: DigestChoice, at: string): Promise<boolean> {
    await this.scope
      .updateTable('workspace_members')
      .set({ digest, digest_since: at })
      .where('user_id', '=', userId)
      .where('digest', '<>', digest)
      .execute();
    return (await this.preference(userId)) !== undefined;
  }

  /**
   * Claims the member's digest of `period` until `until`: true when it was
   * never claimed, or is claimed but unsent and its lease ended at or before
   * `now` (its process died or its attempt failed). One statement: of two
   * transactions that claim the same period, one gets it. Answers the
   * attempt this claim is (1 for the first), or null when not taken.
   */
  async claim(userId: string, period: string, now: string, until: string): Promise<number | null> {
    const taken = await this.scope
      .insertInto('digest_sends', [{ user_id: userId, period, status: 'claimed', attempts: 1, claimed_until: until, last_error: null, created_at: now, sent_at: null }])
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'user_id', 'period'])
          .doUpdateSet((eb) => ({ claimed_until: until, attempts: eb(eb.ref('digest_sends.attempts'), '+', 1) }))
          .where('digest_sends.status', '=', 'claimed')
          .where('digest_sends.claimed_until', '<=', now),
      )
      .returning('attempts')
      .execute();
    return taken.length === 0 ? null : Number(taken[0]!.attempts);
  }

  /** Records that the digest was sent (or that there was nothing to tell): it is never claimed again. */
  async settle(userId: string, period: string, status: 'sent' | 'empty', at: string): Promise<void> {
    await this.scope
      .updateTable('digest_sends')
      .set({ status, sent_at: at, last_error: null })
      .where('user_id', '=', userId)
      .where('period', '=', period)
      .execute();
  }

  /** Records a failed attempt: the claim is free again at `retryAt`. */
  async release(userId: string, period: string, retryAt: string, error: string): Promise<void> {
    await this.scope
      .updateTable('digest_sends')
      .set({ claimed_until: retryAt, last_error: error.slice(0, 1000) })
      .where('user_id', '=', userId)
      .where('period', '=', period)
      .where('status', '=', 'claimed')
      .execute();
  }

  /** The attempts made at the member's digest of `period` and its status (undefined: never claimed). */
  async send(userId: string, period: string): Promise<{ status: string; attempts: number } | undefined> {
    const row = await this.scope.selectFrom('digest_sends').select(['status', 'attempts']).where('user_id', '=', userId).where('period', '=', period).executeTakeFirst();
    return row && { status: row.status, attempts: Number(row.attempts) };
  }
}
