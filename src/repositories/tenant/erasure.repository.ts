/**
 * The SQL of erasing a person from one workspace (CONTRACT C8.4): finding
 * every identity and visitor id that is theirs, and deleting what hangs off
 * them, table by table. The service runs it in one transaction; every lead
 * deleted is also uncounted in lead_counts (leads.repository.ts deleteWhere).
 */
import { normalizeEmail } from '../../schemas/normalize.js';
import { TenantRepository } from './tenant-repository.js';

/** the ids of one person: identities and the visitors linked to them */
export interface Person {
  identityIds: string[];
  visitorIds: string[];
}

const unique = (values: readonly (string | null)[]) => [...new Set(values.filter((value): value is string => value !== null))];

export class ErasureRepository extends TenantRepository {
  /** The identities with this email (case-insensitive), and their visitors. */
  async personByEmail(email: string): Promise<Person> {
    const identities = await this.scope
      .selectFrom('identities')
      .select(['id', 'visitor_id'])
      .where('email_normalized', '=', normalizeEmail(email))
      .execute();
    return this.widen(
      identities.map((row) => row.id),
      identities.map((row) => row.visitor_id),
    );
  }

  /** The visitor, the identities it is or is linked to, and their other visitors. */
  async personByVisitor(visitorId: string): Promise<Person> {
    const identities = await this.scope.selectFrom('identities').select('id').where('visitor_id', '=', visitorId).execute();
    const linked = await this.scope.selectFrom('visitors').select('identity_id').where('id', '=', visitorId).execute();
    return this.widen(unique([...identities.map((row) => row.id), ...linked.map((row) => row.identity_id)]), [visitorId]);
  }

  private async widen(identityIds: string[], visitorIds: string[]): Promise<Person> {
    if (identityIds.length === 0) return { identityIds, visitorIds: unique(visitorIds) };
    const own = await this.scope.selectFrom('identities').select('visitor_id').where('id', 'in', identityIds).execute();
    const linked = await this.scope.selectFrom('visitors').select('id').where('identity_id', 'in', identityIds).execute();
    return {
      identityIds: unique(identityIds),
      visitorIds: unique([...visitorIds, ...own.map((row) => row.visitor_id), ...linked.map((row) => row.id)]),
    };
  }

  async deleteActivity(identityIds: readonly string[]): Promise<number> {
    if (identityIds.length === 0) return 0;
    const result = await this.scope.deleteFrom('identity_activity').where('identity_id', 'in', identityIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deletePersonalities(visitorIds: readonly string[]): Promise<number> {
    if (visitorIds.length === 0) return 0;
    const result = await this.scope.deleteFrom('personalities').where('visitor_id', 'in', visitorIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The visitors' tracked events (and, on PostgreSQL, their received ids); returns how many events. */
  async deleteEvents(visitorIds: readonly string[]): Promise<number> {
    if (visitorIds.length === 0) return 0;
    const deleted = await this.scope.deleteFrom('events').where('visitor_id', 'in', visitorIds).returning('id').execute();
    if (this.codec.kind === 'postgres' && deleted.length > 0) {
      const ids = deleted.map((row) => row.id);
      for (let start = 0; start < ids.length; start += 500) {
        await this.scope.deleteFrom('event_ids').where('id', 'in', ids.slice(start, start + 500)).execute();
      }
    }
    return deleted.length;
  }

  /** The visitors' sessions and what is known of the visitors themselves. */
  async deleteVisitors(visitorIds: readonly string[], identityIds: readonly string[]): Promise<void> {
    if (visitorIds.length > 0) {
      await this.scope.deleteFrom('sessions').where('visitor_id', 'in', visitorIds).execute();
      await this.scope.deleteFrom('visitors').where('id', 'in', visitorIds).execute();
    }
    if (identityIds.length > 0) await this.scope.deleteFrom('visitors').where('identity_id', 'in', identityIds).execute();
  }

  async deleteIdentities(identityIds: readonly string[]): Promise<number> {
    if (identityIds.length === 0) return 0;
    const result = await this.scope.deleteFrom('identities').where('id', 'in', identityIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
