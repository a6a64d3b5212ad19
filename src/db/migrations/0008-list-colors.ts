/**
 * Lists made without a color kept `color` null; the contract now pins it to a
 * #RRGGBB (C6.4). Gives each such list the palette's color of its id, the one
 * a list made today without a color gets (src/schemas/list-colors.ts).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { LIST_PALETTE } from '../../schemas/list-colors.js';
import type { StoreKind } from '../codec.js';

export function listColorsMigration(kind: StoreKind): Migration {
  const firstDigit = kind === 'postgres' ? sql`substr(id::text, 1, 1)` : sql`lower(substr(id, 1, 1))`;
  const cases = sql.join(
    [...'0123456789abcdef'].map((digit) => sql`when ${sql.lit(digit)} then ${sql.lit(LIST_PALETTE[Number.parseInt(digit, 16) % LIST_PALETTE.length])}`),
    sql` `,
  );
  return {
    async up(db: Kysely<unknown>) {
      await sql`update visitor_lists set color = case ${firstDigit} ${cases} else ${sql.lit(LIST_PALETTE[0])} end where color is null`.execute(db);
    },
  };
}
