/**
 * A visitor's first identification makes its events of the previous 30 days
 * activity (C5.6; derive.ts, EventsRepository.forVisitor). That read must go
 * through the visitor's index: asked as one SELECT of every column in (time,
 * id) order, SQLite's planner walked the log's key over every event of the
 * workspace in those 30 days, the visitor's or not, on the event loop
 * (BENCHMARKS.md, "Ingest, round two"). The statement checked here is the
 * one the repository runs (src/queries, kept current by test/sql). So is
 * retention's walk of the log, which SQLite keeps in arrival order
 * (migration 0022a). SQLite only: PostgreSQL plans with statistics, and its
 * log is partitioned by month.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

function statementOf(name: string): string {
  const text = fs.readFileSync(new URL('../../src/queries/events.repository.sqlite.sql', import.meta.url), 'utf8');
  const start = text.indexOf(`-- ${name}\n`);
  expect(start, name).toBeGreaterThanOrEqual(0);
  const body = text.slice(start + name.length + 4);
  return body.slice(0, body.indexOf(';\n'));
}

describe('the back-fill of a first identification on SQLite', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => db?.destroy());

  it('C5.6: reads the visitor index, never a walk of the workspace\'s log by time', async () => {
    const statement = statementOf('EventsRepository.forVisitor');
    const workspace = randomUUID();
    const parameters = [workspace, workspace, randomUUID(), '2026-11-01T00:00:00.000Z', 10_000];
    const { rows } = await db.database.db.executeQuery<{ detail: string }>({ sql: `explain query plan ${statement}`, parameters, query: { kind: 'RawNode' } } as never);
    const explained = rows.map((row) => row.detail).join('\n');
    expect(explained).toContain('events_visitor_idx');
    // the log's key, searched by the workspace and a time range alone: every event of the workspace since then
    expect(explained).not.toMatch(/PRIMARY KEY \(workspace_id=\? AND occurred_at>\?\)/);
    // then each row by the log's key, in arrival order since migration 0022a
    expect(explained).toMatch(/PRIMARY KEY \(workspace_id=\? AND received_at=\? AND id=\?\)/);
  });

  it('C5.8: retention walks the log in arrival order up to its bound, or within an hour of arrivals, then deletes each row by its key', async () => {
    const workspace = randomUUID();
    const plans = [
      ['EventsRepository.deleteBefore: what arrived before a bound', [workspace, workspace, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', 5000], /PRIMARY KEY \(workspace_id=\? AND received_at<\?\)/],
      [
        'EventsRepository.deleteBefore: what arrived in a window',
        [workspace, workspace, '2026-11-01T00:00:00.000Z', '2026-11-01T01:00:00.000Z', '2026-11-01T00:00:00.000Z', 5000],
        /PRIMARY KEY \(workspace_id=\? AND received_at>\? AND received_at<\?\)/,
      ],
    ] as const;
    for (const [name, parameters, walk] of plans) {
      const { rows } = await db.database.db.executeQuery<{ detail: string }>({ sql: `explain query plan ${statementOf(name)}`, parameters, query: { kind: 'RawNode' } } as never);
      const explained = rows.map((row) => row.detail).join('\n');
      expect(explained, name).toMatch(walk);
      expect(explained, name).toMatch(/PRIMARY KEY \(workspace_id=\? AND received_at=\? AND id=\?\)/);
      expect(explained, name).not.toMatch(/SCAN events/);
    }
  });
});
