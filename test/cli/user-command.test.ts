/**
 * `leadlight user invite` and `user reset-password` (CONTRACT C7.2) through
 * run(argv, io) on the store an API instance serves: the --json documents,
 * links that start with PUBLIC_URL and set a password over HTTP (invitations
 * valid 7 days), a person who already has a password, and failures.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { createTestApp, UUID, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signInAnswer } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';

const DAY_MS = 86_400_000;
const PUBLIC_URL = 'https://leads.example.com';

async function cli(argv: string[], databaseUrl: string) {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await run(argv, {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    stdin: Readable.from([]),
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL },
  });
  return { code, stdout, stderr };
}

describe.each(storeKinds())('leadlight user on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('CLI users');
  });
  afterAll(async () => t?.close());

  const tokenOf = (url: string) => url.split('#token=')[1] as string;

  it('C7.2: user invite --json makes a member and prints {user_id, invite_url, expires_at}; the link sets the password within 7 days', async () => {
    const email = `cli.${randomUUID()}@example.com`;
    const before = Date.now();
    const result = await cli(['user', 'invite', '--workspace', workspace.id, '--email', email, '--role', 'member', '--name', 'Cli Person', '--json'], t.db.url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { user_id: string; invite_url: string; expires_at: string };
    expect(Object.keys(document).sort()).toEqual(['expires_at', 'invite_url', 'user_id']);
    expect(document.user_id).toMatch(UUID);
    expect(document.invite_url).toMatch(/^https:\/\/leads\.example\.com\/set-password#token=[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(document.expires_at) - before;
    expect(lifetime).toBeGreaterThanOrEqual(7 * DAY_MS - 1000);
    expect(lifetime).toBeLessThan(7 * DAY_MS + 60_000);
    expect(await t.services.forWorkspace(workspace.id).users.get(document.user_id)).toMatchObject({ email, name: 'Cli Person', workspace_role: 'member' });

    const redeemed = await dashboard(base, undefined, 'POST', '/password-links/redeem', { token: tokenOf(document.invite_url), password: 'chosen password 1' });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data).toMatchObject({ user: { email }, role: 'member', workspace: { id: workspace.id } });
    expect((await signInAnswer(base, email, 'chosen password 1')).status).toBe(200);
  });

  it('C7.2: inviting a person who already has a password adds the membership and prints no link', async () => {
    const person = await member(t, (await t.createWorkspace('Their other')).id, 'admin');
    const result = await cli(['user', 'invite', '--workspace', workspace.id, '--email', person.email.toUpperCase(), '--role', 'viewer', '--json'], t.db.url);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ user_id: person.id, invite_url: null, expires_at: null });
    expect((await t.services.forWorkspace(workspace.id).users.get(person.id)).workspace_role).toBe('viewer');
  });

  it('C7.2: user reset-password --json prints {reset_url, expires_at}; the link sets a new password', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const result = await cli(['user', 'reset-password', '--email', person.email, '--json'], t.db.url);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { reset_url: string; expires_at: string };
    expect(Object.keys(document).sort()).toEqual(['expires_at', 'reset_url']);
    expect(document.reset_url).toMatch(/^https:\/\/leads\.example\.com\/set-password#token=/);
    expect((await dashboard(base, undefined, 'POST', '/password-links/inspect', { token: tokenOf(document.reset_url) })).body.data).toMatchObject({
      email: person.email,
      kind: 'reset',
    });
    expect((await dashboard(base, undefined, 'POST', '/password-links/redeem', { token: tokenOf(document.reset_url), password: 'reset password 99' })).status).toBe(200);
    expect((await signInAnswer(base, person.email, person.password)).status).toBe(401);
    expect((await signInAnswer(base, person.email, 'reset password 99')).status).toBe(200);
  });

  it('C2: failures are one line on stderr and a JSON error with --json', async () => {
    for (const argv of [
      ['user', 'invite', '--workspace', workspace.id, '--email', 'x@example.com', '--role', 'owner', '--json'],
      ['user', 'invite', '--workspace', randomUUID(), '--email', 'x@example.com', '--role', 'viewer', '--json'],
      ['user', 'invite', '--workspace', workspace.id, '--email', 'not-an-email', '--role', 'viewer', '--json'],
      ['user', 'reset-password', '--email', `nobody.${randomUUID()}@example.com`, '--json'],
    ]) {
      const result = await cli(argv, t.db.url);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^leadlight: [^\n]+\n$/);
      expect(JSON.parse(result.stdout)).toHaveProperty('error');
    }
  });
});
