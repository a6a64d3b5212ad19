/**
 * Migration 0008 on both stores (CONTRACT C6.4): lists an earlier release
 * kept without a color get the palette's color of their id, the one a list
 * made today without a color gets; lists with a color keep it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_PALETTE, paletteColor } from '../../src/schemas/list-colors.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';

describe.each(storeKinds())('migration 0008-list-colors on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.destroy());

  it('C6.4: every list without a color gets its palette color; a chosen color is kept', async () => {
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Colorless lists');
    // back to before 0008: lists as an earlier release left them, one per first hex digit
    await sql`delete from leadlight_migrations where name = '0008-list-colors'`.execute(db.database.db);
    const ids = [...'0123456789abcdef'].map((digit, index) => `${digit}0000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    for (const id of ids) {
      await sql`insert into visitor_lists (workspace_id, id, name, description, color, created_at)
        values (${workspace.id}, ${id}, ${`list ${id}`}, null, null, '2025-01-01T00:00:00.000Z')`.execute(db.database.db);
    }
    const chosen = '00000000-0000-4000-8000-0000000000ff';
    await sql`insert into visitor_lists (workspace_id, id, name, description, color, created_at)
      values (${workspace.id}, ${chosen}, 'chosen', null, '#123456', '2025-01-01T00:00:00.000Z')`.execute(db.database.db);

    expect(await db.database.migrate()).toEqual(['0008-list-colors']);

    const lists = services.forWorkspace(workspace.id).lists;
    for (const id of ids) {
      const list = await lists.get(id);
      expect(list.color, id).toBe(paletteColor(id));
      expect(LIST_PALETTE).toContain(list.color);
    }
    expect((await lists.get(chosen)).color).toBe('#123456');
    // all eight colors are used across the sixteen digits
    expect(new Set(await Promise.all(ids.map(async (id) => (await lists.get(id)).color))).size).toBe(LIST_PALETTE.length);
    expect(await db.database.migrate()).toEqual([]);
  });
});
