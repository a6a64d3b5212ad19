/**
 * Timestamps as the API returns them (CONTRACT C3.12): always
 * YYYY-MM-DDTHH:mm:ss.sssZ, whatever form they were given in, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TIMESTAMP, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('timestamps on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Timestamps');
  });
  afterAll(async () => t?.close());

  it('C3.12: instants given with an offset, a date alone or microseconds come back in UTC with milliseconds', async () => {
    const [offset, dateOnly, micro] = await importRows(t, ws.id, 'leads', [
      { created_at: '2024-05-01T02:00:00.123456+02:00', updated_at: '2024-05-01T00:00:01Z' },
      { created_at: '2023-12-31' },
      { created_at: '2024-02-29T23:59:59.999999Z' },
    ]);
    const get = async (id: string | undefined) =>
      (await t.as(ws, { url: `/api/v1/leads/${id}` })).json().data as { created_at: string; updated_at: string };
    expect(await get(offset)).toMatchObject({
      created_at: '2024-05-01T00:00:00.123Z',
      updated_at: '2024-05-01T00:00:01.000Z',
    });
    expect(await get(dateOnly)).toMatchObject({
      created_at: '2023-12-31T00:00:00.000Z',
      updated_at: '2023-12-31T00:00:00.000Z',
    });
    expect((await get(micro)).created_at).toBe('2024-02-29T23:59:59.999Z');
  });

  it('C3.12: every timestamp of every resource has the canonical form', async () => {
    const [identity] = await importRows(t, ws.id, 'identities', [
      { email: 'ts@example.com', first_seen: '2024-01-01T10:00:00+01:00', created_at: '2024-01-01' },
    ]);
    await importRows(t, ws.id, 'activity', [{ identity_id: identity, type: 'page_view', created_at: '2024-01-02T03:04:05.6Z' }]);
    await importRows(t, ws.id, 'companies', [{ name: 'Stamp Co', created_at: '2024-01-03T00:00:00-05:00' }]);
    await importRows(t, ws.id, 'lists', [{ name: 'Stamped' }]);
    await importRows(t, ws.id, 'users', [{ email: 'stamp@example.com', workspace_role: 'admin', joined_at: '2024-01-04' }]);
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { name: 'Fresh' } });
    const samples = [
      created.json().data,
      ...(await t.as(ws, { url: '/api/v1/identities' })).json().data,
      ...(await t.as(ws, { url: `/api/v1/identities/${identity}/activity` })).json().data,
      ...(await t.as(ws, { url: '/api/v1/companies' })).json().data,
      ...(await t.as(ws, { url: '/api/v1/lists' })).json().data,
      ...(await t.as(ws, { url: '/api/v1/users' })).json().data,
    ] as Record<string, unknown>[];
    const stamps = samples.flatMap((item) =>
      ['created_at', 'updated_at', 'first_seen', 'last_seen', 'joined_at']
        .filter((field) => field in item)
        .map((field) => item[field]),
    );
    expect(stamps.length).toBeGreaterThanOrEqual(10);
    for (const stamp of stamps) expect(stamp).toMatch(TIMESTAMP);
    const identityBody = samples.find((item) => item.id === identity)!;
    expect(identityBody.first_seen).toBe('2024-01-01T09:00:00.000Z');
    expect(identityBody.created_at).toBe('2024-01-01T00:00:00.000Z');
  });
});
