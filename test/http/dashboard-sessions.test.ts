/**
 * The dashboard's sessions and roles over real HTTP, on both stores
 * (CONTRACT C7.2 to C7.6): the cookie's flags, CSRF and same-origin checks,
 * sign-in throttling shared by processes without revealing which emails
 * exist, API keys refused on dashboard endpoints and sessions refused on
 * /api/v1, what each role may do, the last admin, signing out, the 30-day
 * sliding end, password links, and switching workspace.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, signInAnswer, type Person } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const DAY_MS = 86_400_000;
let addressCounter = 0;
/** a client address of its own (the app trusts X-Forwarded-For), so throttles of one test never touch another */
const fromAddress = () => ({ 'x-forwarded-for': `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}` });

describe.each(storeKinds())('dashboard sessions on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let base: string;
  let otherBase: string;
  let shift = 0;
  const clock = () => Date.now() + shift;
  let workspace: TestWorkspace;
  let admin: Person;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock, trustProxy: true });
    other = await createTestApp(kind, { clock, trustProxy: true, db: t.db });
    base = await t.listen();
    otherBase = await other.listen();
    workspace = await t.createWorkspace('Sessions');
    admin = await member(t, workspace.id, 'admin');
    await importRows(t, workspace.id, 'leads', [{ code: 'S-1', source: 'website', properties: { status: 'new' } }]);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('C7.3: the session cookie is HttpOnly, SameSite=Lax, Path=/, not Secure over http, and lasts 30 days', async () => {
    const session = await signIn(base, admin, fromAddress());
    const attributes = session.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(session.cookie).toMatch(/^leadlight_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attributes).not.toContain('secure');
    const expires = Date.parse(attributes.find((part) => part.startsWith('expires='))!.slice('expires='.length));
    expect(Math.abs(expires - (clock() + 30 * DAY_MS))).toBeLessThan(60_000);
  });

  it('C7.3: over https (a trusted proxy says so) the cookie is Secure', async () => {
    const session = await signIn(base, admin, { ...fromAddress(), 'x-forwarded-proto': 'https', origin: `https://${new URL(base).host}` });
    expect(session.setCookie.toLowerCase().split(';').map((part) => part.trim())).toContain('secure');
  });

  it('C7.3: a change without the CSRF token, with a wrong one, or from another origin is refused (403) and changes nothing', async () => {
    const session = await signIn(base, admin, fromAddress());
    const count = async () => ((await dashboard(base, session, 'GET', '/keys')).body.data as unknown[]).length;
    const before = await count();
    const body = { type: 'development', name: 'csrf' };
    for (const headers of [{ 'x-csrf-token': '' }, { 'x-csrf-token': session.csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }]) {
      const refused = await dashboard(base, session, 'POST', '/keys', body, headers);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden' });
    }
    const withoutToken = await fetch(`${base}/dashboard/api/keys`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(withoutToken.status).toBe(403);
    const crossOrigin = await dashboard(base, session, 'POST', '/keys', body, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    const crossSite = await dashboard(base, session, 'POST', '/keys', body, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await count()).toBe(before);
    const allowed = await dashboard(base, session, 'POST', '/keys', body, { origin: base });
    expect(allowed.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('C7.3: signing in from another origin is refused', async () => {
    const answer = await signInAnswer(base, admin.email, admin.password, { ...fromAddress(), origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('C7.3: an unknown email and a wrong password get the same answer', async () => {
    const unknown = await signInAnswer(base, `nobody.${randomUUID()}@example.com`, 'some password 123', fromAddress());
    const wrong = await signInAnswer(base, admin.email, 'not the password', fromAddress());
    // invited, no password set yet
    const pending = `pending.${randomUUID()}@example.com`;
    await t.services.accounts.invite(workspace.id, { email: pending, role: 'viewer' });
    const noPassword = await signInAnswer(base, pending, 'some password 123', fromAddress());
    for (const answer of [unknown, wrong, noPassword]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'unauthorized', message: 'Invalid email or password' });
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  it('C7.3: ten failed sign-ins for an account refuse it for 15 minutes, also the right password, on every process', async () => {
    const person = await member(t, workspace.id, 'viewer');
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // each from another address and alternately on either process: the account's count is shared
      const answer = await signInAnswer(attempt % 2 === 0 ? base : otherBase, person.email, 'wrong password', fromAddress());
      expect(answer.status).toBe(401);
    }
    const refused = await signInAnswer(otherBase, person.email, person.password, fromAddress());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limit_exceeded' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // an unknown email is throttled exactly alike: nothing tells the two apart
    const stranger = `stranger.${randomUUID()}@example.com`;
    for (let attempt = 0; attempt < 10; attempt += 1) await signInAnswer(base, stranger, 'wrong password', fromAddress());
    const strangerRefused = await signInAnswer(base, stranger, 'wrong password', fromAddress());
    expect(strangerRefused.status).toBe(429);
    expect(strangerRefused.body).toEqual(refused.body);

    shift += 15 * 60_000 + 1000;
    try {
      expect((await signInAnswer(base, person.email, person.password, fromAddress())).status).toBe(200);
    } finally {
      shift -= 15 * 60_000 + 1000;
    }
  });

  it('C7.3: ten failed sign-ins from one address refuse that address, whatever the account', async () => {
    const address = fromAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await signInAnswer(base, `guess.${attempt}.${randomUUID()}@example.com`, 'guess', address)).status).toBe(401);
    }
    expect((await signInAnswer(base, admin.email, admin.password, address)).status).toBe(429);
    expect((await signInAnswer(base, admin.email, admin.password, fromAddress())).status).toBe(200);
  });

  it('C7.6: API keys are refused on dashboard endpoints, even beside a valid session', async () => {
    const session = await signIn(base, admin, fromAddress());
    const presentations: Record<string, string>[] = [
      { authorization: `Bearer ${workspace.production.key}` },
      { 'x-api-key': workspace.development.key },
      { authorization: `Bearer ${workspace.production.key}`, cookie: session.cookie },
    ];
    for (const headers of presentations) {
      for (const path of ['/leads', '/keys', '/members']) {
        const answer = await dashboard(base, undefined, 'GET', path, undefined, headers);
        expect(answer.status, path).toBe(401);
      }
      const create = await dashboard(base, undefined, 'POST', '/keys', { type: 'production' }, { ...headers, 'x-csrf-token': session.csrf });
      expect(create.status).toBe(401);
    }
  });

  it('C7.6: a session does not open /api/v1', async () => {
    const session = await signIn(base, admin, fromAddress());
    const answer = await fetch(`${base}/api/v1/leads`, { headers: { cookie: session.cookie } });
    expect(answer.status).toBe(401);
  });

  it('C7.4: a viewer reads, and every change is refused (403) and changes nothing', async () => {
    const viewer = await signIn(base, await member(t, workspace.id, 'viewer'), fromAddress());
    const leads = await dashboard(base, viewer, 'GET', '/leads');
    expect(leads.status).toBe(200);
    const lead = (leads.body.data as { id: string; properties: unknown }[])[0]!;
    const keysBefore = (await dashboard(base, viewer, 'GET', '/keys')).body.data as { id: string }[];
    const refusals = [
      await dashboard(base, viewer, 'PATCH', `/leads/${lead.id}`, { properties: { hacked: true } }),
      await dashboard(base, viewer, 'POST', '/keys', { type: 'production', name: 'forged' }),
      await dashboard(base, viewer, 'POST', `/keys/${workspace.development.id}/rotate`),
      await dashboard(base, viewer, 'POST', `/keys/${workspace.development.id}/revoke`),
      await dashboard(base, viewer, 'POST', '/members', { email: `forged.${randomUUID()}@example.com`, role: 'admin' }),
      await dashboard(base, viewer, 'PATCH', `/members/${admin.id}`, { role: 'viewer' }),
      await dashboard(base, viewer, 'DELETE', `/members/${admin.id}`),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden', details: { role: 'viewer' } });
    }
    expect((await dashboard(base, viewer, 'GET', `/leads/${lead.id}`)).body.data).toMatchObject({ properties: lead.properties });
    expect((await dashboard(base, viewer, 'GET', '/keys')).body.data).toEqual(keysBefore);
    expect((await fetch(`${base}/api/v1/leads`, { headers: { authorization: `Bearer ${workspace.development.key}` } })).status).toBe(200);
    expect((await t.services.forWorkspace(workspace.id).users.get(admin.id)).workspace_role).toBe('admin');
  });

  it('C7.4: a member edits leads and identities, but not keys or members', async () => {
    const session = await signIn(base, await member(t, workspace.id, 'member'), fromAddress());
    const lead = ((await dashboard(base, session, 'GET', '/leads')).body.data as { id: string }[])[0]!;
    const edited = await dashboard(base, session, 'PATCH', `/leads/${lead.id}`, { properties: { status: 'qualified' }, summary: { note: 'called' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ properties: { status: 'qualified' }, summary: { note: 'called' } });
    const [identityId] = await importRows(t, workspace.id, 'identities', [{ email: `member.edit.${randomUUID()}@example.com` }]);
    const favourite = await dashboard(base, session, 'PATCH', `/identities/${identityId}`, { name: 'Ada', traits: { plan: 'pro' }, is_favorite: true });
    expect(favourite.body.data).toMatchObject({ name: 'Ada', traits: { plan: 'pro' }, is_favorite: true });
    // a lead's other fields are not the dashboard's to change
    expect((await dashboard(base, session, 'PATCH', `/leads/${lead.id}`, { company_id: null })).status).toBe(400);
    expect((await dashboard(base, session, 'POST', '/keys', { type: 'development' })).status).toBe(403);
    expect((await dashboard(base, session, 'POST', '/members', { email: `m.${randomUUID()}@example.com`, role: 'viewer' })).status).toBe(403);
  });

  it('C7.5: keys of another workspace are not found from a session, and keep working', async () => {
    const session = await signIn(base, admin, fromAddress());
    const foreign = await t.createWorkspace('Foreign keys');
    for (const action of ['rotate', 'revoke']) {
      const answer = await dashboard(base, session, 'POST', `/keys/${foreign.production.id}/${action}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', message: 'key not found' });
    }
    expect((await fetch(`${base}/api/v1/leads`, { headers: { authorization: `Bearer ${foreign.production.key}` } })).status).toBe(200);
  });

  it('C7.5: the last admin is never demoted or removed', async () => {
    const lonely = await t.createWorkspace('One admin');
    const only = await member(t, lonely.id, 'admin');
    const session = await signIn(base, only, fromAddress());
    const demoted = await dashboard(base, session, 'PATCH', `/members/${only.id}`, { role: 'member' });
    expect(demoted.status).toBe(409);
    expect(demoted.body).toEqual({
      error: 'conflict',
      message: 'the last admin of a workspace cannot be demoted; make another member admin first',
      details: { conflict: 'last_admin', user_id: only.id, fields: { role: 'the last admin keeps the admin role' } },
    });
    const removed = await dashboard(base, session, 'DELETE', `/members/${only.id}`);
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ error: 'conflict', details: { conflict: 'last_admin', user_id: only.id } });
    // a revoked key cannot be rotated: 409 naming the key and when it was revoked
    const revoked = await dashboard(base, session, 'POST', `/keys/${lonely.development.id}/revoke`);
    expect(revoked.status).toBe(200);
    const rotated = await dashboard(base, session, 'POST', `/keys/${lonely.development.id}/rotate`);
    expect(rotated.status).toBe(409);
    expect(rotated.body).toMatchObject({
      error: 'conflict',
      details: { conflict: 'key_revoked', key_id: lonely.development.id, revoked_at: (revoked.body as { data: { revoked_at: string } }).data.revoked_at },
    });
    const second = await member(t, lonely.id, 'admin');
    expect((await dashboard(base, session, 'PATCH', `/members/${only.id}`, { role: 'member' })).status).toBe(200);
    // now a member: the session's role follows the membership at once
    expect((await dashboard(base, session, 'DELETE', `/members/${second.id}`)).status).toBe(403);
  });

  it('C7.3: signing out ends the session on the server: the old cookie is refused', async () => {
    const session = await signIn(base, admin, fromAddress());
    expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(200);
    const out = await dashboard(base, session, 'POST', '/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^leadlight_session=;/);
    expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(401);
    expect((await dashboard(base, session, 'GET', '/session')).body).toEqual({ data: null });
  });

  it('C7.3: a session ends 30 days after its last use; using it moves the end', async () => {
    const session = await signIn(base, admin, fromAddress());
    const start = shift;
    try {
      shift = start + 20 * DAY_MS;
      const used = await dashboard(base, session, 'GET', '/leads');
      expect(used.status).toBe(200);
      const renewed = used.headers.get('set-cookie') ?? '';
      expect(renewed).toContain(session.cookie);
      shift = start + 45 * DAY_MS;
      expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(200);
      shift = start + 76 * DAY_MS;
      expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(401);
    } finally {
      shift = start;
    }
  });

  it('C7.2: an invitation from the members page sets the password once, then signs in', async () => {
    const session = await signIn(base, admin, fromAddress());
    const email = `invited.${randomUUID()}@example.com`;
    const invited = await dashboard(base, session, 'POST', '/members', { email, role: 'member', name: 'Invited Person' });
    expect(invited.status).toBe(201);
    const { invite_url, expires_at, member: created } = invited.body.data as { invite_url: string; expires_at: string; member: { status: string } };
    expect(created.status).toBe('invited');
    expect(invite_url).toMatch(new RegExp(`^${base}/set-password#token=[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expires_at) - clock()).toBeGreaterThan(7 * DAY_MS - 60_000);
    const token = invite_url.split('#token=')[1]!;
    expect((await dashboard(base, undefined, 'POST', '/password-links/inspect', { token })).body.data).toMatchObject({ email, kind: 'invite' });
    expect((await dashboard(base, undefined, 'POST', '/password-links/redeem', { token, password: 'short' })).status).toBe(400);
    const redeemed = await dashboard(base, undefined, 'POST', '/password-links/redeem', { token, password: 'a long new password' });
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.get('set-cookie')).toMatch(/^leadlight_session=/);
    expect((await dashboard(base, undefined, 'POST', '/password-links/redeem', { token, password: 'another password' })).status).toBe(404);
    expect((await signInAnswer(base, email, 'a long new password', fromAddress())).status).toBe(200);
    // already a member: invite again is a conflict
    const again = await dashboard(base, session, 'POST', '/members', { email, role: 'viewer' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'conflict',
      details: { conflict: 'already_member', fields: { email: 'is already a member of this workspace' }, existing_id: expect.any(String) },
    });
  });

  it("C7.2: the members page hands out password links only for people whose every workspace the admin runs", async () => {
    const session = await signIn(base, admin, fromAddress());
    const elsewhere = await t.createWorkspace('Elsewhere');
    const shared = await member(t, elsewhere.id, 'viewer');
    // the person is added, but no link that sets their password is handed out here
    const invited = await dashboard(base, session, 'POST', '/members', { email: shared.email, role: 'viewer' });
    expect(invited.body.data).toMatchObject({ invite_url: null, expires_at: null });
    const reset = await dashboard(base, session, 'POST', `/members/${shared.id}/reset-link`);
    expect(reset.status).toBe(403);
    const own = await member(t, workspace.id, 'viewer');
    const ownReset = await dashboard(base, session, 'POST', `/members/${own.id}/reset-link`);
    expect(ownReset.status).toBe(200);
    expect((ownReset.body.data as { reset_url: string }).reset_url).toMatch(/\/set-password#token=/);
  });

  it('C7.2: a password reset ends every session of the person', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const session = await signIn(base, person, fromAddress());
    const link = await t.services.accounts.resetLink(person.email);
    expect((await dashboard(base, undefined, 'POST', '/password-links/redeem', { token: link.token, password: 'brand new password' })).status).toBe(200);
    expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(401);
    expect((await signInAnswer(base, person.email, person.password, fromAddress())).status).toBe(401);
    expect((await signInAnswer(base, person.email, 'brand new password', fromAddress())).status).toBe(200);
  });

  it('C7.3: a person in several workspaces switches between them; another workspace is not found', async () => {
    const second = await t.createWorkspace('Second');
    await importRows(t, second.id, 'leads', [{ code: 'SECOND-1', source: 'referral' }]);
    await t.services.accounts.invite(second.id, { email: admin.email, role: 'viewer' });
    const session = await signIn(base, admin, fromAddress());
    const info = (await dashboard(base, session, 'GET', '/session')).body.data as { workspaces: { id: string }[]; workspace: { id: string } };
    expect(info.workspace.id).toBe(workspace.id);
    expect(info.workspaces.map((entry) => entry.id)).toEqual(expect.arrayContaining([workspace.id, second.id]));
    const switched = await dashboard(base, session, 'PUT', '/session/workspace', { workspace_id: second.id });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ workspace: { id: second.id, name: 'Second' }, role: 'viewer' });
    const leads = await dashboard(base, session, 'GET', '/leads');
    expect(leads.headers.get('x-workspace-id')).toBe(second.id);
    expect((leads.body.data as { code: string }[]).map((lead) => lead.code)).toEqual(['SECOND-1']);
    expect((await dashboard(base, session, 'POST', '/keys', { type: 'development' })).status).toBe(403);
    const stranger = await t.createWorkspace('Not theirs');
    expect((await dashboard(base, session, 'PUT', '/session/workspace', { workspace_id: stranger.id })).status).toBe(404);
    expect((await dashboard(base, session, 'PUT', '/session/workspace', { workspace_id: workspace.id })).status).toBe(200);
    expect((await dashboard(base, session, 'GET', '/leads')).headers.get('x-workspace-id')).toBe(workspace.id);
  });
});
