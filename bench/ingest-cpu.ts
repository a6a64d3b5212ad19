/**
 * The CPU an ingested event costs, without the network and the load
 * generator's noise (issue 24): the service as `serve` builds it over a fresh
 * SQLite file, batches of 50 events of one visitor each (as
 * bench/ingest-client.ts makes them, made before the clock starts) sent
 * through Fastify's inject with `--concurrency` in flight, so the group
 * commit groups them as under load. Prints the process CPU (all threads:
 * the WAL's syncs and the checkpointer included) per event accepted.
 *
 *   taskset -c 0 node --import tsx bench/ingest-cpu.ts --batches 2000 --rounds 3
 *
 * The figures in BENCHMARKS.md ("Performance, round three", Ingest) come from
 * it, before/after pairs alternated; `--cpu-prof` gives the profile.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { v7 } from 'uuid';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createLiveHub } from '../src/services/live/index.js';
import { createRateLimiter } from '../src/rate-limit/index.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';
import { prepareStore } from '../src/server.js';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '32' },
    visitors: { type: 'string', default: '10000' },
  },
});
const BATCHES = Number(values.batches);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const PATHS = ['/', '/pricing', '/features', '/docs/getting-started', '/docs/api', '/blog/lead-scoring-101', '/customers', '/careers'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-cpu-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: path.join(dir, 'ingest.db'),
  LOG_LEVEL: 'warn',
  LEADLIGHT_DEMO: '0',
  RATE_LIMIT_INGEST: '1000000000',
  RATE_LIMIT_INGEST_ADDRESS: '1000000000',
  MAX_EVENT_LOOP_DELAY_MS: '0',
  QUEUE_TIMEOUT_MS: '600000',
};
delete env.REDIS_URL;
const config = loadConfig(env);
const database = openDatabase(config.database, { backgroundCheckpoints: true });
await prepareStore(config, database);
const services = createServices(new Store(database), {
  tracking: config.tracking,
  webhooks: config.webhooks,
  intelligence: config.intelligence,
  enrichment: config.enrichment,
  alerts: config.alerts,
});
const workspace = await services.workspaces.create('Ingest CPU');
const siteKey = await services.siteKeys.create(workspace.id);
const live = createLiveHub(undefined, () => undefined);
const app = await buildApp({ config, database, ...(process.env.BENCH_LOG === '1' ? { logger: (await import('pino')).pino() } : {}), limiter: await createRateLimiter(undefined), live });

const visitors = Array.from({ length: Number(values.visitors) }, (_, index) => ({ id: randomUUID(), number: index, batches: 0, identified: false, last: 0 }));

function batch(): string {
  const visitor = visitors[Math.floor(Math.random() * visitors.length)]!;
  const start = Math.max(Date.now() - 1000, visitor.last + 1);
  const identifyAt = !visitor.identified && visitor.batches > 0 && Math.random() < 0.35 ? 25 : -1;
  const convertAt = Math.random() < 0.125 ? 40 : -1;
  const events: object[] = [];
  for (let index = 0; index < 50; index += 1) {
    const ts = new Date(start + index * 20).toISOString();
    const url = `https://www.bench.example${PATHS[(visitor.batches + index) % PATHS.length]}`;
    if (index === identifyAt) {
      events.push({ id: v7(), type: 'identify', visitor_id: visitor.id, ts, url, traits: { email: `visitor-${visitor.number}@bench.example`, name: `Visitor ${visitor.number}`, plan: 'trial' } });
    } else if (index === convertAt) {
      events.push({ id: v7(), type: 'conversion', visitor_id: visitor.id, ts, url, name: 'Started a trial', code: 'trial', properties: { seats: 3 } });
    } else {
      events.push({ id: v7(), type: 'page', visitor_id: visitor.id, ts, url, title: 'Bench page', ...(index === 0 ? { referrer: 'https://news.example/' } : {}) });
    }
  }
  visitor.last = start + 50 * 20;
  visitor.batches += 1;
  if (identifyAt >= 0) visitor.identified = true;
  return JSON.stringify({ key: siteKey.key, events });
}

async function round(count: number): Promise<{ events: number; cpuMicros: number; seconds: number }> {
  const bodies = Array.from({ length: count }, batch);
  let next = 0;
  let events = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const payload = bodies[next++]!;
      const response = await app.inject({ method: 'POST', url: '/e', payload, headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': USER_AGENT } });
      if (response.statusCode !== 202) throw new Error(`${response.statusCode} ${response.body}`);
      events += (JSON.parse(response.body) as { data: { accepted: number } }).data.accepted;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { events, cpuMicros: used.user + used.system, seconds: (performance.now() - started) / 1000 };
}

await round(Math.min(200, BATCHES));
for (let index = 1; index <= ROUNDS; index += 1) {
  const result = await round(BATCHES);
  process.stdout.write(
    `round ${index}: ${result.events} events, ${(result.cpuMicros / result.events).toFixed(1)} CPU-µs per event, ` +
      `${Math.round(result.events / result.seconds)} events/s (load average ${os.loadavg()[0]!.toFixed(1)})\n`,
  );
}
await app.close();
await live.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
