/**
 * All SQL about dashboard accounts: a person's password hash (one per
 * person, whatever workspaces they belong to) and the one-time tokens of
 * invitations and password resets, stored as hashes of the secret that the
 * link carries. Operator data: a person is not one workspace's.
 */
import type { Selectable } from 'kysely';
import type { AccountTokensTable } from '../../db/schema.js';
import { OperatorRepository } from './operator-repository.js';

export type AccountToken = Selectable<AccountTokensTable>;

export class AccountsRepository extends OperatorRepository {
  async passwordHash(userId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('user_passwords').select('password_hash').where('user_id', '=', userId).executeTakeFirst();
    return row?.password_hash;
  }

  /** The people among `userIds` who have set a password. */
  async withPassword(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('user_passwords').select('user_id').where('user_id', 'in', userIds).execute();
    return new Set(rows.map((row) => row.user_id));
  }

  async setPassword(userId: string, passwordHash: string, at: string): Promise<void> {
    await this.db
      .insertInto('user_passwords')
      .values({ user_id: userId, password_hash: passwordHash, updated_at: at })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: at }))
      .execute();
  }

  async insertToken(token: AccountToken): Promise<void> {
    await this.db.insertInto('account_tokens').values(token).execute();
  }

  /** An unused, unexpired token by the hash of its secret. */
  findUsableToken(tokenHash: string, at: string): Promise<AccountToken | undefined> {
    return this.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
  }

  /** Marks every outstanding token of a person used: a password set by one link ends the others. */
  async useTokensOf(userId: string, at: string): Promise<void> {
    await this.db.updateTable('account_tokens').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }
}
