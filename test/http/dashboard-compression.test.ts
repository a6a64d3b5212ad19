/**
 * The dashboard API's JSON is compressed (CONTRACT C9.9), over real HTTP with
 * a client that does not decode (node:http), so the bytes on the wire are what
 * is checked: Brotli when accepted, else gzip, identical JSON once decoded,
 * nothing below 1,024 bytes (a lead's notes list grown to 1,023 and 1,024
 * bytes exactly), nothing for a client that accepts neither. Live's event
 * stream and the exports stay uncompressed and streamed: an event reaches an
 * open stream within a second of the visit, its first bytes before any event.
 * SQLite only: compression is applied to the bytes the routes answer, the
 * same whichever store made them.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD } from '../../src/http/plugins/json-compression.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { createSiteKey, pageView, postEvents } from '../helpers/tracking.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is read as sent: node:http decodes nothing. */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body).toString('utf8');
  expect(encoding).toBeUndefined();
  return answer.body.toString('utf8');
}

describe('C9.9: the dashboard API compresses its JSON, not its streams (SQLite)', () => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let session: DashboardSession;
  let leadIds: string[];
  const as = (encoding?: string): Record<string, string> => ({
    cookie: session.cookie,
    ...(encoding === undefined ? {} : { 'accept-encoding': encoding }),
  });

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.listen();
    workspace = await t.createWorkspace('Compression');
    await t.services.seed.seedDemo(workspace.id);
    session = await signIn(base, await member(t, workspace.id, 'admin'));
    leadIds = (await t.services.forWorkspace(workspace.id).leads.list({}, { limit: 3, offset: 0 })).items.map((lead) => lead.id);
  }, 60_000);
  afterAll(async () => t?.close());

  it('an answer above the threshold is sent as Brotli when accepted, else gzip, and decodes to the same JSON', async () => {
    const plain = await rawGet(base, '/dashboard/api/overview/traffic', as());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESSION_THRESHOLD);

    const br = await rawGet(base, '/dashboard/api/overview/traffic', as('gzip, deflate, br'));
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(decoded(br))).toEqual(JSON.parse(plain.body.toString('utf8')));

    const gzip = await rawGet(base, '/dashboard/api/overview/traffic', as('gzip, br;q=0'));
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip))).toEqual(JSON.parse(plain.body.toString('utf8')));

    for (const refused of ['identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const answer = await rawGet(base, '/dashboard/api/overview/traffic', as(refused));
      expect(answer.headers['content-encoding'], refused).toBeUndefined();
      expect(answer.body.equals(plain.body), refused).toBe(true);
    }
  });

  it('the threshold, at its edge: 1,023 bytes go as they are, 1,024 compressed', async () => {
    const notes = (leadId: string) => `/leads/${leadId}/notes`;
    const note = async (leadId: string, length: number) => {
      const created = await dashboard(base, session, 'POST', notes(leadId), { body: 'x'.repeat(length) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    };
    // a list with one note of one character, to learn what the rest of the answer weighs
    const [probe, below, at] = leadIds as [string, string, string];
    await note(probe, 1);
    const oneCharacter = (await rawGet(base, `/dashboard/api${notes(probe)}`, as('identity'))).body.length;
    await note(below, COMPRESSION_THRESHOLD - 1 - oneCharacter + 1);
    await note(at, COMPRESSION_THRESHOLD - oneCharacter + 1);

    const small = await rawGet(base, `/dashboard/api${notes(below)}`, as('br, gzip'));
    expect(small.body.length).toBe(COMPRESSION_THRESHOLD - 1);
    expect(small.headers['content-encoding']).toBeUndefined();
    const large = await rawGet(base, `/dashboard/api${notes(at)}`, as('br, gzip'));
    expect(large.headers['content-encoding']).toBe('br');
    expect(Buffer.byteLength(decoded(large))).toBe(COMPRESSION_THRESHOLD);
  });

  it("Live's event stream is neither compressed nor held back: its first bytes and a visit's event arrive at once", async () => {
    const siteKey = (await createSiteKey(t, workspace)).key;
    const request = http.get(`${base}/dashboard/api/live/stream`, { headers: as('gzip, deflate, br') });
    try {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(response.headers['content-encoding']).toBeUndefined();
      let text = '';
      const waitFor = (pattern: RegExp, ms: number) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${pattern} (got ${JSON.stringify(text)})`)), ms);
          const check = () => {
            if (!pattern.test(text)) return;
            clearTimeout(timer);
            response.off('data', check);
            resolve();
          };
          response.on('data', check);
          check();
        });
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      await waitFor(/: connected\n\n/, 1000);
      expect((await postEvents(base, siteKey, [pageView(crypto.randomUUID(), '/compressed?')])).status).toBe(202);
      // the hub coalesces notices over 500 ms: a second is what an uncompressed, unbuffered stream needs
      await waitFor(/event: visits\n/, 1000);
    } finally {
      request.destroy();
    }
  });

  it('an export streams uncompressed, whatever the client accepts', async () => {
    const answer = await rawGet(base, '/dashboard/api/leads/export?format=csv', as('br, gzip'));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.body.toString('utf8').split('\r\n').length).toBeGreaterThan(50);
  });
});
