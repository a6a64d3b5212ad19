/**
 * Digests with several real processes over one database (CONTRACT C10.4),
 * on both stores: two processes that run their digest round at the same
 * instant send each member's digest exactly once; a process killed with
 * SIGKILL while it sends leaves its claim, which another worker takes when
 * the claim's lease ends and sends once: not lost, not doubled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { DIGEST_LEASE_MS, DigestWorker } from '../../src/services/digests/worker.js';
import { DigestsService } from '../../src/services/tenant/digests.service.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { member, type Person } from '../helpers/dashboard.js';
import { ROOT } from '../helpers/processes.js';
import { startSmtpServer, type SmtpSink } from '../helpers/smtp-server.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, identify, pageView, postEvents } from '../helpers/tracking.js';

const MEMBERS = 12;
const DAY = 86_400_000;
const SCRIPT = path.join(ROOT, 'test', 'helpers', 'digest-round.ts');

interface Round {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<string>;
  output(): string;
}

/** A process that runs one digest round at `clock` once told to go. */
function roundProcess(url: string, clock: number, smtpUrl: string): Round {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, String(clock), smtpUrl], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let ready: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  child.stdout!.on('data', (chunk) => {
    output += String(chunk);
    if (output.includes('ready\n')) ready();
  });
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const done = new Promise<string>((resolve) => child.on('close', () => resolve(output)));
  return { child, ready: readyPromise, done, output: () => output };
}

describe.each(storeKinds())('digests with several processes on %s (C10.4)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let smtp: SmtpSink;
  let people: Person[] = [];
  let clock = Date.parse('2026-05-04T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
    const base = await t.listen();
    smtp = await startSmtpServer();
    ws = await t.createWorkspace('Racing digests');
    const key = (await createSiteKey(t, ws)).key;
    const visitor = randomUUID();
    clock -= 10 * DAY;
    expect((await postEvents(base, key, [identify(visitor, { email: 'back@example.com', name: 'Bea Back' })])).status).toBe(202);
    clock += 10 * DAY;
    people = [];
    for (let index = 0; index < MEMBERS; index += 1) {
      const person = await member(t, ws.id, 'member');
      // chosen at the test's clock (t.services keeps the real one)
      await new DigestsService(new Store(t.db.database).forWorkspace(ws.id), () => clock).set(person.id, 'daily', 'UTC');
      people.push(person);
    }
    // something to tell on each of the next days
    for (const day of [0, 1]) {
      clock = Date.parse('2026-05-04T10:00:00.000Z') + day * DAY;
      expect((await postEvents(base, key, [pageView(visitor, `/day-${day}`)])).status).toBe(202);
    }
  }, 120_000);
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  const countsFor = (period: string) => people.map((person) => smtp.mails.filter((mail) => mail.to.includes(person.email) && mail.raw.includes(period)).length);

  it('C10.4: two processes running their round at the same instant send each member one digest', async () => {
    const at = Date.parse('2026-05-05T08:00:00.000Z');
    const rounds = [roundProcess(t.db.url, at, smtp.url), roundProcess(t.db.url, at, smtp.url)];
    await Promise.all(rounds.map((round) => round.ready));
    for (const round of rounds) round.child.stdin!.end('go\n');
    const outputs = await Promise.all(rounds.map((round) => round.done));
    const sent = outputs.map((output) => (JSON.parse(output.trim().split('\n').at(-1)!) as { sent: number }).sent);
    expect(sent[0]! + sent[1]!, outputs.join('\n')).toBe(MEMBERS);
    expect(countsFor('digest.daily.2026-05-05')).toEqual(people.map(() => 1));
  }, 120_000);

  it('C10.4: a process killed (SIGKILL) while sending leaves its claim; when its lease ends another worker sends that digest, once', async () => {
    const at = Date.parse('2026-05-06T08:00:00.000Z');
    // an SMTP server that takes the connection and never greets: the process is stuck sending its first digest
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const stuck = roundProcess(t.db.url, at, `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`);
    await stuck.ready;
    stuck.child.stdin!.end('go\n');
    const store = new Store(t.db.database);
    const claimed = async () => {
      for (const person of people) if ((await store.forWorkspace(ws.id).repos.digests.send(person.id, 'daily:2026-05-06'))?.status === 'claimed') return person;
      return undefined;
    };
    let victim: Person | undefined;
    for (let tries = 0; victim === undefined && tries < 400; tries += 1) {
      victim = await claimed();
      if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(victim, `the process claimed a digest: ${stuck.output()}`).toBeDefined();
    stuck.child.kill('SIGKILL');
    await stuck.done;
    silent.close();
    const worker = new DigestWorker(store, { smtpUrl: smtp.url, smtpFrom: 'Leadlight <digests@leadlight.example>', publicUrl: 'https://leadlight.example' }, () => clock);
    clock = at + 1_000;
    await worker.runOnce();
    const index = people.indexOf(victim!);
    // every other member's digest is sent; the claimed one waits for its lease
    expect(countsFor('digest.daily.2026-05-06')).toEqual(people.map((_, at) => (at === index ? 0 : 1)));
    clock = at + DIGEST_LEASE_MS;
    await worker.runOnce();
    expect(countsFor('digest.daily.2026-05-06')).toEqual(people.map(() => 1));
    clock = at + 2 * DIGEST_LEASE_MS;
    await worker.runOnce();
    await worker.stop();
    expect(countsFor('digest.daily.2026-05-06')).toEqual(people.map(() => 1));
    expect(await store.forWorkspace(ws.id).repos.digests.send(victim!.id, 'daily:2026-05-06')).toEqual({ status: 'sent', attempts: 2 });
  }, 120_000);
});
