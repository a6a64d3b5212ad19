/**
 * Email digests (CONTRACT C10.4) on both stores, with real parts: members
 * choose theirs and admins set the time zone over the dashboard's HTTP API,
 * visitors are tracked over HTTP, and digests arrive at a real SMTP server.
 * The server's and the digest worker's clock is held by the test (no
 * sleeps): 07:59:59.999 local sends nothing, 08:00:00.000 sends, across
 * both daylight-saving changes of Europe/Berlin, and a member who switches
 * from daily to weekly mid-period gets neither a daily nor an early weekly.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { DIGEST_LEASE_MS, DigestWorker } from '../../src/services/digests/worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession, type Person } from '../helpers/dashboard.js';
import { startSmtpServer, type SmtpSink } from '../helpers/smtp-server.js';
import { storeKinds } from '../helpers/stores.js';
import { conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PUBLIC_URL = 'https://leadlight.acme.example';
const FROM = 'Leadlight <digests@leadlight.example>';

describe.each(storeKinds())('email digests on %s (C10.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let smtp: SmtpSink;
  let worker: DigestWorker;
  let clock = Date.parse('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
    base = await t.listen();
    smtp = await startSmtpServer();
    worker = new DigestWorker(new Store(t.db.database), { smtpUrl: smtp.url, smtpFrom: FROM, publicUrl: PUBLIC_URL }, () => clock);
  });
  afterAll(async () => {
    await worker?.stop();
    await smtp?.close();
    await t?.close();
  });

  interface Setup {
    ws: TestWorkspace;
    key: string;
    admin: DashboardSession;
    person: Person;
    session: DashboardSession;
    /** a visitor first seen long before, identified */
    returning: string;
  }

  /** A workspace in `timeZone` with a member (role member) and a person first seen ten days before `clock`. */
  async function setup(timeZone: string): Promise<Setup> {
    const ws = await t.createWorkspace(`Digests ${randomUUID().slice(0, 6)}`);
    const key = (await createSiteKey(t, ws)).key;
    const admin = await signIn(base, await member(t, ws.id, 'admin'));
    const zone = await dashboard(base, admin, 'PUT', '/workspace/time-zone', { time_zone: timeZone });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const person = await member(t, ws.id, 'member', `digest.${randomUUID().slice(0, 8)}@acme.example`);
    const session = await signIn(base, person);
    const returning = randomUUID();
    const now = clock;
    clock = now - 10 * DAY;
    await send(key, [identify(returning, { email: `back-${randomUUID().slice(0, 6)}@example.com`, name: 'Rita Returning' }), pageView(returning, '/blog')]);
    clock = now;
    return { ws, key, admin, person, session, returning };
  }

  async function send(key: string, events: Event[]) {
    const answer = await postEvents(base, key, events);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  }

  async function choose(setup: Setup, digest: 'off' | 'daily' | 'weekly') {
    const answer = await dashboard(base, setup.session, 'PUT', '/account/digest', { digest });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { digest: string; time_zone: string; next_at: string | null };
  }

  const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));

  /** The worker's round at `at`: answers the new mails to the member. */
  async function runAt(setup: Setup, at: number) {
    clock = at;
    const before = mailsTo(setup.person.email).length;
    await worker.runOnce();
    return mailsTo(setup.person.email).slice(before);
  }

  it('C10.4: a daily digest is sent at 08:00:00 in the workspace time zone, not at 07:59:59.999, and once: leads, companies and people, text and HTML, links from PUBLIC_URL', async () => {
    clock = Date.parse('2026-03-02T09:00:00.000Z');
    const s = await setup('Europe/Berlin');
    const chosen = await choose(s, 'daily');
    // Tuesday 08:00 in Berlin (UTC+1 in March) is 07:00Z
    expect(chosen).toEqual({ digest: 'daily', time_zone: 'Europe/Berlin', next_at: '2026-03-03T07:00:00.000Z' });
    expect((await dashboard(base, s.session, 'GET', '/account/digest')).body.data).toEqual(chosen);
    clock = Date.parse('2026-03-02T10:00:00.000Z');
    const visitor = randomUUID();
    await send(s.key, [identify(visitor, { email: `ada-${randomUUID().slice(0, 6)}@initech-${randomUUID().slice(0, 6)}.com`, name: 'Ada Qualified' }), pageView(visitor, '/pricing'), conversion(visitor, 'demo-request')]);
    await send(s.key, [pageView(s.returning, '/pricing')]);
    const leads = await t.as(s.ws, { method: 'GET', url: '/api/v1/leads?limit=10' });
    const lead = (leads.json() as { data: { id: string }[] }).data[0]!;
    expect((await t.as(s.ws, { method: 'PATCH', url: `/api/v1/leads/${lead.id}`, payload: { summary: { score: 85 } } })).statusCode).toBe(200);
    await t.services.intelligence.runOnce(clock);
    const companies = (await t.as(s.ws, { method: 'GET', url: '/api/v1/companies' })).json() as { data: { id: string; name: string }[] };
    // Monday's digest (08:00 before the member chose one) is not sent
    expect(await runAt(s, Date.parse('2026-03-02T12:00:00.000Z'))).toHaveLength(0);
    expect(await runAt(s, Date.parse('2026-03-03T06:59:59.999Z'))).toHaveLength(0);
    const mails = await runAt(s, Date.parse('2026-03-03T07:00:00.000Z'));
    expect(mails).toHaveLength(1);
    // headers unfolded
    const raw = mails[0]!.raw.replace(/\r\n[ \t]+/g, ' ');
    expect(mails[0]!.from).toBe('digests@leadlight.example');
    expect(raw).toMatch(/^Subject: Daily digest for Digests \w+: 1 qualified lead, 1 engaged company, 1 person back$/m);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).toMatch(/^Message-ID: <digest\.daily\.2026-03-03\./m);
    const text = decoded(raw);
    expect(text).toContain('Tuesday, 3 March 2026');
    expect(text).toContain('Ada Qualified');
    expect(text).toContain('Score 85');
    expect(text).toContain(`${PUBLIC_URL}/leads/${lead.id}`);
    expect(text).toContain('Rita Returning');
    expect(companies.data).toHaveLength(1);
    expect(text).toContain(companies.data[0]!.name);
    expect(text).toContain(`${PUBLIC_URL}/companies/${companies.data[0]!.id}`);
    expect(text).toContain(`${PUBLIC_URL}/settings`);
    // made for mail clients: tables, inline styles, no style sheet, no classes, no scripts
    expect(text).toMatch(/<table role="presentation"/);
    expect(text).not.toMatch(/<style|class=|<script/i);
    expect(await runAt(s, Date.parse('2026-03-03T07:00:00.001Z'))).toHaveLength(0);
    expect(await runAt(s, Date.parse('2026-03-03T18:00:00.000Z'))).toHaveLength(0);
  });

  it('C10.4: across daylight-saving changes in Europe/Berlin the digest follows local 08:00 (06:00Z in summer, 07:00Z in winter)', async () => {
    clock = Date.parse('2026-03-27T12:00:00.000Z');
    const s = await setup('Europe/Berlin');
    await choose(s, 'daily');
    // Saturday 28 March: 08:00 CET is 07:00Z; Sunday 29 March (clocks go forward at 02:00): 08:00 CEST is 06:00Z
    clock = Date.parse('2026-03-28T10:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/spring')]);
    expect(await runAt(s, Date.parse('2026-03-29T05:59:59.999Z'))).toHaveLength(0);
    expect(await runAt(s, Date.parse('2026-03-29T06:00:00.000Z'))).toHaveLength(1);
    // Sunday 25 October (clocks go back at 03:00): 08:00 CET is 07:00Z, and 06:00Z is 07:00 local
    clock = Date.parse('2026-10-24T10:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/autumn')]);
    expect(await runAt(s, Date.parse('2026-10-25T06:59:59.999Z'))).toHaveLength(0);
    const autumn = await runAt(s, Date.parse('2026-10-25T07:00:00.000Z'));
    expect(autumn).toHaveLength(1);
    expect(decoded(autumn[0]!.raw)).toContain('Sunday, 25 October 2026');
  });

  it('C10.4: a member who switches from daily to weekly mid-period gets no more dailies and the first weekly on Monday 08:00, not before', async () => {
    clock = Date.parse('2026-03-02T09:00:00.000Z');
    const s = await setup('UTC');
    await choose(s, 'daily');
    clock = Date.parse('2026-03-02T10:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/monday')]);
    expect(await runAt(s, Date.parse('2026-03-03T08:00:00.000Z'))).toHaveLength(1);
    clock = Date.parse('2026-03-04T10:00:00.000Z');
    const chosen = await choose(s, 'weekly');
    expect(chosen.next_at).toBe('2026-03-09T08:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/wednesday')]);
    expect(await runAt(s, Date.parse('2026-03-05T08:00:00.000Z'))).toHaveLength(0);
    expect(await runAt(s, Date.parse('2026-03-09T07:59:59.999Z'))).toHaveLength(0);
    const weekly = await runAt(s, Date.parse('2026-03-09T08:00:00.000Z'));
    expect(weekly).toHaveLength(1);
    expect(weekly[0]!.raw).toMatch(/^Subject: Weekly digest for /m);
    expect(decoded(weekly[0]!.raw)).toContain('2 March 2026 – 9 March 2026');
    expect(await runAt(s, Date.parse('2026-03-09T09:00:00.000Z'))).toHaveLength(0);
    // off: nothing the next Monday
    await choose(s, 'off');
    clock = Date.parse('2026-03-10T10:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/tuesday')]);
    expect(await runAt(s, Date.parse('2026-03-16T08:00:00.000Z'))).toHaveLength(0);
  });

  it('C10.4: a send the SMTP server refuses is retried after a backoff and then sent once; an empty period sends nothing', async () => {
    clock = Date.parse('2026-04-06T09:00:00.000Z');
    const s = await setup('UTC');
    await choose(s, 'daily');
    clock = Date.parse('2026-04-06T10:00:00.000Z');
    await send(s.key, [pageView(s.returning, '/retry')]);
    const wrong = new DigestWorker(new Store(t.db.database), { smtpUrl: smtp.url.replace('s3cret', 'wrong'), smtpFrom: FROM, publicUrl: PUBLIC_URL }, () => clock);
    clock = Date.parse('2026-04-07T08:00:00.000Z');
    const failed = await wrong.runOnce();
    await wrong.stop();
    expect(failed.failed).toBeGreaterThanOrEqual(1);
    expect(mailsTo(s.person.email)).toHaveLength(0);
    // the claim is free again one minute later (the first backoff), not before
    expect(await runAt(s, Date.parse('2026-04-07T08:00:59.999Z'))).toHaveLength(0);
    expect(await runAt(s, Date.parse('2026-04-07T08:01:00.000Z'))).toHaveLength(1);
    expect(await runAt(s, Date.parse('2026-04-07T08:01:00.000Z') + DIGEST_LEASE_MS)).toHaveLength(0);
    // nothing happened on Tuesday: Wednesday's digest is not sent
    expect(await runAt(s, Date.parse('2026-04-08T08:00:00.000Z'))).toHaveLength(0);
  });

  it('C10.4: bad choices and time zones are refused with 400 in the error shape; GET /workspace shows the time zone', async () => {
    const s = await setup('America/New_York');
    expect(((await dashboard(base, s.session, 'GET', '/workspace')).body.data as { time_zone: string }).time_zone).toBe('America/New_York');
    const hourly = await dashboard(base, s.session, 'PUT', '/account/digest', { digest: 'hourly' });
    expect(hourly.status).toBe(400);
    expect(hourly.body.error).toBe('invalid_request');
    for (const zone of ['Mars/Olympus_Mons', '+01:00', 'Europe/Berlin; drop table', '']) {
      const answer = await dashboard(base, s.admin, 'PUT', '/workspace/time-zone', { time_zone: zone });
      expect(answer.status, zone).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
    }
    expect(((await dashboard(base, s.session, 'GET', '/workspace')).body.data as { time_zone: string }).time_zone).toBe('America/New_York');
    const viewer = await signIn(base, await member(t, s.ws.id, 'viewer'));
    expect((await dashboard(base, viewer, 'PUT', '/account/digest', { digest: 'weekly' })).status).toBe(200);
    expect((await dashboard(base, viewer, 'PUT', '/workspace/time-zone', { time_zone: 'UTC' })).status).toBe(403);
  });
});

/** The mail's text with quoted-printable soft breaks and escapes undone (what a mail client shows). */
function decoded(raw: string): string {
  const latin = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(latin, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}
