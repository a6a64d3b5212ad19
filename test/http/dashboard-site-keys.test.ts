/**
 * Site keys in the dashboard's settings over HTTP, on both stores (CONTRACT
 * C5.1, C7.4, C7.5, C7.6): an admin creates one with allowed origins and gets
 * its install snippet (the tracker's configured path, the address the
 * dashboard is reached at); the key sends events from an allowed origin
 * only; revoking it makes the next event request 401 and the list shows when.
 * Members and viewers read the list but cannot create or revoke (403, nothing
 * changes); a request without the CSRF token is 403; an API key is refused;
 * bad origins are a 400 that creates nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { pageView, postEvents } from '../helpers/tracking.js';

interface SiteKey {
  id: string;
  name: string | null;
  key: string;
  origins: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  snippet: string;
}

describe.each(storeKinds())('site keys in the dashboard on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let admin: DashboardSession;
  let memberSession: DashboardSession;
  let viewer: DashboardSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { tracking: { scriptPath: '/assets-cdn/lt.js' } });
    base = await t.listen();
    workspace = await t.createWorkspace('Site keys');
    admin = await signIn(base, await member(t, workspace.id, 'admin'));
    memberSession = await signIn(base, await member(t, workspace.id, 'member'));
    viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
  });
  afterAll(async () => t?.close());

  const list = async (session: DashboardSession) => {
    const answer = await dashboard(base, session, 'GET', '/site-keys');
    expect(answer.status).toBe(200);
    return answer.body.data as SiteKey[];
  };

  it('C7.5: an admin creates a site key with origins and gets its install snippet; it sends events from those origins only', async () => {
    expect(await list(admin)).toEqual([]);
    const created = await dashboard(base, admin, 'POST', '/site-keys', { name: ' Shop ', origins: ['https://Shop.Example.com', 'https://*.example.org'] });
    expect(created.status).toBe(201);
    const key = created.body.data as SiteKey & { workspace_id: string };
    expect(key).toMatchObject({ workspace_id: workspace.id, name: 'Shop', origins: ['https://shop.example.com', 'https://*.example.org'] });
    expect(key.key).toMatch(/^ll_site_[0-9A-Za-z]{24,}$/);
    // the queue stub first (C9.8: calls made before the tracker loads are kept), then the tracker itself
    expect(key.snippet).toBe(
      '<script>window.leadlight=window.leadlight||{q:[]};["identify","track","conversion","page"].forEach(function(m){window.leadlight[m]=window.leadlight[m]||function(){window.leadlight.q.push([m,[].slice.call(arguments)])}});</script>\n' +
        `<script defer src="${base}/assets-cdn/lt.js" data-key="${key.key}"></script>`,
    );

    const { workspace_id: _workspace, ...shown } = key;
    expect(await list(viewer)).toEqual([{ ...shown, last_used_at: null, revoked_at: null }]);
    // the CLI's list (the same service) sees it too
    expect((await t.services.siteKeys.list(workspace.id)).map((entry) => entry.key)).toEqual([key.key]);

    expect((await postEvents(base, key.key, [pageView(randomUUID(), '/')], { origin: 'https://shop.example.com' })).status).toBe(202);
    expect((await postEvents(base, key.key, [pageView(randomUUID(), '/')], { origin: 'https://blog.example.org' })).status).toBe(202);
    expect((await postEvents(base, key.key, [pageView(randomUUID(), '/')], { origin: 'https://elsewhere.example.net' })).status).toBe(403);
  });

  it('C7.5: revoking a site key makes its next event request 401; the list shows when it was revoked', async () => {
    const created = await dashboard(base, admin, 'POST', '/site-keys', { name: 'to revoke' });
    const key = created.body.data as SiteKey;
    expect(key.origins).toEqual([]);
    expect((await postEvents(base, key.key, [pageView(randomUUID(), '/')])).status).toBe(202);

    const revoked = await dashboard(base, admin, 'POST', `/site-keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    const revokedAt = (revoked.body.data as { revoked_at: string }).revoked_at;
    expect(revoked.body.data).toEqual({ id: key.id, revoked_at: expect.any(String) });
    expect((await postEvents(base, key.key, [pageView(randomUUID(), '/')])).status).toBe(401);

    const entry = (await list(admin)).find((candidate) => candidate.id === key.id);
    expect(entry?.revoked_at).toBe(revokedAt);
    expect(entry?.last_used_at).not.toBeNull();
    // revoking again answers the first revocation
    expect((await dashboard(base, admin, 'POST', `/site-keys/${key.id}/revoke`)).body.data).toEqual({ id: key.id, revoked_at: revokedAt });
    // the CLI's list shows active keys only
    expect((await t.services.siteKeys.list(workspace.id)).map((listed) => listed.id)).not.toContain(key.id);
  });

  it('C7.4: members and viewers read the site keys but cannot create or revoke one (403, nothing changes)', async () => {
    const before = await list(admin);
    const active = before.find((key) => key.revoked_at === null)!;
    for (const session of [memberSession, viewer]) {
      expect((await list(session)).map((key) => key.id)).toEqual(before.map((key) => key.id));
      const create = await dashboard(base, session, 'POST', '/site-keys', { name: 'forged' });
      expect(create.status).toBe(403);
      expect(create.body).toMatchObject({ error: 'forbidden', details: { required: 'admin' } });
      const revoke = await dashboard(base, session, 'POST', `/site-keys/${active.id}/revoke`);
      expect(revoke.status).toBe(403);
    }
    expect(await list(admin)).toEqual(before);
    expect((await postEvents(base, active.key, [pageView(randomUUID(), '/')], { origin: 'https://shop.example.com' })).status).toBe(202);
  });

  it('C7.3, C7.6: without the CSRF token, from another origin or with an API key, nothing is created or revoked', async () => {
    const before = await list(admin);
    const active = before.find((key) => key.revoked_at === null)!;
    const noToken = { ...admin, csrf: '' };
    expect((await dashboard(base, noToken, 'POST', '/site-keys', { name: 'no token' })).status).toBe(403);
    expect((await dashboard(base, noToken, 'POST', `/site-keys/${active.id}/revoke`)).status).toBe(403);
    expect((await dashboard(base, admin, 'POST', '/site-keys', { name: 'cross' }, { origin: 'https://evil.example' })).status).toBe(403);
    for (const key of [workspace.production.key, workspace.development.key]) {
      const answer = await dashboard(base, undefined, 'GET', '/site-keys', undefined, { authorization: `Bearer ${key}` });
      expect(answer.status).toBe(401);
      const created = await dashboard(base, undefined, 'POST', '/site-keys', { name: 'by key' }, { authorization: `Bearer ${key}` });
      expect(created.status).toBe(401);
    }
    expect(await list(admin)).toEqual(before);
  });

  it('C5.1: origins that are not http(s) origins are a 400 naming the first, and create nothing; unknown ids are 404', async () => {
    const before = await list(admin);
    for (const origins of [['ftp://shop.example.com'], ['https://shop.example.com/path'], ['not an origin'], ['https://*.*.example.com']]) {
      const answer = await dashboard(base, admin, 'POST', '/site-keys', { origins });
      expect(answer.status, origins[0]).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining(origins[0]!) });
    }
    const tooMany = await dashboard(base, admin, 'POST', '/site-keys', { origins: Array.from({ length: 101 }, (_, index) => `https://s${index}.example.com`) });
    expect(tooMany.status).toBe(400);
    const extra = await dashboard(base, admin, 'POST', '/site-keys', { name: 'x', workspace_id: randomUUID() });
    expect(extra.status).toBe(400);
    expect(await list(admin)).toEqual(before);
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const answer = await dashboard(base, admin, 'POST', `/site-keys/${id}/revoke`);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not_found' });
    }
  });
});
