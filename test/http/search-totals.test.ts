/**
 * A leads search made only of the list's filters (source and code equality,
 * created_at bounds, one group or none) takes its exact total from the day
 * counters (src/repositories/tenant/search-lead-totals.ts). The total must be
 * the number of matching rows whatever the bounds: at a row's own instant and
 * a millisecond either side (gte/gt/lte/lt), at midnight, within one day,
 * across days, with leads written by the import, by the API and deleted, and
 * never counting another workspace's leads. Searches the counters cannot
 * answer (two groups, other operators) keep counting rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface Row {
  source: string | null;
  code: string;
  created_at: string;
}

const at = (day: number, time: string) => `2025-03-${String(day).padStart(2, '0')}T${time}Z`;
/** the instants the bounds are put on, and rows a millisecond either side of each */
const EDGE = at(11, '12:00:00.000');
const ROWS: Row[] = [
  { source: 'ads', code: 'E-0', created_at: EDGE },
  { source: 'ads', code: 'E-1', created_at: at(11, '11:59:59.999') },
  { source: 'blog', code: 'E-2', created_at: at(11, '12:00:00.001') },
  { source: 'ads', code: 'M-0', created_at: at(12, '00:00:00.000') },
  { source: null, code: 'M-1', created_at: at(11, '23:59:59.999') },
  { source: 'blog', code: 'M-2', created_at: at(12, '00:00:00.001') },
  { source: 'ads', code: 'X-0', created_at: at(1, '03:00:00.000') },
  { source: 'ads', code: 'X-1', created_at: at(10, '20:00:00.000') },
  { source: 'blog', code: 'X-2', created_at: at(20, '08:30:00.000') },
  { source: 'ads', code: 'X-3', created_at: at(28, '23:00:00.000') },
];

type Condition = { field: string; op: string; value: unknown };
type Check = (row: Row) => boolean;

const where = (...all: Condition[]) => ({ filter: { any: [{ all }] } });

/** what a condition means, on the rows as written */
function check(condition: Condition): Check {
  const { field, op, value } = condition;
  const bound = field === 'created_at' ? new Date(String(value)).toISOString() : value;
  return (row) => {
    const cell = row[field as keyof Row];
    if (cell === null) return false;
    switch (op) {
      case 'eq':
        return cell === bound;
      case 'gt':
        return cell > String(bound);
      case 'gte':
        return cell >= String(bound);
      case 'lt':
        return cell < String(bound);
      case 'lte':
        return cell <= String(bound);
      default:
        throw new Error(`no check for ${op}`);
    }
  };
}

const SEARCHES: Condition[][] = [
  [],
  [{ field: 'source', op: 'eq', value: 'ads' }],
  [{ field: 'source', op: 'eq', value: 'none-such' }],
  [{ field: 'code', op: 'eq', value: 'E-0' }],
  [{ field: 'created_at', op: 'gte', value: EDGE }],
  [{ field: 'created_at', op: 'gt', value: EDGE }],
  [{ field: 'created_at', op: 'lte', value: EDGE }],
  [{ field: 'created_at', op: 'lt', value: EDGE }],
  [{ field: 'created_at', op: 'gte', value: '2025-03-12' }],
  [{ field: 'created_at', op: 'lt', value: '2025-03-12' }],
  [{ field: 'created_at', op: 'lte', value: '2025-03-12T00:00:00Z' }],
  [{ field: 'created_at', op: 'gte', value: '2025-03-11' }, { field: 'created_at', op: 'lt', value: '2025-03-12' }],
  [{ field: 'created_at', op: 'gte', value: EDGE }, { field: 'created_at', op: 'lte', value: EDGE }],
  [{ field: 'created_at', op: 'gt', value: EDGE }, { field: 'created_at', op: 'lt', value: EDGE }],
  [{ field: 'created_at', op: 'gte', value: '2025-03-02' }, { field: 'created_at', op: 'lte', value: at(20, '08:30:00.000') }],
  [{ field: 'source', op: 'eq', value: 'ads' }, { field: 'created_at', op: 'gte', value: EDGE }, { field: 'created_at', op: 'lt', value: at(28, '23:00:00.000') }],
  [{ field: 'source', op: 'eq', value: 'blog' }, { field: 'created_at', op: 'gt', value: '2025-03-11T23:59:59.999+00:00' }],
  [{ field: 'source', op: 'eq', value: 'ads' }, { field: 'source', op: 'eq', value: 'ads' }],
  [{ field: 'source', op: 'eq', value: 'ads' }, { field: 'source', op: 'eq', value: 'blog' }],
  [{ field: 'code', op: 'eq', value: 'X-2' }, { field: 'created_at', op: 'gte', value: '2025-03-20' }],
];

describe.each(storeKinds())('search totals from the day counters on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let rows: Row[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Totals');
    const other = await t.createWorkspace('Totals other');
    // the other workspace holds the same rows: none may be counted
    await importRows(t, other.id, 'leads', ROWS as unknown as Record<string, unknown>[]);
    const ids = await importRows(t, ws.id, 'leads', ROWS as unknown as Record<string, unknown>[]);
    // one more through the API (written now, counted by its own path), one imported row deleted
    const made = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'API-0', source: 'ads' } });
    expect(made.statusCode, made.body).toBe(201);
    const deleted = await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${ids[6]!}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const madeRow = made.json().data as Row;
    rows = [...ROWS.filter((_, index) => index !== 6), { source: madeRow.source, code: madeRow.code, created_at: madeRow.created_at }];
  });
  afterAll(async () => t?.close());

  it.each(SEARCHES.map((conditions) => [JSON.stringify(conditions), conditions] as const))('C11.3: the total of %s is the number of matching rows', async (_label, conditions) => {
    const answer = await t.as(ws, { method: 'POST', url: '/api/v1/leads/search', payload: conditions.length === 0 ? {} : where(...conditions) });
    expect(answer.statusCode, answer.body).toBe(200);
    const json = answer.json();
    const expected = rows.filter((row) => conditions.every((condition) => check(condition)(row))).map((row) => row.code);
    expect(json.data.map((lead: Row) => lead.code).sort()).toEqual([...expected].sort());
    expect(json.pagination.total).toBe(expected.length);
  });

  it('C11.3: two groups, or an operator the counters do not know, are still counted exactly', async () => {
    const two = { filter: { any: [{ all: [{ field: 'source', op: 'eq', value: 'blog' }] }, { all: [{ field: 'code', op: 'eq', value: 'E-0' }] }] } };
    const answer = await t.as(ws, { method: 'POST', url: '/api/v1/leads/search', payload: two });
    expect(answer.json().pagination.total).toBe(rows.filter((row) => row.source === 'blog' || row.code === 'E-0').length);
    const neq = await t.as(ws, { method: 'POST', url: '/api/v1/leads/search', payload: where({ field: 'source', op: 'neq', value: 'ads' }) });
    expect(neq.json().pagination.total).toBe(rows.filter((row) => row.source !== 'ads').length);
  });
});
