/**
 * The size limits of the events endpoint at their exact edges, over real
 * HTTP on both stores (CONTRACT C5.3): a body of exactly 512 KiB is taken
 * and one byte more is 413; `url` and `referrer` of exactly 2,000
 * characters, `title` of 500, `name` of 100 and `code` of 255 are taken,
 * one character more is 400 and nothing of the batch is written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, pageView, postBody, postEvents, SITE, type Event } from '../helpers/tracking.js';

const MAX_BODY = 512 * 1024;

describe.each(storeKinds())('size edges of the events endpoint on %s (C5.3)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Sizes');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor);

  it('C5.3: a body of exactly 512 KiB is accepted; 512 KiB and 1 byte is 413 and writes nothing', async () => {
    for (const [extra, status] of [
      [0, 202],
      [1, 413],
    ] as const) {
      const visitor = randomUUID();
      const json = JSON.stringify({ key, events: [conversion(visitor, 'Big body')] });
      // JSON allows whitespace after the value: the body is padded to the size under test
      const body = json + ' '.repeat(MAX_BODY + extra - Buffer.byteLength(json));
      expect(Buffer.byteLength(body)).toBe(MAX_BODY + extra);
      const answer = await postBody(base, body);
      expect(answer.status, `${MAX_BODY + extra} bytes`).toBe(status);
      expect(await leadsOf(visitor), `${MAX_BODY + extra} bytes`).toHaveLength(status === 202 ? 1 : 0);
    }
  });

  it('C5.3: url, referrer, title, name and code at their limits are taken; one character more is 400 and the batch writes nothing', async () => {
    const url = (length: number) => `${SITE}/${'p'.repeat(length - SITE.length - 1)}`;
    const limits: [string, (length: number) => Event, number][] = [
      ['url', (length) => ({ url: url(length) }), 2_000],
      ['referrer', (length) => ({ referrer: `https://ref.example.com/${'r'.repeat(length - 24)}` }), 2_000],
      ['title', (length) => ({ title: 't'.repeat(length) }), 500],
    ];
    const conversionLimits: [string, (length: number) => Event, number][] = [
      ['name', (length) => ({ name: 'n'.repeat(length) }), 100],
      ['code', (length) => ({ code: 'c'.repeat(length) }), 255],
    ];
    for (const [field, make, limit] of [...limits, ...conversionLimits]) {
      const isPage = limits.some(([name]) => name === field);
      const event = (visitor: string, length: number): Event => {
        const fields = make(length);
        expect(String(Object.values(fields)[0]).length, field).toBe(length);
        return isPage ? pageView(visitor, '/', fields) : conversion(visitor, 'Limits', fields);
      };
      const over = randomUUID();
      const refused = await postEvents(base, key, [conversion(over, 'Marker'), event(over, limit + 1)]);
      expect(refused.status, `${field} of ${limit + 1}`).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
      expect(await leadsOf(over)).toEqual([]);
      const at = randomUUID();
      const taken = await postEvents(base, key, [conversion(at, 'Marker'), event(at, limit)]);
      expect(taken.status, `${field} of ${limit}`).toBe(202);
      expect(taken.body).toEqual({ data: { accepted: 2, duplicates: 0, ignored: 0 } });
    }
  });
});
