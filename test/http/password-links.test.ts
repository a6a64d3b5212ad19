/**
 * One-time password links at the edge of their lifetime, over real HTTP on
 * both stores, with a clock the test holds (CONTRACT C7.2): an invitation
 * from the members page lasts exactly 7 days, a reset link (members page or
 * the operator's `user reset-password`) exactly 24 hours; until the
 * millisecond before `expires_at` the link is inspected and redeemed, from
 * `expires_at` on both answer 404 and change nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, signInAnswer, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';

const DAY = 86_400_000;
const tokenOf = (url: string) => url.split('#token=')[1] as string;

describe.each(storeKinds())('password links at their expiry on %s (C7.2)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let admin: DashboardSession;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
    base = await t.listen();
    workspace = await t.createWorkspace('Links');
    admin = await signIn(base, await member(t, workspace.id, 'admin'));
  });
  afterAll(async () => t?.close());

  const inspect = (token: string) => dashboard(base, undefined, 'POST', '/password-links/inspect', { token });
  const redeem = (token: string, password: string) => dashboard(base, undefined, 'POST', '/password-links/redeem', { token, password });

  /** At `expires_at` the link is refused by both and nothing changes; a millisecond before, it works. */
  async function expectEdge(token: string, email: string, expiresAt: number) {
    clock = expiresAt;
    const inspected = await inspect(token);
    expect(inspected.status).toBe(404);
    expect(inspected.body).toMatchObject({ error: 'not_found' });
    const refused = await redeem(token, 'refused at the edge');
    expect(refused.status).toBe(404);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await signInAnswer(base, email, 'refused at the edge')).status).toBe(401);

    clock = expiresAt - 1;
    expect((await inspect(token)).body.data).toMatchObject({ email, expires_at: new Date(expiresAt).toISOString() });
    const redeemed = await redeem(token, 'redeemed a millisecond before');
    expect(redeemed.status).toBe(200);
    expect((await signInAnswer(base, email, 'redeemed a millisecond before')).status).toBe(200);
  }

  it('C7.2: an invitation link lasts exactly 7 days: refused by inspect and redeem at expires_at, working 1 ms before', async () => {
    clock = Date.now();
    const email = `invited.${randomUUID()}@example.com`;
    const invited = await dashboard(base, admin, 'POST', '/members', { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    const { invite_url: url, expires_at: expires } = invited.body.data as { invite_url: string; expires_at: string };
    expect(Date.parse(expires) - clock).toBe(7 * DAY);
    await expectEdge(tokenOf(url), email, Date.parse(expires));
  });

  it('C7.2: a reset link lasts exactly 24 hours, from the members page and from the operator', async () => {
    clock = Date.now();
    const person = await member(t, workspace.id, 'member');
    const fromPage = await dashboard(base, admin, 'POST', `/members/${person.id}/reset-link`);
    expect(fromPage.status).toBe(200);
    const page = fromPage.body.data as { reset_url: string; expires_at: string };
    expect(Date.parse(page.expires_at) - clock).toBe(DAY);
    await expectEdge(tokenOf(page.reset_url), person.email, Date.parse(page.expires_at));

    clock = Date.now();
    const other = await member(t, workspace.id, 'viewer');
    const fromOperator = await t.services.accounts.resetLink(other.email);
    const expires = Date.parse(fromOperator.expires_at);
    expect(expires - Date.now()).toBeLessThanOrEqual(DAY);
    expect(expires - Date.now()).toBeGreaterThan(DAY - 60_000);
    await expectEdge(fromOperator.token, other.email, expires);
  });
});
