/**
 * Remembered totals (issue 24, total-cache.ts): on SQLite a list's total is
 * reused while the store has not changed. Every kind of write must show in
 * the very next total, plain and filtered, on the first page and on a page
 * past the end: a create, a delete, a batch that is rolled back (its rows
 * were written, then undone) and a write by another connection to the same
 * store (another process, for SQLite). Run on both stores: PostgreSQL
 * always counts, and must answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('remembered lead totals on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // a second connection to the same store, as another process would hold
    const database =
      kind === 'sqlite' ? openDatabase({ kind: 'sqlite', filename: t.db.url }) : openDatabase({ kind: 'postgres', url: t.db.url, poolSize: 2 });
    other = await createTestApp(kind, { db: { database, url: t.db.url, destroy: () => database.close() } });
    ws = await t.createWorkspace('Remembered totals');
    for (const source of ['website', 'referral', 'website']) {
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source } })).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.db.destroy();
    await t?.close();
  });

  /** the totals of the first page and of a page past the end (the other path), which must agree */
  const totals = async (query: string) => {
    const first = await t.as(ws, { url: `/api/v1/leads?limit=1${query}` });
    const past = await t.as(ws, { url: `/api/v1/leads?limit=1&offset=50${query}` });
    expect(first.statusCode).toBe(200);
    expect(past.statusCode).toBe(200);
    expect(past.json().data).toEqual([]);
    expect(past.json().pagination.total).toBe(first.json().pagination.total);
    return first.json().pagination.total as number;
  };
  const expectTotals = async (all: number, website: number) => {
    // twice each: the second may be the remembered one
    for (let read = 0; read < 2; read += 1) {
      expect(await totals('')).toBe(all);
      expect(await totals('&source=website')).toBe(website);
    }
  };

  it('issue 24: a create and a delete change the very next total, plain and filtered', async () => {
    await expectTotals(3, 2);
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'website' } });
    expect(created.statusCode).toBe(201);
    await expectTotals(4, 3);
    const deleted = await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${created.json().data.id}` });
    expect(deleted.statusCode).toBe(204);
    await expectTotals(3, 2);
  });

  it('issue 24: a batch rolled back leaves the total as it was, and the next write still counts', async () => {
    await expectTotals(3, 2);
    const failed = await t.as(ws, {
      method: 'POST',
      url: '/api/v1/leads/batch',
      payload: {
        operations: [
          { op: 'create', body: { source: 'website' } },
          { op: 'update', id: '00000000-0000-4000-8000-000000000000', body: { properties: {} } },
        ],
      },
    });
    expect(failed.statusCode).toBe(400);
    await expectTotals(3, 2);
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'website' } });
    expect(created.statusCode).toBe(201);
    await expectTotals(4, 3);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${created.json().data.id}` })).statusCode).toBe(204);
    await expectTotals(3, 2);
  });

  it('issue 24: a write through another connection to the store changes the very next total', async () => {
    await expectTotals(3, 2);
    const created = await other.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'website' } });
    expect(created.statusCode).toBe(201);
    await expectTotals(4, 3);
    const elsewhere = await other.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { source: 'referral' } });
    expect(elsewhere.statusCode).toBe(201);
    await expectTotals(5, 3);
    for (const lead of [created, elsewhere]) {
      expect((await other.as(ws, { method: 'DELETE', url: `/api/v1/leads/${lead.json().data.id}` })).statusCode).toBe(204);
    }
    await expectTotals(3, 2);
  });
});
