/**
 * Site keys through the operator CLI on both stores (CONTRACT C5.1, C2):
 * the exact --json documents of `site-key create|list|revoke`, the key's
 * format, origins checked and written canonically, keys listed per workspace,
 * and a revoked key refused by the events endpoint on its next request.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { createTestApp, TIMESTAMP, UUID, type TestApp } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { pageView, postEvents } from '../helpers/tracking.js';

const SITE_KEY = /^ll_site_[0-9A-Za-z]{24,}$/;

async function cli(databaseUrl: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
    env: { DATABASE_URL: databaseUrl },
  });
  return { code, stdout, stderr };
}

describe.each(storeKinds())('site keys on %s (C5.1)', (kind) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
  });
  afterAll(async () => t?.close());

  const json = async (argv: string[]) => {
    const result = await cli(t.db.url, [...argv, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown> & Record<string, unknown>[];
  };

  it('C5.1: site-key create prints {id, workspace_id, name, key, origins, created_at}; list prints the active keys of the workspace', async () => {
    const workspace = await t.createWorkspace('Site keys');
    const other = await t.createWorkspace('Other site keys');
    const created = await json(['site-key', 'create', '--workspace', workspace.id, '--name', 'Shop', '--origins', 'https://Shop.Example.com/, https://*.example.org:8443']);
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'key', 'name', 'origins', 'workspace_id']);
    expect(created).toMatchObject({ workspace_id: workspace.id, name: 'Shop', origins: ['https://shop.example.com', 'https://*.example.org:8443'] });
    expect(created.id).toMatch(UUID);
    expect(created.key).toMatch(SITE_KEY);
    expect(created.created_at).toMatch(TIMESTAMP);
    const plain = await json(['site-key', 'create', '--workspace', workspace.id]);
    expect(plain).toMatchObject({ name: null, origins: [] });
    await json(['site-key', 'create', '--workspace', other.id]);

    const listed = await json(['site-key', 'list', '--workspace', workspace.id]);
    expect(listed).toEqual([
      { id: created.id, name: 'Shop', key: created.key, origins: created.origins, created_at: created.created_at, last_used_at: null },
      { id: plain.id, name: null, key: plain.key, origins: [], created_at: plain.created_at, last_used_at: null },
    ]);

    // a use is recorded, at most once a minute
    expect((await postEvents(base, plain.key as string, [pageView(randomUUID(), '/')])).status).toBe(202);
    const used = (await json(['site-key', 'list', '--workspace', workspace.id])) as unknown as { id: string; last_used_at: string | null }[];
    expect(used.find((key) => key.id === plain.id)?.last_used_at).toMatch(TIMESTAMP);
  });

  it('C5.1: site-key revoke prints {id, revoked_at}; the next event request with the key is 401; it leaves the list', async () => {
    const workspace = await t.createWorkspace('Revoked site key');
    const created = await json(['site-key', 'create', '--workspace', workspace.id]);
    expect((await postEvents(base, created.key as string, [pageView(randomUUID(), '/')])).status).toBe(202);
    const revoked = await json(['site-key', 'revoke', created.id as string]);
    expect(Object.keys(revoked).sort()).toEqual(['id', 'revoked_at']);
    expect(revoked.id).toBe(created.id);
    expect(revoked.revoked_at).toMatch(TIMESTAMP);
    expect((await postEvents(base, created.key as string, [pageView(randomUUID(), '/')])).status).toBe(401);
    expect(await json(['site-key', 'list', '--workspace', workspace.id])).toEqual([]);
    // revoking again answers the first revocation
    expect(await json(['site-key', 'revoke', created.id as string])).toEqual(revoked);
  });

  it('C2: bad origins, an unknown workspace or an unknown key fail with one line on stderr', async () => {
    const workspace = await t.createWorkspace('Bad site keys');
    for (const argv of [
      ['site-key', 'create', '--workspace', workspace.id, '--origins', 'shop.example.com'],
      ['site-key', 'create', '--workspace', workspace.id, '--origins', 'https://shop.example.com/path'],
      ['site-key', 'create', '--workspace', workspace.id, '--origins', 'https://*.com'],
      ['site-key', 'create', '--workspace', workspace.id, '--origins', 'https://a.*.example.com'],
      ['site-key', 'create', '--workspace', randomUUID()],
      ['site-key', 'list', '--workspace', 'not-an-id'],
      ['site-key', 'revoke', randomUUID()],
    ]) {
      const result = await cli(t.db.url, argv);
      expect(result.code, argv.join(' ')).not.toBe(0);
      expect(result.stderr, argv.join(' ')).toMatch(/^leadlight: [^\n]+\n$/);
    }
    expect(await json(['site-key', 'list', '--workspace', workspace.id])).toEqual([]);
  });

  it('C5.1: the service a dashboard calls revokes only its own workspace\'s keys', async () => {
    const mine = await t.createWorkspace('Mine');
    const theirs = await t.createWorkspace('Theirs');
    const key = await t.services.siteKeys.create(theirs.id, null, []);
    await expect(t.services.siteKeys.revoke(key.id, mine.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await t.services.siteKeys.list(theirs.id)).toHaveLength(1);
  });
});
