/**
 * All SQL about the personalities of one workspace's visitors.
 */
import { param } from '../../db/query-templates.js';
import type { Personality } from '../../schemas/resources.js';
import { KeyedTenantRepository } from './tenant-repository.js';

const COLUMNS = ['id', 'visitor_id', 'score', 'personality', 'features', 'learning_percentage', 'created_at'] as const;

export class PersonalitiesRepository extends KeyedTenantRepository {
  protected readonly table = 'personalities' as const;

  /**
   * Newest first, at most `limit`. A compiled template: the intelligence
   * worker asks it for every visitor it refreshes (issue 24's profile of
   * ingest: building the query cost more than running it).
   */
  async listForVisitor(visitorId: string, limit: number): Promise<Personality[]> {
    const rows = await this.scope
      .template('personalities.forVisitor', (q) =>
        q
          .selectFrom('personalities')
          .select(COLUMNS)
          .where('visitor_id', '=', param('visitor'))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param<number>('limit')),
      )
      .all({ visitor: visitorId, limit });
    const { codec } = this;
    return rows.map((row) => ({
      id: row.id,
      visitor_id: row.visitor_id,
      score: row.score,
      personality: codec.readJson(row.personality) as Personality['personality'],
      features: codec.readJson(row.features),
      learning_percentage: row.learning_percentage,
      created_at: row.created_at,
    }));
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(personalities: readonly Personality[]): Promise<number> {
    const { codec } = this;
    return this.scope.insertRows(
      'personalities',
      personalities.map((entry) => ({
        id: entry.id,
        visitor_id: entry.visitor_id,
        score: entry.score,
        personality: codec.json(entry.personality),
        features: codec.json(entry.features),
        learning_percentage: entry.learning_percentage,
        created_at: entry.created_at,
      })),
    );
  }
}
