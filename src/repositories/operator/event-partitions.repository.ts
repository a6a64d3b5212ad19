/**
 * The monthly partitions of the event log on PostgreSQL (CONTRACT C5.3,
 * C5.8): created ahead of time and on demand, listed, and dropped whole by
 * retention. Operator data definition, not a workspace's rows: partitions
 * hold every workspace's events of one month (the allow-list in
 * scripts/sql/examples.ts says so). SQLite keeps the log in one table, so
 * there these do nothing.
 */
import { sql } from 'kysely';
import { OperatorRepository } from './operator-repository.js';

/** A month as YYYY-MM. */
export type Month = string;

const PARTITION_NAME = /^events_p(\d{4})_(\d{2})$/;
/** duplicate_table, unique_violation (two processes creating one partition at once) */
const ALREADY_CREATED = new Set(['42P07', '23505']);

export function partitionName(month: Month): string {
  return `events_p${month.replace('-', '_')}`;
}

export function nextMonth(month: Month): Month {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

export class EventPartitionsRepository extends OperatorRepository {
  get partitioned(): boolean {
    return this.codec.kind === 'postgres';
  }

  /** Creates the partition of `month` unless it exists (also when another process creates it at the same moment). */
  async ensure(month: Month): Promise<void> {
    if (!this.partitioned) return;
    const from = `${month}-01T00:00:00Z`;
    const to = `${nextMonth(month)}-01T00:00:00Z`;
    try {
      await sql`create table if not exists ${sql.id(partitionName(month))} partition of events for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
        this.db,
      );
    } catch (error) {
      if (!ALREADY_CREATED.has(String((error as { code?: unknown }).code))) throw error;
    }
  }

  /** The months that have a partition, oldest first. */
  async list(): Promise<Month[]> {
    if (!this.partitioned) return [];
    const result = await sql<{ name: string }>`
      select child.relname as name from pg_inherits
      join pg_class child on child.oid = pg_inherits.inhrelid
      join pg_class parent on parent.oid = pg_inherits.inhparent
      where parent.relname = 'events' and parent.relnamespace = child.relnamespace
        and parent.relnamespace = (select oid from pg_namespace where nspname = current_schema())
    `.execute(this.db);
    return result.rows
      .map((row) => PARTITION_NAME.exec(row.name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => `${match[1]}-${match[2]}`)
      .sort();
  }

  /** Drops the partition of `month`, and with it every event of that month. */
  async drop(month: Month): Promise<void> {
    if (!this.partitioned) return;
    await sql`drop table if exists ${sql.id(partitionName(month))}`.execute(this.db);
  }
}
