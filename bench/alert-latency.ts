/**
 * Event → alert delivery time (CONTRACT C10.3: within 60 s), measured: one
 * `serve` process (default WEBHOOK_POLL_MS, 1 s) on a fresh SQLite file, background ingest
 * load (batches of 50 page views of 10,000 anonymous visitors at
 * LOAD_BATCHES_PER_S), and every 100 ms a new identified person's /pricing
 * view that meets a Slack alert whose webhook is a local receiver. The time
 * is from sending the event to the receiver getting the message, and from
 * the events endpoint's answer (the firing committed) to the message. Prints
 * medians and p99s. `LOAD_BATCHES_PER_S=20 npx tsx bench/alert-latency.ts [seconds]`.
 */
import { randomUUID } from 'node:crypto';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';
import { startServerProcess } from '../test/helpers/processes.js';
import { createTestDatabase } from '../test/helpers/stores.js';
import { identify, pageView, postEvents } from '../test/helpers/tracking.js';
import { startReceiver } from '../test/helpers/webhook-receiver.js';

const LOAD_BATCHES_PER_S = Number(process.env.LOAD_BATCHES_PER_S ?? 20);
const kind = 'sqlite';
const seconds = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 30);

const db = await createTestDatabase(kind);
const services = createServices(new Store(db.database));
const workspace = await services.workspaces.create('Alert latency');
const apiKey = (await services.apiKeys.create(workspace.id, 'production')).key;
const siteKey = (await services.siteKeys.create(workspace.id, 'bench', [])).key;
const receiver = await startReceiver();
const arrived = new Map<string, number>();
receiver.respond = (request) => {
  const match = /latency-([0-9a-f-]{36})@/.exec(request.body);
  if (match !== null) arrived.set(match[1]!, performance.now());
  return 200;
};
const server = await startServerProcess({ DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: '1' });
try {
  const created = await fetch(`${server.url}/api/v1/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Pricing', trigger: { type: 'page_viewed', path: '/pricing*' }, destination: { type: 'slack', url: `${receiver.url}/slack` } }),
  });
  if (created.status !== 201) throw new Error(`alert: ${created.status}`);
  const sent = new Map<string, number>();
  /** when the events endpoint answered 202: the event's transaction (and the firing) had committed */
  const answered = new Map<string, number>();
  let stop = false;
  let loadEvents = 0;
  const load = (async () => {
    while (!stop) {
      const started = performance.now();
      const batch = Array.from({ length: 50 }, () => pageView(`00000000-0000-4000-8000-${String(Math.floor(Math.random() * 10_000)).padStart(12, '0')}`, '/blog/post'));
      void postEvents(server.url, siteKey, batch).then(() => (loadEvents += 50));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / LOAD_BATCHES_PER_S - (performance.now() - started))));
    }
  })();
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const person = randomUUID();
    sent.set(person, performance.now());
    void postEvents(server.url, siteKey, [identify(person, { email: `latency-${person}@example.com` }), pageView(person, '/pricing')]).then(() =>
      answered.set(person, performance.now()),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop = true;
  await load;
  const deadline = Date.now() + 65_000;
  while (arrived.size < sent.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const times = [...sent].map(([person, at]) => (arrived.has(person) ? arrived.get(person)! - at : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
  const afterCommit = [...answered].map(([person, at]) => (arrived.has(person) ? arrived.get(person)! - at : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
  const quantile = (list: number[], q: number) => list[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)]!;
  const pick = (q: number) => quantile(times, q);
  process.stdout.write(
    `${JSON.stringify({
      store: kind,
      seconds,
      loadEventsPerSecond: Math.round(loadEvents / seconds),
      alerts: sent.size,
      delivered: arrived.size,
      medianMs: Math.round(pick(0.5)),
      p99Ms: Math.round(pick(0.99)),
      maxMs: Math.round(times[times.length - 1]!),
      fromCommitMedianMs: Math.round(quantile(afterCommit, 0.5)),
      fromCommitP99Ms: Math.round(quantile(afterCommit, 0.99)),
    })}\n`,
  );
} finally {
  await server.stop();
  await receiver.close();
  await db.destroy();
}
