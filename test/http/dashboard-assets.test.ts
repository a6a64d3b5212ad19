/**
 * How the dashboard's files are served (CONTRACT C7.1, issue: hashed assets
 * with long cache lifetimes, the HTML with none): the HTML at / and at a
 * client-side route is never cached; the content-hashed assets are cached for
 * a year, immutable, and sent as the build compressed them when the browser
 * accepts Brotli or gzip, the same bytes once decoded; so is every page's own
 * chunk (the build's manifest lists them).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { DASHBOARD_BUILD, ensureDashboardBuilt } from '../helpers/browser.js';

describe('the dashboard files', () => {
  let t: TestApp;
  let base: string;
  let script: string;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    t = await createTestApp('sqlite');
    base = await t.listen();
    const html = fs.readFileSync(path.join(DASHBOARD_BUILD, 'index.html'), 'utf8');
    script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  });
  afterAll(async () => t?.close());

  it('C7.1: the HTML is never cached, at / and at a client-side route', async () => {
    for (const url of ['/', '/leads?source=website']) {
      const response = await fetch(`${base}${url}`, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain(script);
    }
  });

  it('content-hashed assets are cached for a year, immutable, and sent precompressed when accepted', async () => {
    const original = fs.readFileSync(path.join(DASHBOARD_BUILD, script));
    const plain = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(original);

    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      // undici's fetch decodes for us; a raw read shows what went over the wire
      const response = await rawGet(`${base}${script}`, encoding);
      expect(response.headers['content-encoding'], encoding).toBe(encoding);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body.length).toBeLessThan(original.length / 2);
      expect(decode(response.body)).toEqual(original);
    }
  });

  it("every chunk of the build, the pages' lazy ones included, is cached for a year, immutable, with Brotli and gzip copies", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(DASHBOARD_BUILD, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const files = [...new Set(Object.values(manifest).map((chunk) => `/${chunk.file}`))];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const response = await rawGet(`${base}${file}`, 'br');
      expect(response.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-encoding'], file).toBe('br');
      expect(fs.existsSync(path.join(DASHBOARD_BUILD, `${file}.gz`)), file).toBe(true);
    }
  });
});

async function rawGet(url: string, encoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}
