/**
 * C9.1: the dashboard's search over real HTTP on both stores. People by name
 * or email, companies by name or domain, leads by code, each matched by
 * "contains", case-insensitively, from two characters on (one is a 400),
 * at most five of each kind, the caller's workspace only, and in step with
 * writes (a renamed person is found by the new name only, a deleted lead no
 * more). The index behind it (pg_trgm, FTS5 trigram) is migration 0013a.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface Hit {
  type: 'person' | 'company' | 'lead';
  id: string;
  label: string;
  detail: string | null;
}

describe.each(storeKinds())('C9.1: search on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let session: DashboardSession;
  let workspace: TestWorkspace;
  let jane: string;
  let lead: string;
  let acme: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Search');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    const people = await importRows(t, workspace.id, 'identities', [
      { email: 'jane.doe@acme.io', name: 'Jane Doe' },
      { email: 'nameless@example.org' },
      { email: 'percent@example.org', name: 'Ex Ample' },
      ...Array.from({ length: 7 }, (_, index) => ({
        email: `crowd${index}@crowd.test`,
        name: `Crowd ${index}`,
        created_at: new Date(Date.now() - (10 - index) * 60_000).toISOString(),
      })),
    ]);
    jane = people[0]!;
    const companies = await importRows(t, workspace.id, 'companies', [
      { name: 'Acme Rockets', domain: 'acme.io' },
      { name: 'Globex', domain: 'globex.com' },
    ]);
    acme = companies[0]!;
    lead = (await importRows(t, workspace.id, 'leads', [{ code: 'LD-2044' }, { code: 'QX' }]))[0]!;
    const other = await t.createWorkspace('Elsewhere');
    await importRows(t, other.id, 'identities', [{ email: 'jane.other@acme.io', name: 'Jane Other' }]);
    await importRows(t, other.id, 'companies', [{ name: 'Acme Elsewhere', domain: 'acme-elsewhere.io' }]);
    await importRows(t, other.id, 'leads', [{ code: 'LD-2045' }]);
  });
  afterAll(async () => t?.close());

  const search = async (q: string) => {
    const answer = await dashboard(base, session, 'GET', `/search?q=${encodeURIComponent(q)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as Hit[];
  };
  const labels = async (q: string) => (await search(q)).map((hit) => `${hit.type}:${hit.label}`).sort();

  it.each(['a', ' a ', 'é', '  '])('one character besides spaces (%j) is a 400 naming q', async (q) => {
    const answer = await dashboard(base, session, 'GET', `/search?q=${encodeURIComponent(q)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request', details: { parameters: { q: expect.any(String) } } });
  });

  it('a missing q and one over 100 characters are 400s; exactly 100 is answered', async () => {
    expect((await dashboard(base, session, 'GET', '/search')).status).toBe(400);
    expect((await dashboard(base, session, 'GET', `/search?q=${'x'.repeat(101)}`)).status).toBe(400);
    expect(await search('x'.repeat(100))).toEqual([]);
  });

  it('two characters find what contains them: at the start, inside and at the very end of a value', async () => {
    expect(await labels('ja')).toEqual(['person:Jane Doe']);
    expect(await labels('oe')).toEqual(['person:Jane Doe']);
    expect(await labels('QX')).toEqual(['lead:QX']);
    expect(await labels('lo')).toEqual(['company:Globex']);
  });

  it('is case-insensitive and matches inside words, across spaces and in emails and domains', async () => {
    expect(await labels('JANE')).toEqual(['person:Jane Doe']);
    expect(await labels('ne D')).toEqual(['person:Jane Doe']);
    expect(await labels('LESS@EXAMPLE')).toEqual(['person:nameless@example.org']);
    expect(await labels('CME.I')).toEqual(['company:Acme Rockets', 'person:Jane Doe']);
    expect(await labels('ld-20')).toEqual(['lead:LD-2044']);
  });

  it('answers what each result opens and shows: ids, a name else the email, the email or domain besides', async () => {
    expect(await search('acme')).toEqual([
      { type: 'person', id: jane, label: 'Jane Doe', detail: 'jane.doe@acme.io' },
      { type: 'company', id: acme, label: 'Acme Rockets', detail: 'acme.io' },
    ]);
    expect(await search('LD-2044')).toEqual([{ type: 'lead', id: lead, label: 'LD-2044', detail: null }]);
    expect(await search('nameless')).toEqual([expect.objectContaining({ label: 'nameless@example.org', detail: null })]);
  });

  it('takes % _ \\ and " literally, and finds nothing for a text no value holds', async () => {
    expect(await search('e_')).toEqual([]);
    expect(await search('%%')).toEqual([]);
    expect(await search('\\"x')).toEqual([]);
    expect(await search('zzq')).toEqual([]);
  });

  it('shows at most five of a kind, newest first', async () => {
    const people = (await search('crowd')).filter((hit) => hit.type === 'person');
    expect(people.map((hit) => hit.label)).toEqual(['Crowd 6', 'Crowd 5', 'Crowd 4', 'Crowd 3', 'Crowd 2']);
  });

  it("never shows another workspace's people, companies or leads", async () => {
    expect(await labels('other')).toEqual([]);
    expect(await labels('elsewhere')).toEqual([]);
    expect(await labels('LD-2045')).toEqual([]);
    expect((await search('acme')).map((hit) => hit.label)).not.toContain('Jane Other');
  });

  it('follows writes: a renamed person is found by the new name only, a deleted lead no more', async () => {
    const key = { authorization: `Bearer ${workspace.production.key}`, 'content-type': 'application/json' };
    const renamed = await fetch(`${base}/api/v1/identities/${jane}`, { method: 'PATCH', headers: key, body: JSON.stringify({ name: 'Janet Roe' }) });
    expect(renamed.status).toBe(200);
    expect(await labels('roe')).toEqual(['person:Janet Roe']);
    expect(await labels('Doe')).toEqual(['person:Janet Roe']);
    expect(await labels('jane d')).toEqual([]);
    const deleted = await fetch(`${base}/api/v1/leads/${lead}`, { method: 'DELETE', headers: { authorization: key.authorization } });
    expect(deleted.status).toBe(204);
    expect(await labels('2044')).toEqual([]);
  });
});
