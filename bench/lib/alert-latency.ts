/**
 * Event → alert delivery time (CONTRACT C10.3: within 60 s; issue 22's
 * closing note, BENCHMARKS.md "Alerts: event to delivery"), on a store of
 * its own: one `serve` process (default WEBHOOK_POLL_MS, 1 s) on a fresh
 * SQLite file or PostgreSQL database, background ingest load (batches of 50
 * page views of 10,000 anonymous visitors at `loadBatchesPerSecond`), and
 * every 100 ms a new identified person's /pricing view that meets a Slack
 * alert whose webhook is a local receiver. The time is from sending the
 * event to the receiver getting the message, and from the events
 * endpoint's answer (the firing committed) to the message: medians and p99s,
 * over the alert events the endpoint took (202; the others are counted).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { startServerProcess } from '../../test/helpers/processes.js';
import { identify, pageView, postEvents } from '../../test/helpers/tracking.js';
import { startReceiver } from '../../test/helpers/webhook-receiver.js';
import { adminUrl, BENCH_DIR, type Log, type StoreKind } from './data.js';

/** the scenario's id in `npm run bench -- --scenarios` */
export const ALERT_LATENCY = 'alerts';

export interface AlertLatencyResult {
  store: StoreKind;
  seconds: number;
  loadEventsPerSecond: number;
  alerts: number;
  /** alert events the endpoint answered 202 (the firing committed): the times are theirs */
  taken: number;
  /** alert events with no answer 65 s after the load ended */
  unanswered: number;
  /** alert events the events endpoint did not take (not 202: shed or rate-limited under the load) */
  refused: number;
  /** why: "status error.code: message" (or the fetch's failure) → how many, alert and load events apart */
  refusals: Record<string, number>;
  loadRefusals: Record<string, number>;
  /** the server's warnings and errors: "message: error" → how many (a worker's failed rounds show here) */
  serverWarnings: Record<string, number>;
  /** the alert outbox at the end: "status, attempts, last error" → how many (what the undelivered ones are waiting for) */
  outbox: Record<string, number>;
  delivered: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  fromCommitMedianMs: number;
  fromCommitP99Ms: number;
}

async function freshStore(store: StoreKind): Promise<string> {
  if (store === 'sqlite') {
    fs.mkdirSync(BENCH_DIR, { recursive: true });
    const file = path.resolve(BENCH_DIR, 'alerts.db');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return file;
  }
  const url = new URL(adminUrl());
  url.pathname = '/leadlight_bench_alerts';
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query('DROP DATABASE IF EXISTS leadlight_bench_alerts WITH (FORCE)');
    await client.query('CREATE DATABASE leadlight_bench_alerts');
  } finally {
    await client.end();
  }
  return url.toString();
}

/** a refusal's status, error code and message, as the contract's error shape has them */
function refusalOf(answer: { status: number; body: Record<string, unknown> }): string {
  return `${answer.status} ${String(answer.body.error ?? '')}: ${String(answer.body.message ?? '')}`;
}

/** the server's log lines at warn or above, counted by message and error */
function warningsOf(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) < 40) continue;
      const key = `${entry.msg ?? ''}: ${entry.err?.message ?? ''}`.slice(0, 160);
      counts[key] = (counts[key] ?? 0) + 1;
    } catch {
      // not a log line
    }
  }
  return counts;
}

