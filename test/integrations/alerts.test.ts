/**
 * Alerts firing and delivered (CONTRACT C10.1–C10.3) on both stores, with
 * real parts: tracked events over HTTP, a local HTTP receiver standing in
 * for Slack, a real SMTP server, the webhook outbox, and the server's clock
 * held by the test (cooldown and company-return edges at the exact
 * millisecond, no sleeps).
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { AlertDeliveryWorker } from '../../src/services/alerts/delivery-worker.js';
import { SLACK_LIMITS } from '../../src/services/alerts/messages.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { startSmtpServer, type SmtpSink } from '../helpers/smtp-server.js';
import { storeKinds } from '../helpers/stores.js';
import { conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PUBLIC_URL = 'https://leadlight.acme.example';
const settings = { allowPrivate: true, retryBaseMs: 40, pollMs: 20 };

interface SlackBody {
  text: string;
  blocks: { type: string; text?: { type: string; text: string }; elements?: { type: string; url?: string; text?: unknown }[] }[];
}

describe.each(storeKinds())('alerts fire and are delivered on %s (C10.1–C10.3)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let base: string;
  let key: string;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let worker: AlertDeliveryWorker;
  let hooks: WebhookDeliveryWorker;
  let clock = Date.parse('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: settings, clock: () => clock });
    base = await t.listen();
    ws = await t.createWorkspace('Alerts');
    key = (await createSiteKey(t, ws)).key;
    receiver = await startReceiver();
    smtp = await startSmtpServer();
    const store = new Store(t.db.database);
    worker = new AlertDeliveryWorker(store, settings, { smtpUrl: smtp.url, smtpFrom: 'Leadlight <alerts@leadlight.example>', publicUrl: PUBLIC_URL }, () => clock);
    // signatures carry the real time: receivers refuse old timestamps
    hooks = new WebhookDeliveryWorker(store, settings);
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await smtp?.close();
    await t?.close();
  });

  const send = async (events: Event[]) => {
    const answer = await postEvents(base, key, events);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const createAlert = async (body: Record<string, unknown>) => {
    const answer = await t.as(ws, { method: 'POST', url: '/api/v1/alerts', payload: body });
    expect(answer.statusCode, answer.body).toBe(201);
    return (answer.json() as { data: { id: string } }).data.id;
  };
  const deliveries = async (alertId: string) =>
    ((await t.as(ws, { method: 'GET', url: `/api/v1/alerts/${alertId}/deliveries?limit=100` })).json() as {
      data: { status: string; attempts: number; test: boolean; subject: string; last_error: string | null; log: unknown[] }[];
    }).data;
  const slackAt = (path: string) => receiver.received.filter((entry) => entry.path === path).map((entry) => JSON.parse(entry.body) as SlackBody);
  const identityId = async (email: string) =>
    ((await t.as(ws, { method: 'GET', url: `/api/v1/identities?email=${encodeURIComponent(email)}` })).json() as { data: { id: string }[] }).data[0]!.id;

  it('C10.2: a page glob viewed by a person sends one Slack message: text and Block Kit blocks naming who, what, the pages and a button to the dashboard', async () => {
    const path = `/slack-${randomUUID().slice(0, 6)}`;
    const alertId = await createAlert({ name: 'Pricing viewed', trigger: { type: 'page_viewed', path: '/pricing*' }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const visitor = randomUUID();
    const email = `ada-${randomUUID().slice(0, 6)}@acme-industries.example`;
    await send([identify(visitor, { email, name: 'Ada Lovelace' }), pageView(visitor, '/docs'), pageView(visitor, '/pricing/enterprise')]);
    // an anonymous visitor without a known company is nobody to tell about (C10.1)
    await send([pageView(randomUUID(), '/pricing')]);
    expect(await deliveries(alertId)).toHaveLength(1);
    await worker.runOnce();
    const messages = slackAt(path);
    expect(messages).toHaveLength(1);
    const message = messages[0]!;
    expect(message.text).toContain('Pricing viewed');
    expect(message.text).toContain('Ada Lovelace');
    expect(message.text).toContain('viewed /pricing/enterprise');
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Pricing viewed', emoji: true } });
    const sections = message.blocks.filter((block) => block.type === 'section').map((block) => block.text!.text);
    expect(sections.join('\n')).toContain(email);
    const pages = sections.find((text) => text.startsWith('*Pages:*'))!;
    expect(pages).toContain('`/pricing/enterprise`');
    expect(pages).toContain('`/docs`');
    for (const text of sections) expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.section);
    const button = message.blocks.find((block) => block.type === 'actions')!.elements![0]!;
    expect(button.url).toBe(`${PUBLIC_URL}/identities/${await identityId(email)}`);
    const [delivery] = await deliveries(alertId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, test: false, last_error: null });
    await worker.runOnce();
    expect(slackAt(path)).toHaveLength(1);
  });

  it('C10.3: at most once per alert and person within the cooldown: 1 ms before its end nothing, exactly at its end again', async () => {
    const path = `/cooldown-${randomUUID().slice(0, 6)}`;
    const alertId = await createAlert({ name: 'Docs', trigger: { type: 'page_viewed', path: '/guide/*' }, destination: { type: 'slack', url: `${receiver.url}${path}` }, cooldown_minutes: 5 });
    const visitor = randomUUID();
    const start = clock;
    await send([identify(visitor, { email: `cool-${randomUUID().slice(0, 6)}@example.com` }), pageView(visitor, '/guide/a')]);
    await send([pageView(visitor, '/guide/b')]);
    clock = start + 5 * MINUTE - 1;
    await send([pageView(visitor, '/guide/c')]);
    expect(await deliveries(alertId)).toHaveLength(1);
    clock = start + 5 * MINUTE;
    await send([pageView(visitor, '/guide/d')]);
    expect(await deliveries(alertId)).toHaveLength(2);
    // another person is not held back by the first one's cooldown
    const second = randomUUID();
    await send([identify(second, { email: `other-${randomUUID().slice(0, 6)}@example.com` }), pageView(second, '/guide/a')]);
    expect(await deliveries(alertId)).toHaveLength(3);
    await worker.runOnce();
    expect(slackAt(path)).toHaveLength(3);
  });

  it('C10.1: filters: countries and minimum score hold back visitors that do not match', async () => {
    const path = `/filtered-${randomUUID().slice(0, 6)}`;
    const country = await createAlert({ name: 'US only', trigger: { type: 'conversion' }, filters: { countries: ['US'] }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const score = await createAlert({ name: 'Scored', trigger: { type: 'conversion' }, filters: { min_score: 1 }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const all = await createAlert({ name: 'Every conversion', trigger: { type: 'conversion' }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    // the loopback address has no country, and a first conversion has no score yet
    await send([conversion(randomUUID(), 'signup')]);
    expect(await deliveries(country)).toHaveLength(0);
    expect(await deliveries(score)).toHaveLength(0);
    expect(await deliveries(all)).toHaveLength(1);
  });

  it('C10.2: an email alert on a conversion is sent over SMTP (with credentials) from SMTP_FROM, with a plain-text and an HTML part', async () => {
    const alertId = await createAlert({ name: 'New signup', trigger: { type: 'conversion' }, destination: { type: 'email', to: ['sales@acme.example', 'ceo@acme.example'] } });
    const visitor = randomUUID();
    const before = smtp.mails.length;
    await send([identify(visitor, { email: `grace-${randomUUID().slice(0, 6)}@hopper.example`, name: 'Grace Hopper' }), pageView(visitor, '/pricing'), conversion(visitor, 'demo-request')]);
    await worker.runOnce();
    const mails = smtp.mails.slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.from).toBe('alerts@leadlight.example');
    expect(mail.to.sort()).toEqual(['ceo@acme.example', 'sales@acme.example']);
    expect(mail.raw).toMatch(/^Subject: New signup: Grace Hopper/m);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain('converted: demo-request');
    expect((await deliveries(alertId))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('C10.2: an email that cannot be sent (wrong SMTP credentials) is retried with backoff and logged', async () => {
    const alertId = await createAlert({ name: 'Bad SMTP', trigger: { type: 'conversion' }, destination: { type: 'email', to: ['ops@acme.example'] } });
    const wrong = new AlertDeliveryWorker(new Store(t.db.database), settings, { smtpUrl: smtp.url.replace('s3cret', 'wrong'), smtpFrom: 'x@leadlight.example', publicUrl: PUBLIC_URL }, () => clock);
    const other = await t.as(ws, { method: 'GET', url: '/api/v1/alerts?limit=100' });
    // only this alert's delivery is due: the others are delivered already
    expect(other.statusCode).toBe(200);
    await send([conversion(randomUUID(), 'trial')]);
    await wrong.runOnce();
    await wrong.stop();
    const [failed] = await deliveries(alertId);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed!.last_error).toMatch(/auth|credentials|535/i);
    clock += 1_000;
    await worker.runOnce();
    const [delivered] = await deliveries(alertId);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(delivered!.log).toHaveLength(2);
  });

  it('C10.2: a webhook destination gets a signed Standard Webhooks event alert.triggered through the webhook outbox', async () => {
    const made = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}/alert-hook`, events: ['lead.deleted'] } });
    const { id: webhookId, secret } = (made.json() as { data: { id: string; secret: string } }).data;
    const alertId = await createAlert({ name: 'To CRM', trigger: { type: 'conversion' }, destination: { type: 'webhook', webhook_id: webhookId } });
    const visitor = randomUUID();
    await send([conversion(visitor, 'contact')]);
    await worker.runOnce();
    await hooks.runOnce();
    const received = receiver.received.filter((entry) => entry.path === '/alert-hook');
    expect(received).toHaveLength(1);
    const event = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string; data: { alert: { id: string }; visitor_id: string; summary: string } };
    expect(event.type).toBe('alert.triggered');
    expect(event.data).toMatchObject({ alert: { id: alertId }, visitor_id: visitor, summary: 'converted: contact' });
  });

  it('C10.1: a company returning after exactly N days fires; 1 ms short of N days does not', async () => {
    const path = `/returned-${randomUUID().slice(0, 6)}`;
    const alertId = await createAlert({ name: 'Back again', trigger: { type: 'company_returned', after_days: 3 }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const tag = randomUUID().slice(0, 6);
    const early = randomUUID();
    const exact = randomUUID();
    const start = clock;
    await send([identify(early, { email: `a@early-${tag}.com` }), identify(exact, { email: `b@exact-${tag}.com` })]);
    expect(await deliveries(alertId)).toHaveLength(0);
    clock = start + 3 * DAY - 1;
    await send([pageView(early, '/')]);
    expect(await deliveries(alertId)).toHaveLength(0);
    clock = start + 3 * DAY;
    await send([pageView(exact, '/')]);
    const fired = await deliveries(alertId);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.subject).toMatch(/^company:/);
    await worker.runOnce();
    const [message] = slackAt(path);
    expect(message!.text).toContain('came back after 3 days away');
    expect(message!.blocks.map((block) => block.text?.text ?? '').join('\n')).toContain(`(exact-${tag}.com)`);
  });

  it('C10.1: a person added to a list fires segment_entered for that list only, with the membership', async () => {
    // list additions and the intelligence worker take the real time
    clock = Date.now() + 1_000;
    const path = `/segment-${randomUUID().slice(0, 6)}`;
    const list = async (name: string) => ((await t.as(ws, { method: 'POST', url: '/api/v1/lists', payload: { name } })).json() as { data: { id: string } }).data.id;
    const hot = await list('Hot accounts');
    const cold = await list('Cold accounts');
    const alertId = await createAlert({ name: 'Hot', trigger: { type: 'segment_entered', list_id: hot }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const visitor = randomUUID();
    const email = `seg-${randomUUID().slice(0, 6)}@example.com`;
    await send([identify(visitor, { email, name: 'Sam Segment' })]);
    const identity = await identityId(email);
    await t.as(ws, { method: 'POST', url: `/api/v1/lists/${cold}/identities`, payload: { identity_ids: [identity] } });
    expect(await deliveries(alertId)).toHaveLength(0);
    const added = await t.as(ws, { method: 'POST', url: `/api/v1/lists/${hot}/identities`, payload: { identity_ids: [identity] } });
    expect(added.statusCode).toBe(200);
    expect(await deliveries(alertId)).toHaveLength(1);
    await worker.runOnce();
    expect(slackAt(path)[0]!.text).toContain('Sam Segment was added to Hot accounts');
  });

  it('C10.1: score_reached fires when the intelligence worker writes a lead score that reaches it, once', async () => {
    clock = Date.now() + 1_000;
    const path = `/score-${randomUUID().slice(0, 6)}`;
    const alertId = await createAlert({ name: 'Hot lead', trigger: { type: 'score_reached', score: 5 }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const visitor = randomUUID();
    await send([identify(visitor, { email: `score-${randomUUID().slice(0, 6)}@example.com`, name: 'Sue Score' }), pageView(visitor, '/pricing'), conversion(visitor, 'demo')]);
    expect(await deliveries(alertId)).toHaveLength(0);
    await t.services.intelligence.runOnce(clock);
    expect(await deliveries(alertId)).toHaveLength(1);
    // refreshed again with the same score: it reached it once
    await send([pageView(visitor, '/about')]);
    await t.services.intelligence.runOnce(clock);
    expect(await deliveries(alertId)).toHaveLength(1);
    await worker.runOnce();
    const [message] = slackAt(path);
    expect(message!.text).toMatch(/Sue Score reached a score of \d+/);
    expect(message!.blocks.map((block) => block.text?.text ?? '').join('\n')).toMatch(/\*Score:\* \d+\n• /);
  });

  it('C10.2: Slack\'s Block Kit limits hold for long names: the header is cut at 150 characters, the notification text keeps the whole name', async () => {
    clock = Math.max(clock, Date.now() + 1_000);
    const path = `/long-${randomUUID().slice(0, 6)}`;
    const name = `${'Very long alert name '.repeat(10)}end`.slice(0, 200);
    expect(name).toHaveLength(200);
    const alertId = await createAlert({ name, trigger: { type: 'conversion' }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    expect((await t.as(ws, { method: 'POST', url: `/api/v1/alerts/${alertId}/test` })).statusCode).toBe(202);
    await worker.runOnce();
    const [message] = slackAt(path);
    const header = message!.blocks[0]!.text!.text;
    expect(header).toHaveLength(SLACK_LIMITS.header);
    expect(header.endsWith('…')).toBe(true);
    expect(message!.text).toContain(name);
  });

  it('C8.4: erasing a person deletes the alert deliveries that name them (their cooldowns go too); others stay', async () => {
    clock = Math.max(clock, Date.now() + 1_000);
    const path = `/erase-${randomUUID().slice(0, 6)}`;
    const alertId = await createAlert({ name: 'Erasable', trigger: { type: 'conversion' }, destination: { type: 'slack', url: `${receiver.url}${path}` } });
    const visitor = randomUUID();
    const email = `erase-${randomUUID().slice(0, 6)}@example.com`;
    const keep = randomUUID();
    await send([identify(visitor, { email, name: 'Erin Erased' }), conversion(visitor, 'signup'), identify(keep, { email: `keep-${randomUUID().slice(0, 6)}@example.com` }), conversion(keep, 'signup')]);
    expect(await deliveries(alertId)).toHaveLength(2);
    const erased = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email } });
    expect(erased.statusCode).toBe(200);
    const left = await deliveries(alertId);
    expect(left).toHaveLength(1);
    expect(JSON.stringify(left)).not.toContain(email);
    expect(left[0]!.subject).not.toContain(visitor);
  });

  it('C10.3: POST /alerts/{id}/test sends a sample marked as a test, whatever the cooldown; it is in the deliveries log', async () => {
    const path = `/test-${randomUUID().slice(0, 6)}`;
    // the test is queued at the server's real time
    clock = Math.max(clock, Date.now() + 1_000);
    const alertId = await createAlert({ name: 'Try me', trigger: { type: 'conversion' }, destination: { type: 'slack', url: `${receiver.url}${path}` }, enabled: false });
    for (let round = 0; round < 2; round += 1) {
      const answer = await t.as(ws, { method: 'POST', url: `/api/v1/alerts/${alertId}/test` });
      expect(answer.statusCode).toBe(202);
    }
    await worker.runOnce();
    const messages = slackAt(path);
    expect(messages).toHaveLength(2);
    expect(messages[0]!.blocks[0]!.text!.text).toBe('[Test] Try me');
    const logged = await deliveries(alertId);
    expect(logged.map((entry) => [entry.test, entry.status])).toEqual([
      [true, 'delivered'],
      [true, 'delivered'],
    ]);
    expect((await t.as(ws, { method: 'POST', url: `/api/v1/alerts/${randomUUID()}/test` })).statusCode).toBe(404);
  });
});
