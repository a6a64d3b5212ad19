/**
 * All SQL about failed sign-ins (CONTRACT C7.3): one row per failure and
 * key (`account:<email>`, `address:<ip>`), in the database so that every
 * process counts the same failures.
 */
import { OperatorRepository } from './operator-repository.js';

export class SignInFailuresRepository extends OperatorRepository {
  async record(keys: readonly string[], at: string): Promise<void> {
    await this.db
      .insertInto('sign_in_failures')
      .values(keys.map((key) => ({ key, at })))
      .execute();
  }

  /** The failures of each key since `since`, oldest first. */
  async since(keys: readonly string[], since: string): Promise<{ key: string; at: string }[]> {
    return this.db
      .selectFrom('sign_in_failures')
      .select(['key', 'at'])
      .where('key', 'in', keys)
      .where('at', '>', since)
      .orderBy('at')
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
  }

  /** Forgets failures too old to matter. */
  async prune(before: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('at', '<', before).execute();
  }
}
