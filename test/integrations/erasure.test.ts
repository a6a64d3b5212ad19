/**
 * Deletion and erasure (CONTRACT C8.4) on both stores: DELETE /leads/{id};
 * POST /erasures by email and by visitor id, after real tracked visits, leaves
 * nothing of the person reachable, keeps lead totals exact and leaves other
 * people and other workspaces untouched; the CLI `erase`; the audit line.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, conversion, createSiteKey, eventually, identify, pageView, postEvents } from '../helpers/tracking.js';

interface Lead {
  id: string;
  visitor_id: string;
  identity_id: string | null;
  source: string | null;
}

describe.each(storeKinds())('deletion and erasure on %s (C8.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let siteKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    ws = await t.createWorkspace('Erasure A');
    other = await t.createWorkspace('Erasure B');
    siteKey = (await createSiteKey(t, ws)).key;
  });
  afterAll(async () => t?.close());

  const eventsOf = async (visitorIds: string[]) => {
    const rows = await sql<{ n: number | string }>`select count(*) as n from events where workspace_id = ${ws.id} and visitor_id in (${sql.join(visitorIds)})`.execute(
      t.db.database.db,
    );
    return Number(rows.rows[0]?.n);
  };
  const totals = async (workspace = ws) => {
    const answer = async (path: string) => (await api(base, workspace, path)).body.pagination?.total ?? -1;
    return { all: await answer('/leads?limit=1'), website: await answer('/leads?limit=1&source=website'), byDay: await answer(`/leads?limit=1&created_after=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}`) };
  };
  /** Every lead, walked: the total must be exactly what a walk finds. */
  const everyLead = async (workspace = ws) => {
    const leads = await all<Lead>(base, workspace, '/leads');
    expect((await totals(workspace)).all).toBe(leads.length);
    return leads;
  };

  /** A person who visits with two browsers, identifies with `email` in both, and converts in both. */
  async function trackedPerson(email: string): Promise<{ visitors: string[]; identityId: string }> {
    const visitors: string[] = [randomUUID(), randomUUID()];
    for (const visitor of visitors) {
      const posted = await postEvents(base, siteKey, [
        pageView(visitor, '/pricing'),
        pageView(visitor, '/docs'),
        identify(visitor, { email, name: email.split('@')[0] }),
        conversion(visitor, 'signup', { code: `signup-${visitor}` }),
      ]);
      expect(posted.status).toBe(202);
    }
    const identities = await eventually(
      async () => (await api(base, ws, `/identities?email=${encodeURIComponent(email)}`)).body.data as { id: string }[],
      (found) => found.length === 1,
    );
    const identityId = (identities[0] as { id: string }).id;
    await eventually(
      async () => (await all<Lead>(base, ws, '/leads')).filter((lead) => visitors.includes(lead.visitor_id)).length,
      (count) => count === 2,
    );
    await importRows(t, ws.id, 'personalities', [
      { visitor_id: visitors[0], score: 0.5, personality: { type: 'explorer', traits: [] }, learning_percentage: 0.5 },
    ]);
    // a lead written through the API for the person's visitor, and one naming the identity
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { visitor_id: visitors[0], source: 'website' } })).statusCode).toBe(201);
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { identity_id: identityId, source: 'partner' } })).statusCode).toBe(201);
    return { visitors, identityId };
  }

  it('C8.4: DELETE /leads/{id} is 204, the lead is gone, totals stay exact, another workspace cannot delete it', async () => {
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'to-delete', source: 'website' } });
    const id = (created.json() as { data: { id: string } }).data.id;
    const before = await totals();
    expect((await t.as(other, { method: 'DELETE', url: `/api/v1/leads/${id}` })).statusCode).toBe(404);
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/leads/${id}` })).statusCode).toBe(200);
    const deleted = await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${id}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/leads/${id}` })).statusCode).toBe(404);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${id}` })).statusCode).toBe(404);
    expect((await t.as(ws, { method: 'DELETE', url: '/api/v1/leads/not-a-uuid' })).statusCode).toBe(404);
    const after = await totals();
    expect(after).toEqual({ all: before.all - 1, website: before.website - 1, byDay: before.byDay - 1 });
    await everyLead();
  });

  it('C8.4: erasing by email removes the identities, activity, personalities, events and leads of the person; the rest stays', async () => {
    const person = await trackedPerson('erase.me@example.com');
    const keeper = await trackedPerson('keep.me@example.com');
    // the same email in another workspace is another person
    await importRows(t, other.id, 'identities', [{ email: 'erase.me@example.com', name: 'Other workspace' }]);
    const keeperActivity = (await all(base, ws, `/identities/${keeper.identityId}/activity`)).length;
    const before = await totals();
    const leadsBefore = await everyLead();
    const personLeads = leadsBefore.filter((lead) => person.visitors.includes(lead.visitor_id) || lead.identity_id === person.identityId);
    expect(personLeads.length).toBe(4);
    expect(await eventsOf(person.visitors)).toBe(8);

    const erased = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email: 'Erase.Me@Example.com' } });
    expect(erased.statusCode, erased.body).toBe(200);
    const counts = (erased.json() as { data: Record<string, number> }).data;
    expect(Object.keys(counts).sort()).toEqual(['activity', 'events', 'identities', 'leads', 'list_memberships', 'personalities']);
    expect(counts).toMatchObject({ identities: 1, personalities: 1, events: 8, leads: 4, list_memberships: 0 });
    expect(counts.activity).toBeGreaterThanOrEqual(8);

    // nothing of the person is reachable
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/identities/${person.identityId}` })).statusCode).toBe(404);
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/identities/${person.identityId}/activity` })).statusCode).toBe(404);
    expect((await api(base, ws, '/identities?email=erase.me@example.com')).body.data).toEqual([]);
    for (const visitor of person.visitors) {
      expect((await api(base, ws, `/identities?visitor_id=${visitor}`)).body.data).toEqual([]);
    }
    const leadsAfter = await everyLead();
    for (const lead of personLeads) expect(leadsAfter.map((item) => item.id)).not.toContain(lead.id);
    expect(await eventsOf(person.visitors)).toBe(0);
    // totals exact: what was there less the person's leads
    const after = await totals();
    expect(after.all).toBe(before.all - 4);
    expect(after.website).toBe(before.website - personLeads.filter((lead) => lead.source === 'website').length);
    expect(after.byDay).toBe(before.byDay - 4);
    // the other person, and the other workspace, are untouched
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/identities/${keeper.identityId}` })).statusCode).toBe(200);
    expect((await all(base, ws, `/identities/${keeper.identityId}/activity`)).length).toBe(keeperActivity);
    expect((await api(base, ws, `/identities/${keeper.identityId}/personalities`)).body.data).toHaveLength(1);
    expect(leadsAfter.filter((lead) => keeper.visitors.includes(lead.visitor_id) || lead.identity_id === keeper.identityId)).toHaveLength(4);
    expect(await eventsOf(keeper.visitors)).toBe(8);
    expect((await api(base, other, '/identities?email=erase.me@example.com')).body.data).toHaveLength(1);

    // erasing again finds nothing
    const again = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email: 'erase.me@example.com' } });
    expect((again.json() as { data: Record<string, number> }).data).toEqual({ identities: 0, activity: 0, personalities: 0, events: 0, list_memberships: 0, leads: 0 });
  });

  it('C8.4: erasing by visitor id removes an anonymous visitor\'s events and leads', async () => {
    const visitor = randomUUID();
    expect((await postEvents(base, siteKey, [pageView(visitor, '/'), conversion(visitor, 'demo')])).status).toBe(202);
    await eventually(async () => (await all<Lead>(base, ws, '/leads')).filter((lead) => lead.visitor_id === visitor).length, (n) => n === 1);
    const before = await totals();
    const erased = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { visitor_id: visitor.toUpperCase() } });
    expect(erased.statusCode).toBe(200);
    expect((erased.json() as { data: Record<string, number> }).data).toMatchObject({ identities: 0, events: 2, leads: 1 });
    expect((await totals()).all).toBe(before.all - 1);
    expect(await eventsOf([visitor])).toBe(0);
    await everyLead();
  });

  it('C8.4: an erasure names exactly one of email and visitor_id (400 otherwise, nothing erased)', async () => {
    for (const payload of [{}, { email: 'a@example.com', visitor_id: randomUUID() }, { email: 'not-an-email' }, { visitor_id: 'x' }, { name: 'x' }]) {
      const response = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('C8.4: the CLI `erase --workspace ID --email E` erases through the same service and writes an audit line', async () => {
    const person = await trackedPerson('cli.erase@example.com');
    let stdout = '';
    let stderr = '';
    const sink = (append: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          append(String(chunk));
          done();
        },
      });
    const code = await run(['erase', '--workspace', ws.id, '--email', 'cli.erase@example.com', '--json'], {
      stdout: sink((text) => (stdout += text)),
      stderr: sink((text) => (stderr += text)),
      stdin: Readable.from([]),
      env: { DATABASE_URL: t.db.url },
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ identities: 1, leads: 4, events: 8 });
    const audit = JSON.parse(stderr.trim()) as Record<string, unknown>;
    expect(audit).toMatchObject({ audit: 'erasure', workspace_id: ws.id, subject: 'email', erased: { identities: 1, leads: 4 } });
    expect(stderr).not.toContain('cli.erase@example.com');
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/identities/${person.identityId}` })).statusCode).toBe(404);
    await everyLead();
  });
});
