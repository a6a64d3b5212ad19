/**
 * /docs over real HTTP (CONTRACT C9.9, C8.1): the page names its script by a
 * content address and carries a Content-Security-Policy allowing exactly its
 * own inline script, and says its language; the script is sent
 * Brotli- or gzip-compressed as the client accepts (identity otherwise),
 * cacheable for a year, immutable, and decompresses to the very bytes the
 * package serves; the package's own uncached address redirects to it. The
 * page does not depend on the store: SQLite only.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** A GET over a real socket that leaves the body as sent (fetch would decompress it). */
async function raw(url: string, acceptEncoding?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

describe('/docs: its page and script (C9.9)', () => {
  let t: TestApp;
  let base: string;
  let scriptUrl: string;
  let page: string;
  let pageHeaders: Record<string, string | string[] | undefined>;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.listen();
    const answer = await raw(`${base}/docs/`);
    expect(answer.status).toBe(200);
    page = answer.body.toString('utf8');
    pageHeaders = answer.headers;
    const src = /<script[^>]*\ssrc="([^"]+)"/.exec(page)?.[1] ?? '';
    scriptUrl = new URL(src, `${base}/docs/`).toString();
  });
  afterAll(async () => t?.close());

  it('the page says its language and allows only its own inline script (by hash) and this origin', () => {
    expect(page).toMatch(/<html lang="en">/);
    // an icon of its own (empty): a browser asks for /favicon.ico otherwise, a 404 in its console
    expect(page).toMatch(/<head>\s*<link rel="icon" href="data:," \/>/);
    const policy = String(pageHeaders['content-security-policy']);
    const inline = [...page.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]!).digest('base64');
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "connect-src 'self'"]) {
      expect(policy).toContain(directive);
    }
  });

  it('the script has a content address, and the package\'s own address redirects to it', async () => {
    expect(new URL(scriptUrl).pathname).toMatch(/^\/docs\/js\/scalar\.[0-9a-f]{16}\.js$/);
    const legacy = await raw(`${base}/docs/js/scalar.js`);
    expect(legacy.status).toBe(302);
    expect(legacy.headers.location).toBe(new URL(scriptUrl).pathname);
    const other = await raw(`${base}/docs/js/scalar.0000000000000000.js`);
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body.toString('utf8'))).toMatchObject({ error: 'not_found' });
  });

  it('Brotli when accepted, gzip when only gzip is, identity otherwise: the same bytes, cacheable for a year, immutable', async () => {
    const identity = await raw(scriptUrl);
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(4_000_000);
    const cases: [string, string | undefined][] = [
      ['br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br', 'br'],
      // both ready by now: the smaller
      ['gzip, deflate, br, zstd', 'br'],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ];
    for (const [accept, expected] of cases) {
      const answer = await raw(scriptUrl, accept);
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(expected);
      expect(answer.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(answer.headers['content-type'], accept).toBe('application/javascript; charset=utf-8');
      const decoded = expected === 'br' ? zlib.brotliDecompressSync(answer.body) : expected === 'gzip' ? zlib.gunzipSync(answer.body) : answer.body;
      expect(decoded.equals(identity.body), accept).toBe(true);
      if (expected !== undefined) expect(answer.body.length, accept).toBeLessThan(identity.body.length / 3);
    }
  });
});
