/**
 * All SQL about the daily salts of cookieless visitor ids (CONTRACT C5.4):
 * one random salt per UTC day, shared by every process through the store,
 * kept apart from every other table and deleted after 48 hours.
 */
import { param } from '../../db/query-templates.js';
import { OperatorRepository } from './operator-repository.js';

export class TrackingSaltsRepository extends OperatorRepository {
  async find(day: string): Promise<string | undefined> {
    const row = await this.template('trackingSalts.byDay', () =>
      this.db.selectFrom('tracking_salts').select('salt').where('day', '=', param('day')),
    ).executeTakeFirst(this.db, { day });
    return row?.salt;
  }

  /** Stores `salt` for `day` unless a process stored one first; the stored one wins. */
  async insertIfAbsent(day: string, salt: string, at: string): Promise<void> {
    await this.db
      .insertInto('tracking_salts')
      .values({ day, salt, created_at: at })
      .onConflict((conflict) => conflict.column('day').doNothing())
      .execute();
  }

  /** Deletes the salts of days before `day` (YYYY-MM-DD); returns how many. */
  async deleteBefore(day: string): Promise<number> {
    const result = await this.db.deleteFrom('tracking_salts').where('day', '<', day).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
