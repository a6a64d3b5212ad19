/**
 * Lists at the API on both stores: a list made or changed without a color
 * has one of the fixed palette (CONTRACT C6.4: `color` is always a
 * #RRGGBB), and the ids a static list takes are UUIDs, refused with a 400
 * naming the offending item like any other invalid UUID (C3.8), never a 403
 * or a 500 from the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_PALETTE, paletteColor } from '../../src/schemas/list-colors.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

const RRGGBB = /^#[0-9A-Fa-f]{6}$/;

describe.each(storeKinds())('lists on %s', (kind) => {
  let t: TestApp;
  let workspace: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    workspace = await t.createWorkspace('Lists');
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.as(workspace, { method, url: `/api/v1${url}`, payload: payload as Record<string, unknown> | undefined });

  it('C6.4: a list made without a color, or with color null, gets the palette color of its id, and keeps it', async () => {
    for (const body of [{ name: 'No color' }, { name: 'Null color', color: null }]) {
      const created = await call('POST', '/lists', body);
      expect(created.statusCode).toBe(201);
      const list = created.json().data as { id: string; color: string };
      expect(list.color).toMatch(RRGGBB);
      expect(LIST_PALETTE).toContain(list.color);
      expect(list.color).toBe(paletteColor(list.id));
      expect((await call('GET', `/lists/${list.id}`)).json().data.color).toBe(list.color);
      const listed = (await call('GET', '/lists')).json().data as { id: string; color: string }[];
      expect(listed.find((entry) => entry.id === list.id)?.color).toBe(list.color);
    }
  });

  it('C6.4: a chosen color is kept; PATCH with color null gives the palette color back, never null', async () => {
    const list = (await call('POST', '/lists', { name: 'Chosen', color: '#abcdef' })).json().data as { id: string; color: string };
    expect(list.color).toBe('#abcdef');
    const renamed = await call('PATCH', `/lists/${list.id}`, { name: 'Renamed' });
    expect(renamed.json().data.color).toBe('#abcdef');
    const cleared = await call('PATCH', `/lists/${list.id}`, { color: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.color).toBe(paletteColor(list.id));
    const bad = await call('PATCH', `/lists/${list.id}`, { color: 'red' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual({ fields: { color: 'must be a color written #RRGGBB' } });
  });

  it('C3.8: identity_ids that are not UUIDs are 400 naming the item, not 403 or 500, and add nobody', async () => {
    const list = (await call('POST', '/lists', { name: 'Static' })).json().data as { id: string };
    const identity = (await call('POST', '/identities', { email: 'member@example.com' })).json().data as { id: string };
    for (const [ids, field] of [
      [['not-a-uuid'], 'identity_ids[0]'],
      [[identity.id, '0000000g-0000-4000-8000-000000000000'], 'identity_ids[1]'],
      [[identity.id, ''], 'identity_ids[1]'],
    ] as const) {
      const refused = await call('POST', `/lists/${list.id}/identities`, { identity_ids: ids });
      expect(refused.statusCode, JSON.stringify(ids)).toBe(400);
      expect(refused.json()).toEqual({ error: 'invalid_request', message: `${field} must be a UUID`, details: { fields: { [field]: 'must be a UUID' } } });
    }
    expect((await call('GET', `/lists/${list.id}/identities`)).json().data).toEqual([]);
    const added = await call('POST', `/lists/${list.id}/identities`, { identity_ids: [identity.id.toUpperCase()] });
    expect(added.json()).toEqual({ data: { added: 1 } });
  });
});
