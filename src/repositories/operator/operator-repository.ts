/**
 * What every operator repository shares: the whole database (operator data
 * is not one workspace's: workspaces, API keys, the people who are members of
 * workspaces) and the store's codec. Tenant repositories never get this handle.
 */
import type { Compilable, Kysely } from 'kysely';
import type { Codec } from '../../db/codec.js';
import { template, type QueryTemplate } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';

export abstract class OperatorRepository {
  constructor(
    protected readonly db: Kysely<Schema>,
    protected readonly codec: Codec,
  ) {}

  /** The compiled query of this shape (see query-templates.ts), built once per dialect. */
  protected template<Row>(key: string, build: () => Compilable<Row>): QueryTemplate<Row> {
    return template(this.codec.kind, `operator:${key}`, build);
  }
}
