/**
 * Reads that skip Kysely's asynchronous path on SQLite (src/db/sync-read.ts,
 * issue 24) run only while the store's one connection is free: a read that
 * arrives while a write transaction is open on it waits for that transaction
 * to end, as it did through Kysely, and never sees what the transaction wrote
 * and then rolled back. Both stores, through HTTP.
 */
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceOf } from '../../src/http/request-context.js';
import { withWriteHook } from '../../src/repositories/write-hooks.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

/** A POST whose write transaction stays open until the test lets it go, then fails (rolled back). */
function heldWrite(gate: { wait: Promise<void> }): FastifyPluginAsync {
  return async (api) => {
    api.post('/held-leads', async (request) => {
      const hook = async () => {
        await gate.wait;
        throw new Error('rolled back on purpose');
      };
      await withWriteHook(hook, () => workspaceOf(request).leads.create({ code: (request.body as { code: string }).code }));
      return { data: null };
    });
  };
}

describe.each(storeKinds())('reads while a write transaction is open on %s (issue 24)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  const gate: { wait: Promise<void> } = { wait: Promise.resolve() };

  beforeAll(async () => {
    t = await createTestApp(kind, { extraRoutes: heldWrite(gate) });
    ws = await t.createWorkspace('Sync reads');
  });
  afterAll(async () => t?.close());

  it('a GET sent while a write transaction is open never sees its rows, and answers once it has ended', async () => {
    let release: () => void = () => undefined;
    gate.wait = new Promise<void>((resolve) => (release = resolve));
    // (inject sends when awaited: Promise.resolve starts it now)
    const writing = Promise.resolve(t.as(ws, { method: 'POST', url: '/api/v1/held-leads', payload: { code: 'held-write' } }));
    // the lead is inserted, its transaction open and waiting for the gate
    await new Promise((resolve) => setTimeout(resolve, 50));
    let answered = false;
    const reading = Promise.resolve(t.as(ws, { method: 'GET', url: '/api/v1/leads?code=held-write' })).then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // SQLite has one connection: the read waits for the transaction (PostgreSQL reads on another, at once)
    if (kind === 'sqlite') expect(answered).toBe(false);
    release();
    expect((await writing).statusCode).toBe(500);
    const read = await reading;
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ data: [], pagination: { total: 0 } });
    // and the store's connection is usable afterwards
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'after-held' } });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { data: { id: string } }).data.id;
    const got = await t.as(ws, { method: 'GET', url: `/api/v1/leads/${id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ data: { id, code: 'after-held' } });
  });
});
