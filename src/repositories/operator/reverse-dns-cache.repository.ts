/**
 * All SQL about the reverse DNS cache (CONTRACT C6.6): what an address's
 * PTR lookup answered and when, shared by every workspace and process so
 * that an address is asked at most once a day, whichever workspace's
 * visitor it was. Not a workspace's data: a PTR name is public, and the
 * rows are deleted a day after their lookup.
 */
import { param } from '../../db/query-templates.js';
import { OperatorRepository } from './operator-repository.js';

export interface CachedLookup {
  /** the first PTR name, or null when there was none or the lookup failed */
  name: string | null;
  checked_at: string;
}

export class ReverseDnsCacheRepository extends OperatorRepository {
  async find(address: string): Promise<CachedLookup | undefined> {
    return this.template('reverseDnsCache.find', () =>
      this.db.selectFrom('reverse_dns_cache').select(['name', 'checked_at']).where('address', '=', param('address')),
    ).executeTakeFirst(this.db, { address });
  }

  /** Records the answer of a lookup made at `at`. */
  async record(address: string, name: string | null, at: string): Promise<void> {
    await this.db
      .insertInto('reverse_dns_cache')
      .values({ address, name, checked_at: at })
      .onConflict((conflict) => conflict.column('address').doUpdateSet({ name, checked_at: at }))
      .execute();
  }

  /** Deletes the answers of lookups made before `at`; returns how many. */
  async deleteBefore(at: string): Promise<number> {
    const result = await this.db.deleteFrom('reverse_dns_cache').where('checked_at', '<', at).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
