/**
 * Secrets every process of one installation shares (server_secrets): made
 * once, by migration 0006, so that processes started together agree; a
 * secret that is absent (a table emptied by hand) is made by the first
 * process that needs it, and the stored one wins.
 */
import { OperatorRepository } from './operator-repository.js';

export class ServerSecretsRepository extends OperatorRepository {
  async find(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  async insertIfAbsent(name: string, value: string, at: string): Promise<void> {
    await this.db
      .insertInto('server_secrets')
      .values({ name, value, created_at: at })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
  }
}
