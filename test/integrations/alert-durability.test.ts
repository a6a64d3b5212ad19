/**
 * Alerts survive a crash and fire once across processes (CONTRACT C10.3):
 * a real server process takes the event that meets an alert while the
 * destination is down, its worker (woken by the commit) tries once and
 * fails, the process is killed with SIGKILL before its next try (it polls
 * once a minute), and the next process delivers the message; two processes
 * on one database taking the same person's page views at once write one
 * firing and send one message.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import { startServerProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { conversion, identify, pageView, postEvents } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

describe.each(storeKinds())('alert delivery across kill -9 and processes on %s (C10.3)', (kind) => {
  let db: TestDatabase;
  let services: Services;
  let receiver: Receiver;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.destroy();
  });

  async function setUp(name: string, base: string, path: string, trigger: Record<string, unknown>) {
    const workspace = await services.workspaces.create(name);
    const key = (await services.apiKeys.create(workspace.id, 'production')).key;
    const siteKey = (await services.siteKeys.create(workspace.id, 'site', [])).key;
    const alert = await fetch(`${base}/api/v1/alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, trigger, destination: { type: 'slack', url: `${receiver.url}${path}` } }),
    });
    expect(alert.status).toBe(201);
    return siteKey;
  }
  const at = (path: string) => receiver.received.filter((entry) => entry.path === path);
  async function waitFor(path: string, count: number, ms: number) {
    const deadline = Date.now() + ms;
    while (at(path).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('C10.3: an alert fired with its event is delivered after the process that took the event was killed', async () => {
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_MS: '50', INTELLIGENCE_WORKER: '0' };
    // the destination is down while the first process lives
    let down = true;
    receiver.respond = (entry) => (down && entry.path === '/crash' ? 503 : 200);
    const first = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '60000' });
    const siteKey = await setUp('Alert durability', first.url, '/crash', { type: 'conversion' });
    const visitor = randomUUID();
    const sent = await postEvents(first.url, siteKey, [identify(visitor, { email: 'kill@example.com', name: 'Kim Ill' }), conversion(visitor, 'survives-kill')]);
    expect(sent.status).toBe(202);
    // its one try recorded (the next is at its poll, a minute away): killed between two tries
    const deadline = Date.now() + 15_000;
    const tried = () => db.database.db.selectFrom('alert_deliveries').select('id').where('attempts', '>=', 1).where('locked_until', 'is', null).execute();
    while ((await tried()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await first.stop('SIGKILL');
    expect(at('/crash')).toHaveLength(1);
    down = false;

    const second = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '50' });
    try {
      await waitFor('/crash', 2, 15_000);
      // and no third copy: the delivery is settled
      await new Promise((resolve) => setTimeout(resolve, 500));
      const received = at('/crash');
      expect(received).toHaveLength(2);
      const body = JSON.parse(received[1]!.body) as { text: string };
      expect(body.text).toContain('Kim Ill');
      expect(body.text).toContain('converted: survives-kill');
    } finally {
      receiver.respond = () => 200;
      await second.stop();
    }
  }, 120_000);

  it('C10.3: two processes taking the same person\'s page views at once fire the alert once and send one message', async () => {
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '50', INTELLIGENCE_WORKER: '0' };
    const [one, two] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      const siteKey = await setUp('Alert concurrency', one.url, '/once', { type: 'page_viewed', path: '/pricing*' });
      const visitor = randomUUID();
      expect((await postEvents(one.url, siteKey, [identify(visitor, { email: 'once@example.com' })])).status).toBe(202);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, index) => postEvents(index % 2 === 0 ? one.url : two.url, siteKey, [pageView(visitor, `/pricing/${index}`)])),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 16 }, () => 202));
      await waitFor('/once', 1, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(at('/once')).toHaveLength(1);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  }, 120_000);
});
