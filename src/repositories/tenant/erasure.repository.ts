/**
 * The SQL of erasing a person from one workspace (CONTRACT C8.4): finding
 * every identity and visitor id that is theirs, and deleting what hangs off
 * them, table by table, down to the copies of them kept as text: webhook
 * payloads and stored idempotent answers that name one of their ids or
 * emails. The service runs it in one transaction; every lead deleted is also
 * uncounted in lead_counts (leads.repository.ts deleteWhere).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { normalizeEmail } from '../../schemas/normalize.js';
import { containsPattern } from '../page.js';
import { TenantRepository } from './tenant-repository.js';

/** the ids of one person: identities and the visitors linked to them */
export interface Person {
  identityIds: string[];
  visitorIds: string[];
}

/** terms compared in one statement: each is a LIKE over the whole text */
const TERMS_PER_STATEMENT = 50;

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
      // the overview's per-day markers name the visitor; its counts, which name no one, stay
      await this.scope.deleteFrom('visitor_days').where('visitor_id', 'in', visitorIds).execute();
      await this.scope.deleteFrom('visitors').where('id', 'in', visitorIds).execute();
    }
    if (identityIds.length > 0) await this.scope.deleteFrom('visitors').where('identity_id', 'in', identityIds).execute();
  }

  /** The emails of the identities, lower case. */
  async emailsOf(identityIds: readonly string[]): Promise<string[]> {
    if (identityIds.length === 0) return [];
    const rows = await this.scope.selectFrom('identities').select('email').where('id', 'in', identityIds).execute();
    return unique(rows.map((row) => row.email?.toLowerCase() ?? null));
  }

  /**
   * Webhook deliveries whose payload names one of `terms` (ids, lower-case
   * emails), whatever their status: delivered and failed ones are history,
   * and a pending one would send the person to an endpoint after they were
   * erased. Returns how many.
   */
  async deleteDeliveriesNaming(terms: readonly string[]): Promise<number> {
    return this.deleteNaming(terms, (pattern) => this.scope.deleteFrom('webhook_deliveries').where(contains('payload', pattern)));
  }

  /** Events of the changes feed (C11.1) whose payload names one of `terms`: the feed forgets the person too. Returns how many. */
  async deleteChangesNaming(terms: readonly string[]): Promise<number> {
    return this.deleteNaming(terms, (pattern) => this.scope.deleteFrom('changes').where(contains('payload', pattern)));
  }

  /**
   * Alert deliveries (C10.3) whose facts name one of `terms`, whatever their
   * status, and the cooldowns of the person's subjects (`identity:<id>`,
   * `visitor:<id>`). Returns how many deliveries.
   */
  async deleteAlertDeliveriesNaming(terms: readonly string[], subjects: readonly string[]): Promise<number> {
    if (subjects.length > 0) await this.scope.deleteFrom('alert_cooldowns').where('subject', 'in', subjects).execute();
    return this.deleteNaming(terms, (pattern) => this.scope.deleteFrom('alert_deliveries').where(contains('payload', pattern, true)));
  }

  /**
   * Stored idempotent answers (C8.2) whose body or headers name one of
   * `terms`: the key is forgotten with its answer, so a retry with it runs
   * again as a new request. Returns how many.
   */
  async deleteAnswersNaming(terms: readonly string[]): Promise<number> {
    return this.deleteNaming(terms, (pattern) =>
      this.scope.deleteFrom('idempotency_keys').where((eb) => eb.or([contains('response_body', pattern), contains('response_headers', pattern)])),
    );
  }

  private async deleteNaming(
    terms: readonly string[],
    statement: (patterns: readonly string[]) => { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> },
  ): Promise<number> {
    // as the text holds them: inside JSON strings, lower case
    const patterns = unique(terms.map((term) => containsPattern(JSON.stringify(term.toLowerCase()).slice(1, -1))));
    let deleted = 0;
    for (let start = 0; start < patterns.length; start += TERMS_PER_STATEMENT) {
      const result = await statement(patterns.slice(start, start + TERMS_PER_STATEMENT)).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }

  async deleteIdentities(identityIds: readonly string[]): Promise<number> {
    if (identityIds.length === 0) return 0;
    const result = await this.scope.deleteFrom('identities').where('id', 'in', identityIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** `lower(column)` contains one of the LIKE patterns (already escaped with backslashes). */
function contains(column: 'payload' | 'response_body' | 'response_headers', patterns: readonly string[], json = false): Expression<SqlBool> {
  // a JSON column (jsonb on PostgreSQL) is searched as its text
  const text = json ? sql`cast(${sql.ref(column)} as text)` : sql.ref(column);
  return sql<SqlBool>`(${sql.join(
    patterns.map((pattern) => sql`lower(${text}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}
