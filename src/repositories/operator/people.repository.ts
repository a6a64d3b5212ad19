/**
 * All SQL about people (users): one row per person, shared by every
 * workspace they are a member of, found by email. Operator data: a
 * workspace's members are read through tenant/members.repository.ts, and a
 * workspace may add people (import, invitations) but never list them or
 * change a profile that other workspaces see.
 */
import type { UsersTable } from '../../db/schema.js';
import { OperatorRepository } from './operator-repository.js';

export type Person = UsersTable;

export class PeopleRepository extends OperatorRepository {
  /** The id of each person known by one of `emails` (normalized), by normalized email. */
  async idsByEmail(emails: readonly string[]): Promise<Map<string, string>> {
    const known = new Map<string, string>();
    for (let start = 0; start < emails.length; start += 500) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email_normalized'])
        .where('email_normalized', 'in', emails.slice(start, start + 500))
        .execute();
      for (const row of rows) known.set(row.email_normalized, row.id);
    }
    return known;
  }

  /** The normalized email of each of `ids` that names a person. */
  async emailsOfIds(ids: readonly string[]): Promise<Map<string, string>> {
    const emails = new Map<string, string>();
    for (let start = 0; start < ids.length; start += 500) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email_normalized'])
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
      for (const row of rows) emails.set(row.id, row.email_normalized);
    }
    return emails;
  }

  /** The person with this normalized email, if any. */
  findByEmail(emailNormalized: string): Promise<Person | undefined> {
    return this.db.selectFrom('users').selectAll().where('email_normalized', '=', emailNormalized).executeTakeFirst();
  }

  findById(id: string): Promise<Person | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertMany(people: readonly Person[]): Promise<void> {
    for (let start = 0; start < people.length; start += 500) {
      await this.db.insertInto('users').values(people.slice(start, start + 500)).execute();
    }
  }
}