async function outboxOf(url: string): Promise<Record<string, number>> {
  const database = openDatabase(parseDatabaseUrl(url, 1));
  try {
    const rows = await database.db.selectFrom('alert_deliveries').select(['status', 'attempts', 'last_error', 'locked_until']).execute();
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const key = `${row.status}, ${Number(row.attempts)} attempts${row.locked_until === null ? '' : ', leased'}${row.last_error === null ? '' : `, ${row.last_error}`}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  } finally {
    await database.close();
  }
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

export async function measureAlertLatency(store: StoreKind, seconds = 30, loadBatchesPerSecond = 20, log: Log = () => undefined): Promise<AlertLatencyResult> {
  const url = await freshStore(store);
  const database = openDatabase(parseDatabaseUrl(url, 2));
  await database.migrate();
  const services = createServices(new Store(database));
  const workspace = await services.workspaces.create('Alert latency');
  const apiKey = (await services.apiKeys.create(workspace.id, 'production')).key;
  const siteKey = (await services.siteKeys.create(workspace.id, 'bench', [])).key;
  await database.close();
  const receiver = await startReceiver();
  const arrived = new Map<string, number>();
  receiver.respond = (request) => {
    const match = /latency-([0-9a-f-]{36})@/.exec(request.body);
    if (match !== null) arrived.set(match[1]!, performance.now());
    return 200;
  };
  // the load and the alert events all come from this one address: 30 requests/s would pass the default 600 a minute per address (429s in the idle PostgreSQL run)
  const server = await startServerProcess({ DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_INGEST: '1000000', RATE_LIMIT_INGEST_ADDRESS: '1000000' });
  try {
    const created = await fetch(`${server.url}/api/v1/alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Pricing', trigger: { type: 'page_viewed', path: '/pricing*' }, destination: { type: 'slack', url: `${receiver.url}/slack` } }),
    });
    if (created.status !== 201) throw new Error(`alert: ${created.status}`);
    log(`[${store}/alerts] ${seconds} s of alerts every 100 ms under ${loadBatchesPerSecond * 50} page views/s`);
    const sent = new Map<string, number>();
    /** when the events endpoint answered 202: the event's transaction (and the firing) had committed */
    const answered = new Map<string, number>();
    const refused = new Set<string>();
    const refusals: Record<string, number> = {};
    const loadRefusals: Record<string, number> = {};
    const count = (into: Record<string, number>, reason: string) => (into[reason] = (into[reason] ?? 0) + 1);
    let stop = false;
    let loadEvents = 0;
    const load = (async () => {
      while (!stop) {
        const started = performance.now();
        const batch = Array.from({ length: 50 }, () => pageView(`00000000-0000-4000-8000-${String(Math.floor(Math.random() * 10_000)).padStart(12, '0')}`, '/blog/post'));
        void postEvents(server.url, siteKey, batch).then(
          (answer) => (answer.status === 202 ? (loadEvents += 50) : count(loadRefusals, refusalOf(answer))),
          (error: unknown) => count(loadRefusals, `fetch failed: ${String(error)}`),
        );
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / loadBatchesPerSecond - (performance.now() - started))));
      }
    })();
    const posts: Promise<unknown>[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const person = randomUUID();
      sent.set(person, performance.now());
      posts.push(postEvents(server.url, siteKey, [identify(person, { email: `latency-${person}@example.com` }), pageView(person, '/pricing')]).then(
        (answer) => {
          if (answer.status === 202) return answered.set(person, performance.now());
          refused.add(person);
          count(refusals, refusalOf(answer));
        },
        (error: unknown) => {
          refused.add(person);
          count(refusals, `fetch failed: ${String(error)}`);
        },
      ));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await load;
    const deadline = Date.now() + 65_000;
    // every alert event answered (or 65 s): an event still unanswered is neither taken nor refused
    await Promise.race([Promise.allSettled(posts), new Promise((resolve) => setTimeout(resolve, 65_000))]);
    while ([...answered.keys()].some((person) => !arrived.has(person)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const times = [...answered.keys()].map((person) => (arrived.has(person) ? arrived.get(person)! - sent.get(person)! : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
    const afterCommit = [...answered].map(([person, at]) => (arrived.has(person) ? arrived.get(person)! - at : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
    return {
      store,
      seconds,
      loadEventsPerSecond: Math.round(loadEvents / seconds),
      alerts: sent.size,
      taken: answered.size,
      refused: refused.size,
      unanswered: sent.size - answered.size - refused.size,
      refusals,
      loadRefusals,
      serverWarnings: warningsOf(server.output()),
      outbox: await outboxOf(url),
      delivered: [...answered.keys()].filter((person) => arrived.has(person)).length,
      medianMs: Math.round(quantile(times, 0.5)),
      p99Ms: Math.round(quantile(times, 0.99)),
      maxMs: Math.round(times[times.length - 1]!),
      fromCommitMedianMs: Math.round(quantile(afterCommit, 0.5)),
      fromCommitP99Ms: Math.round(quantile(afterCommit, 0.99)),
    };
  } finally {
    await server.stop();
    await receiver.close();
  }
}

/** The scenario as `npm run bench` runs it: a note for the report, and a failure when an alert was not delivered within 60 s. */
export async function benchAlertLatency(store: StoreKind, log: Log): Promise<{ note: string; failures: string[] }> {
  const result = await measureAlertLatency(store, Number(process.env.BENCH_ALERT_SECONDS ?? 30), Number(process.env.LOAD_BATCHES_PER_S ?? 20), log);
  log(`[${store}/alerts] event → delivery median ${result.medianMs} ms, p99 ${result.p99Ms} ms; from commit median ${result.fromCommitMedianMs} ms, p99 ${result.fromCommitP99Ms} ms`);
  const taken = result.taken;
  const failures = result.delivered < taken || result.maxMs > 60_000 ? [`${store}/alerts: ${taken - result.delivered} of ${taken} alerts taken were not delivered, slowest ${result.maxMs} ms`] : [];
  return { note: `alerts ${store}: ${JSON.stringify(result)}`, failures };
}
