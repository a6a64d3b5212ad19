/**
 * GET /t.js (CONTRACT C5.2): the tracker as the build made it, at most 3,072
 * bytes gzipped (gzip -9), served as text/javascript with a short cache and
 * an ETag (a 304 for a known one), gzipped when the client accepts it; both
 * of its paths renamed by configuration (TRACKER_SCRIPT_PATH,
 * TRACKER_EVENTS_PATH), the script then sending to the renamed events path.
 */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createSiteKey, pageView, postEvents } from '../helpers/tracking.js';

const gzipped = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;

async function raw(url: string, headers: Record<string, string> = {}) {
  // identity: the bytes as the server keeps them (fetch would undo a gzip)
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe('the tracker script (C5.2)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.listen();
  });
  afterAll(async () => t?.close());

  it('C5.2: plain JavaScript of at most 3,072 bytes gzipped (gzip -9), sending to /e', async () => {
    const { status, headers, body } = await raw(`${base}/t.js`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(headers.get('content-encoding')).toBeNull();
    expect(gzipped(body)).toBeLessThanOrEqual(3072);
    const text = body.toString('utf8');
    expect(text).toContain('"/e"');
    expect(text).not.toMatch(/%%LEADLIGHT|require\(|import /);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('C5.2: cacheable for a short while and revalidated by its ETag; gzipped for clients that accept it', async () => {
    const first = await raw(`${base}/t.js`);
    expect(first.headers.get('cache-control')).toBe('public, max-age=600');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await raw(`${base}/t.js`, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await raw(`${base}/t.js`, { 'if-none-match': '"other"' })).status).toBe(200);

    const response = await t.app.inject({ method: 'GET', url: '/t.js', headers: { 'accept-encoding': 'br;q=1, gzip;q=0.8' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(zlib.gunzipSync(response.rawPayload).equals(first.body)).toBe(true);
    const refused = await t.app.inject({ method: 'GET', url: '/t.js', headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const head = await t.app.inject({ method: 'HEAD', url: '/t.js' });
    expect(head.statusCode).toBe(200);
  });
});

describe('renamed tracker paths (C5.2)', () => {
  it('C5.2: TRACKER_SCRIPT_PATH and TRACKER_EVENTS_PATH move the script and the endpoint, and the script follows', async () => {
    const t = await createTestApp('sqlite', { tracking: { scriptPath: '/assets/app.js', eventsPath: '/api-collect' } });
    try {
      const base = await t.listen();
      expect((await raw(`${base}/t.js`)).status).toBe(404);
      const script = await raw(`${base}/assets/app.js`);
      expect(script.status).toBe(200);
      expect(script.body.toString('utf8')).toContain('"/api-collect"');
      const workspace = await t.createWorkspace('Renamed');
      const { key } = await createSiteKey(t, workspace);
      expect((await postEvents(base, key, [pageView(randomUUID(), '/')], {}, '/api-collect')).status).toBe(202);
      expect((await postEvents(base, key, [pageView(randomUUID(), '/')], {}, '/e')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
