/**
 * `leadlight webhook create|list|delete` (CONTRACT C8.5, C2): the secret
 * printed once by create, the list without secrets, delete, and private
 * targets refused as through the API.
 */
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('the webhook CLI on %s (C8.5)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Webhook CLI');
  });
  afterAll(async () => t?.close());

  async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
      env: { DATABASE_URL: t.db.url },
    });
    return { code, stdout, stderr };
  }

  it('C8.5: create prints the secret once, list shows the endpoint without it, delete removes it; a private URL fails with one line', async () => {
    const created = await cli(['webhook', 'create', '--workspace', ws.id, '--url', 'https://203.0.113.20/hook', '--events', 'lead.created,lead.deleted', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const hook = JSON.parse(created.stdout) as { id: string; secret: string; events: string[] };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(['lead.created', 'lead.deleted']);
    const listed = await cli(['webhook', 'list', '--workspace', ws.id, '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((item) => item.id)).toEqual([hook.id]);
    expect(listed.stdout).not.toContain('whsec_');
    const api = await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${hook.id}` });
    expect(api.statusCode).toBe(200);
    const refused = await cli(['webhook', 'create', '--workspace', ws.id, '--url', 'http://127.0.0.1:9/hook', '--events', 'lead.created', '--json']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^leadlight: [^\n]*loopback or private[^\n]*\n$/);
    const deleted = await cli(['webhook', 'delete', hook.id, '--workspace', ws.id, '--json']);
    expect(deleted.code).toBe(0);
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${hook.id}` })).statusCode).toBe(404);
  });
});
