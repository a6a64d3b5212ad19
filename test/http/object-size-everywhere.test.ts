/**
 * C3.8's cap of 32 KiB on each object (JSONB) field, on the endpoints
 * object-size.test.ts does not walk, on both stores: a tracked event's
 * properties and traits at the event endpoint, and an identity's traits at
 * the dashboard's API. Exactly 32 KiB is
 * taken; one byte more is a 400 naming the field under details.fields.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_FIELD_BYTES } from '../../src/schemas/text-guards.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { conversion, createSiteKey, identify, postEvents } from '../helpers/tracking.js';

/** an object whose compact JSON is exactly `bytes` long */
const sized = (bytes: number) => ({ notes: 'n'.repeat(bytes - '{"notes":""}'.length) });
const REASON = `must be at most ${MAX_JSON_FIELD_BYTES} bytes as JSON (32 KiB)`;

describe.each(storeKinds())('the 32 KiB cap on object fields everywhere on %s (C3.8)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let siteKey: string;
  let session: DashboardSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Caps');
    siteKey = (await createSiteKey(t, workspace)).key;
    session = await signIn(base, await member(t, workspace.id, 'admin'));
  });
  afterAll(async () => t?.close());

  it("C3.8: an event's properties or traits of 32 KiB are taken; one byte more is 400 naming events[i].field", async () => {
    const visitor = randomUUID();
    const traits = { ...sized(MAX_JSON_FIELD_BYTES - '"email":"big@example.com",'.length), email: 'big@example.com' };
    expect(JSON.stringify(traits).length).toBe(MAX_JSON_FIELD_BYTES);
    const fits = await postEvents(base, siteKey, [conversion(visitor, 'signup', { properties: sized(MAX_JSON_FIELD_BYTES) }), identify(visitor, traits)]);
    expect(fits.status, JSON.stringify(fits.body)).toBe(202);
    expect(fits.body).toMatchObject({ data: { accepted: 2 } });
    const over = await postEvents(base, siteKey, [
      conversion(visitor, 'signup', { properties: sized(MAX_JSON_FIELD_BYTES + 1) }),
      identify(visitor, { ...traits, email: 'bigg@example.com' }),
    ]);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: 'invalid_request',
      message: `events[0].properties ${REASON} (and 1 more)`,
      details: { fields: { 'events[0].properties': REASON, 'events[1].traits': REASON } },
    });
  });

  it("C3.8: an identity's traits at the dashboard's API: over 32 KiB is 400 naming the field", async () => {
    const identity = (await t.as(workspace, { method: 'POST', url: '/api/v1/identities', payload: { email: 'capped@example.com' } })).json().data as { id: string };
    const fits = await dashboard(base, session, 'PATCH', `/identities/${identity.id}`, { traits: sized(MAX_JSON_FIELD_BYTES) });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    const over = await dashboard(base, session, 'PATCH', `/identities/${identity.id}`, { traits: sized(MAX_JSON_FIELD_BYTES + 1) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'invalid_request', message: `traits ${REASON}`, details: { fields: { traits: REASON } } });
  });
});
