/**
 * The events endpoint over real HTTP on both stores (CONTRACT C5.3, C5.1):
 * both media types, whole-batch validation, size and count limits, site keys
 * (401, revoked, refused on /api/v1), origins (403) and CORS, idempotency by
 * event id, bots and headless browsers, the clock rules, rate limits per site
 * key and per address, and the client address behind a trusted proxy.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { awayFromWindowEdge } from '../helpers/processes.js';
import { storeKinds } from '../helpers/stores.js';
import {
  all,
  api,
  BROWSER_UA,
  conversion,
  createSiteKey,
  identify,
  pageView,
  postBody,
  postEvents,
  SITE,
  type Event,
} from '../helpers/tracking.js';

const uuid = () => randomUUID();

describe.each(storeKinds())('the events endpoint on %s (C5.3)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Tracked');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const identitiesNamed = async (email: string) => all(base, workspace, `/identities?email=${encodeURIComponent(email)}`);

  it('C5.3: 202 with the counts, for a text/plain body and for an application/json one', async () => {
    for (const contentType of ['text/plain;charset=UTF-8', 'application/json']) {
      const visitor = uuid();
      const email = `both-${contentType.length}@example.com`;
      const answer = await postEvents(base, key, [pageView(visitor, '/'), identify(visitor, { email })], { 'content-type': contentType });
      expect(answer.status, contentType).toBe(202);
      expect(answer.body).toEqual({ data: { accepted: 2, duplicates: 0, ignored: 0 } });
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      expect(await identitiesNamed(email)).toHaveLength(1);
    }
  });

  it('C5.3: one bad event in a batch of 100 is a 400 naming it, and nothing of the batch is written', async () => {
    const visitor = uuid();
    const events: Event[] = Array.from({ length: 99 }, (_, index) => pageView(visitor, `/page-${index}`));
    events.splice(40, 0, identify(visitor, { email: 'batch@example.com' }));
    events.push(conversion(visitor, 'Signed up'));
    expect(events).toHaveLength(101);
    events.splice(57, 1, { ...pageView(visitor, '/bad'), url: 'not a url' });
    events.pop();
    const leadsBefore = (await api(base, workspace, '/leads?limit=1')).body.pagination?.total;
    const refused = await postEvents(base, key, events);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request', details: { fields: { 'events[57].url': 'must be an absolute http or https URL' } } });
    expect(String(refused.body.message)).toContain('events[57].url');
    expect(await identitiesNamed('batch@example.com')).toEqual([]);
    expect((await api(base, workspace, '/leads?limit=1')).body.pagination?.total).toBe(leadsBefore);
    // the same ids, with the bad one mended, are all new: nothing was recorded the first time
    events[57] = { ...(events[57] as Event), url: `${SITE}/mended` };
    const accepted = await postEvents(base, key, events);
    expect(accepted.body).toEqual({ data: { accepted: 100, duplicates: 0, ignored: 0 } });
    expect(await identitiesNamed('batch@example.com')).toHaveLength(1);
  });

  it('C5.3: every problem of every event is named, with its place in the batch', async () => {
    const visitor = uuid();
    const answer = await postEvents(base, key, [
      { id: 'nope', type: 'page', url: `${SITE}/` },
      { id: uuid(), type: 'click', visitor_id: visitor },
      { id: uuid(), type: 'page', visitor_id: visitor },
      { id: uuid(), type: 'track', visitor_id: visitor, url: `${SITE}/`, properties: [] },
      { id: uuid(), type: 'conversion', visitor_id: visitor, name: 'x'.repeat(101), code: 'c'.repeat(256) },
      { id: uuid(), type: 'identify', visitor_id: 'visitor-1', traits: { email: 'not an email' } },
      { id: uuid(), type: 'page', url: `${SITE}/`, title: 't'.repeat(501), referrer: 'r'.repeat(2001), ts: 'yesterday', extra: 1 },
      { id: uuid(), type: 'page', url: `${SITE}/${'p'.repeat(2000)}` },
      { id: uuid(), type: 'page', url: `${SITE}/`, properties: {} },
      'not an event' as unknown as Event,
    ]);
    expect(answer.status).toBe(400);
    expect((answer.body.details as { fields: Record<string, string> }).fields).toEqual({
      'events[0].id': 'must be a UUID',
      'events[1].type': 'must be one of page, identify, track, conversion',
      'events[2].url': 'is required for page events',
      'events[3].name': 'is required for track events',
      'events[3].properties': 'must be a JSON object',
      'events[4].name': 'must be at most 100 characters',
      'events[4].code': 'must be at most 255 characters',
      'events[5].visitor_id': 'must be a UUID',
      'events[5].traits.email': 'must be a valid email address',
      'events[6].title': 'must be at most 500 characters',
      'events[6].referrer': 'must be at most 2000 characters',
      'events[6].ts': 'must be an ISO 8601 date or date-time',
      'events[6].extra': 'is not a known field',
      'events[7].url': 'must be at most 2000 characters',
      'events[8].properties': 'is not allowed for page events',
      'events[9]': 'must be a JSON object',
    });
  });

  it('C5.3: a body that is not a JSON object, an empty batch or one of more than 100 events is 400', async () => {
    const tooMany = Array.from({ length: 101 }, () => pageView(uuid(), '/'));
    for (const [body, reason] of [
      ['[1,2]', 'body'],
      ['"text"', 'body'],
      ['{"key":', 'body'],
      [JSON.stringify({ key, events: tooMany }), 'events'],
      [JSON.stringify({ key, events: [] }), 'events'],
      [JSON.stringify({ key, events: {} }), 'events'],
      [JSON.stringify({ key, events: [pageView(uuid(), '/')], sent_at: 'now' }), 'sent_at'],
    ] as const) {
      const answer = await postBody(base, body);
      expect(answer.status, body.slice(0, 40)).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      // C3.5: the whole body and each member alike under details.fields
      const details = answer.body.details as Record<string, Record<string, string>>;
      expect(Object.keys(details), body.slice(0, 40)).toEqual(['fields']);
      expect(details.fields?.[reason], body.slice(0, 40)).toBeDefined();
    }
  });

  it('C5.3: a body over 512 KiB is 413; another media type is 415', async () => {
    const big = JSON.stringify({ key, events: [pageView(uuid(), '/', { title: 'x'.repeat(400) })], padding: 'x'.repeat(512 * 1024) });
    const tooLarge = await postBody(base, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: 'payload_too_large', message: 'request body is larger than 512 KiB', details: { max_bytes: 524288 } });
    const form = await postBody(base, `key=${key}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.body).toMatchObject({ error: 'unsupported_media_type', details: { accepted: 'application/json or text/plain' } });
  });

  it('C5.3: a missing, unknown, malformed or revoked site key is 401, and writes nothing', async () => {
    const events = (email: string) => [identify(uuid(), { email })];
    for (const [label, body] of [
      ['missing', { events: events('nokey@example.com') }],
      ['unknown', { key: `ll_site_${'Z'.repeat(32)}`, events: events('nokey@example.com') }],
      ['malformed', { key: 'll_site_short', events: events('nokey@example.com') }],
      ['an API key', { key: workspace.production.key, events: events('nokey@example.com') }],
    ] as const) {
      const answer = await postBody(base, JSON.stringify(body));
      expect(answer.status, label).toBe(401);
      expect(answer.body, label).toEqual({ error: 'unauthorized', message: 'Invalid or missing site key' });
    }
    const revocable = await createSiteKey(t, workspace);
    expect((await postEvents(base, revocable.key, events('before-revoke@example.com'))).status).toBe(202);
    const revoked = await t.services.siteKeys.revoke(revocable.id);
    expect(revoked.id).toBe(revocable.id);
    const after = await postEvents(base, revocable.key, events('after-revoke@example.com'));
    expect(after.status).toBe(401);
    expect(await identitiesNamed('nokey@example.com')).toEqual([]);
    expect(await identitiesNamed('after-revoke@example.com')).toEqual([]);
  });

  it('C5.1: a site key is 401 on every /api/v1 endpoint, by either header', async () => {
    const routes = t.app.routeTable.routes().filter((route) => route.url.startsWith('/api/v1') && route.method !== 'HEAD' && !route.public);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const url = `${base}${route.url.replace(':id', uuid())}`;
      for (const headers of [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }] as Record<string, string>[]) {
        const response = await fetch(url, { method: route.method, headers: { ...headers, 'content-type': 'application/json' }, body: route.method === 'GET' ? undefined : '{}' });
        expect(response.status, `${route.method} ${route.url}`).toBe(401);
        expect(await response.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing API key' });
      }
    }
  });

  it('C5.1, C5.3: a key with origins accepts those (and wildcard subdomains) and refuses others with 403', async () => {
    const limited = await createSiteKey(t, workspace, ['https://shop.example.com', 'https://*.example.org']);
    const send = (origin: string | undefined) => postEvents(base, limited.key, [pageView(uuid(), '/')], origin === undefined ? {} : { origin });
    for (const origin of ['https://shop.example.com', 'https://a.example.org', 'https://b.c.example.org', undefined]) {
      const answer = await send(origin);
      expect(answer.status, origin).toBe(202);
      if (origin !== undefined) expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    }
    for (const origin of ['https://evil.example.com', 'http://shop.example.com', 'https://example.org', 'null']) {
      const answer = await send(origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('C5.3: a preflight (no key) is 204 with the CORS headers; errors carry Access-Control-Allow-Origin too', async () => {
    const preflight = await fetch(`${base}/e`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(Number(preflight.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    const refused = await postBody(base, '{"events":[]}', { origin: 'https://anywhere.example' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
  });

  it('C5.3: a batch sent twice changes nothing the second time; an id repeated in a batch is a duplicate', async () => {
    const visitor = uuid();
    const batch = [pageView(visitor, '/pricing'), identify(visitor, { email: 'twice@example.com', name: 'Twice' }), conversion(visitor, 'Signed up')];
    expect((await postEvents(base, key, batch)).body).toEqual({ data: { accepted: 3, duplicates: 0, ignored: 0 } });
    const [identity] = await identitiesNamed('twice@example.com');
    const snapshot = async () => ({
      identity: (await api(base, workspace, `/identities/${String(identity!.id)}`)).body,
      activity: await all(base, workspace, `/identities/${String(identity!.id)}/activity`),
      leads: (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor),
    });
    const before = await snapshot();
    expect(before.activity).toHaveLength(3);
    expect(before.leads).toHaveLength(1);
    expect((await postEvents(base, key, batch)).body).toEqual({ data: { accepted: 0, duplicates: 3, ignored: 0 } });
    expect(await snapshot()).toEqual(before);

    const repeated = pageView(visitor, '/again');
    expect((await postEvents(base, key, [repeated, repeated, { ...repeated, title: 'other' }])).body).toEqual({
      data: { accepted: 1, duplicates: 2, ignored: 0 },
    });
  });

  it('C5.3: bots, crawlers and headless browsers are 202 with every event ignored, and nothing is stored', async () => {
    for (const userAgent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.31.0',
      '',
    ]) {
      const email = `bot-${userAgent.length}@example.com`;
      const answer = await postEvents(base, key, [pageView(uuid(), '/'), identify(uuid(), { email }), { id: 'not even valid' }], {
        'user-agent': userAgent,
      });
      expect(answer.status, userAgent).toBe(202);
      expect(answer.body, userAgent).toEqual({ data: { accepted: 0, duplicates: 0, ignored: 3 } });
      expect(await identitiesNamed(email)).toEqual([]);
    }
    const hinted = await postEvents(base, key, [identify(uuid(), { email: 'hinted@example.com' })], {
      'sec-ch-ua': '"HeadlessChrome";v="140", "Chromium";v="140"',
    });
    expect(hinted.body).toEqual({ data: { accepted: 0, duplicates: 0, ignored: 1 } });
  });

  it('C5.3: a ts over 5 minutes ahead takes the server time; one older than 7 days is ignored', async () => {
    const visitor = uuid();
    const before = Date.now();
    const ahead = new Date(before + 60 * 60_000).toISOString();
    const sixDaysAgo = new Date(before - 6 * 86_400_000).toISOString();
    const eightDaysAgo = new Date(before - 8 * 86_400_000).toISOString();
    const answer = await postEvents(base, key, [
      pageView(visitor, '/old', { ts: eightDaysAgo }),
      pageView(visitor, '/six-days', { ts: sixDaysAgo }),
      identify(visitor, { email: 'clock@example.com' }, { ts: ahead }),
      conversion(visitor, 'From the future', { ts: ahead }),
    ]);
    expect(answer.body).toEqual({ data: { accepted: 3, duplicates: 0, ignored: 1 } });
    const after = Date.now();
    const [identity] = await identitiesNamed('clock@example.com');
    expect(identity!.first_seen).toBe(sixDaysAgo);
    const lastSeen = Date.parse(String(identity!.last_seen));
    expect(lastSeen).toBeGreaterThanOrEqual(before);
    expect(lastSeen).toBeLessThanOrEqual(after);
    const [lead] = (await all(base, workspace, '/leads')).filter((found) => found.visitor_id === visitor);
    expect(Date.parse(String(lead!.created_at))).toBeLessThanOrEqual(after);
    const activity = await all(base, workspace, `/identities/${String(identity!.id)}/activity`);
    expect(activity.map((entry) => entry.what)).not.toContain('Viewed Title of /old');
    expect(activity.map((entry) => entry.what)).toContain('Viewed Title of /six-days');
  });
});

describe.each(storeKinds())('rate limits and client addresses of the events endpoint on %s (C5.3)', (kind) => {
  it('C5.3, C3.3: per site key (RATE_LIMIT_INGEST), with the key limit\'s headers, and per address (RATE_LIMIT_INGEST_ADDRESS)', async () => {
    const t = await createTestApp(kind, { tracking: { ingestLimit: 3, ingestAddressLimit: 5 }, trustProxy: true });
    try {
      // the counts of one fixed window (C3.3) are what this test reads
      await awayFromWindowEdge(10);
      const base = await t.listen();
      const workspace = await t.createWorkspace('Limited');
      const { key } = await createSiteKey(t, workspace);
      const other = await createSiteKey(t, workspace);
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof postEvents>> | undefined;
      for (let index = 0; index < 4; index += 1) {
        last = await postEvents(base, key, [pageView(uuid(), '/')], from(`198.51.100.${index + 1}`));
        statuses.push(last.status);
        if (index < 3) {
          expect(last.headers.get('x-ratelimit-limit')).toBe('3');
          expect(last.headers.get('x-ratelimit-remaining')).toBe(String(2 - index));
        }
      }
      expect(statuses).toEqual([202, 202, 202, 429]);
      expect(last!.body).toMatchObject({ error: 'rate_limit_exceeded', details: { retry_after: expect.any(Number) } });
      expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
      expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit-policy')).toBe('"site";q=3;w=60');
      // another key is counted apart
      expect((await postEvents(base, other.key, [pageView(uuid(), '/')], from('198.51.100.9'))).status).toBe(202);

      // one address: 5 requests a minute, whichever key (and even without one)
      const third = await createSiteKey(t, workspace);
      const address = from('192.0.2.77');
      const answers = [];
      for (let index = 0; index < 6; index += 1) answers.push(await postEvents(base, index % 2 === 0 ? third.key : 'll_site_nope', [pageView(uuid(), '/')], address));
      expect(answers.map((answer) => answer.status)).toEqual([202, 401, 202, 401, 202, 429]);
      expect(answers[1]!.headers.get('x-ratelimit-limit')).toBe('5');
      expect(answers[5]!.headers.get('x-ratelimit-limit')).toBe('5');
      expect(answers[5]!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(answers[5]!.headers.get('ratelimit-policy')).toBe('"address";q=5;w=60');
    } finally {
      await t.close();
    }
  });

  it('C5.5, C1.3: the client address is read from X-Forwarded-For only behind a trusted proxy (TRUST_PROXY)', async () => {
    for (const trustProxy of [true, false]) {
      const t = await createTestApp(kind, { trustProxy });
      try {
        const base = await t.listen();
        const workspace = await t.createWorkspace('Proxied');
        const { key } = await createSiteKey(t, workspace);
        const visitor = uuid();
        await postEvents(base, key, [identify(visitor, { email: 'proxied@example.com' })], { 'x-forwarded-for': '203.0.113.9', 'user-agent': BROWSER_UA });
        const [identity] = await all(base, workspace, '/identities?email=proxied@example.com');
        expect(identity!.ip, String(trustProxy)).toBe(trustProxy ? '203.0.113.9' : '127.0.0.1');
      } finally {
        await t.close();
      }
    }
  });
});
