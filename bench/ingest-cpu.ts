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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createLiveHub } from '../src/services/live/index.js';
import { createRateLimiter } from '../src/rate-limit/index.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';
import { prepareStore } from '../src/server.js';
import { benchVisitors, visitorBatch } from './lib/visitor-batch.js';

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

const visitors = benchVisitors(Number(values.visitors));
const batch = () => visitorBatch(visitors, siteKey.key, 50).body;

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
