/**
 * The `live` module of `npm run bench` (C9.2; BENCHMARKS.md "Live"): what
 * open Live streams cost ingestion. Laid out as the ingest scenario
 * (lib/ingest.ts), so that the server is what saturates: the real service
 * (bench/server.ts, as `serve` starts it, no Redis) pinned to core 0;
 * bench/ingest-client.ts pinned to core 1 sending batches of 50 events from
 * `connections` connections; the S streams (real HTTP connections of a
 * signed-in member, each reading its events) in bench/live-streams.ts, also
 * pinned to core 1. Rounds alternate D seconds without streams and D seconds
 * with them; each reports accepted events/s and the server's CPU per event
 * accepted (from /proc: the figure the machine's other load moves least),
 * with the load average. Notices are coalesced: at most one per 500 ms per
 * workspace, whatever the rate of visits. Delivery (a visit on every stream
 * within 5 s): while visits flow, the longest gap between two notices on any
 * stream (a visit committed in a gap is told by the notice that ends it);
 * then, once ingestion has been quiet for a second, one visit is posted and
 * the time from its 202 to its notice is taken on every stream. Bounded: S
 * is `--live-streams`, D `--live-seconds`, the rounds `--live-rounds`; the
 * probe waits at most 10 s.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import type { IngestLoadRequest } from '../ingest-client.js';
import type { Log, StoreKind } from './data.js';
import { ingestLoad, USER_AGENT } from './ingest.js';
import { LOAD_CORE } from './load.js';
import { moduleStore } from './module-store.js';
import { cpuMicros, startNode } from './processes.js';

const SERVER_CORE = 0;
const EVENTS_PER_BATCH = 50;
const VISITORS = 10_000;
/** seconds of one visit per 100 ms, with and without the streams */
const TRICKLE_S = 10;

export interface LiveOptions {
  streams: number;
  seconds: number;
  rounds: number;
  connections: number;
  serverNodeFlags: string[];
  logDir: string;
}

interface Run {
  round: number;
  streams: number;
  eventsPerSecond: number;
  serverCpuMicrosPerEvent: number;
  /** the server's CPU over the run's wall time (1 = its whole core) */
  serverCpuShare: number;
  /** the run's wall time, s */
  wall: number;
  clientCpu: number;
  p99Ms: number;
  /** the server's event loop: the longest delay during the run (ms) */
  loopMaxMs: number;
  /** batches not answered 202 (overload's 503 on a starved machine), by status */
  refused: string;
  loadAverage: string;
}

const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Answers the report's lines: events/s and CPU per event without and with the streams, and the notices they received. */
export async function benchLive(kind: StoreKind, options: LiveOptions, log: Log): Promise<string[]> {
  const tag = `[${kind}/live]`;
  const db = await moduleStore(kind);
  const services = createServices(new Store(db.database));
  const workspace = await services.workspaces.create('Live bench');
  const siteKey = (await services.siteKeys.create(workspace.id, 'bench', [])).key;
  const email = `bench.${randomUUID()}@example.com`;
  const invitation = await services.accounts.invite(workspace.id, { email, role: 'viewer' });
  const password = `password-${randomUUID()}`;
  await services.accounts.setPassword(invitation.user_id, password);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    LEADLIGHT_DEMO: '0',
    ENRICHMENT: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_INGEST: '1000000000',
    RATE_LIMIT_INGEST_ADDRESS: '1000000000',
    // saturation is measured on purpose, as in lib/ingest.ts
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // each open stream is a connection: 1,000 of them and the load's would pass the default 1,024 (README, "Live")
    MAX_CONNECTIONS: String(options.streams + 1024),
  };
  delete env.REDIS_URL;
  const server = startNode(`l2-${kind}-live`, SERVER_CORE, 'bench/server.ts', [], env, options.logDir, ['--expose-gc', ...options.serverNodeFlags]);
  const readers = startNode(`live-streams-${kind}`, LOAD_CORE, 'bench/live-streams.ts', [], process.env, options.logDir);
  try {
    const base = await server.ready();
    await readers.ready();
    const signedIn = await fetch(`${base}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    let offset = 0;
    const request = (seconds: number): IngestLoadRequest => {
      offset += VISITORS;
      return {
        url: `${base}/e`,
        key: siteKey,
        userAgent: USER_AGENT,
        mode: 'saturate',
        seconds,
        connections: options.connections,
        visitors: VISITORS,
        eventsPerBatch: EVENTS_PER_BATCH,
        visitorOffset: offset,
      };
    };
    const runs: Run[] = [];
    const measure = async (round: number, streams: number): Promise<Run> => {
      const loadAverageNow = loadAverage();
      await server.call({ type: 'stats', reset: true });
      const before = cpuMicros(server.pid);
      const started = performance.now();
      const result = await ingestLoad(request(options.seconds));
      const used = cpuMicros(server.pid) - before;
      const wall = (performance.now() - started) / 1000;
      const loop = (await server.call({ type: 'stats', reset: false })).eventLoop as { max: number };
      const refused = result.requests - (result.statuses['202'] ?? 0);
      const run: Run = {
        round,
        streams,
        eventsPerSecond: result.eventsPerSecond,
        serverCpuMicrosPerEvent: used / Math.max(1, result.accepted),
        serverCpuShare: used / 1e6 / wall,
        wall,
        clientCpu: result.clientCpu,
        p99Ms: result.p99Ms,
        loopMaxMs: loop.max,
        refused: refused === 0 && result.errors === 0 ? '' : `${JSON.stringify(result.statuses)}, ${result.errors} errors`,
        loadAverage: loadAverageNow,
      };
      runs.push(run);
      log(
        `${tag} r${round} ${streams} streams: ${Math.round(run.eventsPerSecond)} events/s, ${run.serverCpuMicrosPerEvent.toFixed(1)} µs server CPU per event ` +
          `(server ${Math.round(run.serverCpuShare * 100)} % of its core, client ${Math.round(run.clientCpu * 100)} %), p99 ${run.p99Ms.toFixed(0)} ms, server loop max ${run.loopMaxMs.toFixed(0)} ms, load ${run.loadAverage}${run.refused === '' ? '' : `, answers ${run.refused}`}`,
      );
      return run;
    };

    await ingestLoad(request(2));
    let received = 0;
    let maxGap = 0;
    let readerCpu = 0;
    for (let round = 1; round <= options.rounds; round += 1) {
      await measure(round, 0);
      await readers.call({ type: 'open', url: `${base}/dashboard/api/live/stream`, cookie, count: options.streams });
      await readers.call({ type: 'gaps', measuring: true });
      await measure(round, options.streams);
      const gaps = await readers.call({ type: 'gaps', measuring: false });
      received += Number(gaps.received);
      maxGap = Math.max(maxGap, Number(gaps.maxGap));
      readerCpu += Number(gaps.cpuMicros);
      if (round < options.rounds) await readers.call({ type: 'close' });
    }
    const delays = ((await readers.call({ type: 'probe', eventsUrl: `${base}/e`, key: siteKey, userAgent: USER_AGENT })).delays as number[]).map((delay) =>
      delay < 0 ? Number.POSITIVE_INFINITY : delay,
    );
    /**
     * What the fan-out itself costs, apart from the saturated rounds (whose
     * rates move with the machine's other load): one visit every 100 ms for
     * TRICKLE_S, with the streams open and then closed; the server's extra
     * CPU per notice written to a stream.
     */
    const trickle = async () => {
      await readers.call({ type: 'gaps', measuring: true });
      const before = cpuMicros(server.pid);
      const until = performance.now() + TRICKLE_S * 1000;
      while (performance.now() < until) {
        const sent = await fetch(`${base}/e`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
          body: JSON.stringify({ key: siteKey, events: [{ id: randomUUID(), type: 'page', visitor_id: randomUUID(), url: 'https://bench.example.com/trickle' }] }),
        });
        await sent.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const used = cpuMicros(server.pid) - before;
      const gaps = await readers.call({ type: 'gaps', measuring: false });
      return { used, notices: Number(gaps.received), reads: Number(gaps.answered), readsNotOk: Number(gaps.notOk) };
    };
    const trickleWith = await trickle();
    await readers.call({ type: 'reread', url: `${base}/dashboard/api/live`, cookie });
    const trickleReread = await trickle();
    await readers.call({ type: 'reread' });
    await readers.call({ type: 'close' });
    const trickleWithout = await trickle();
    const perNotice = (trickleWith.used - trickleWithout.used) / Math.max(1, trickleWith.notices);
    const perRead = (trickleReread.used - trickleWith.used) / Math.max(1, trickleReread.reads);
    log(
      `${tag} trickle: server CPU ${Math.round(trickleWith.used / 1000)} ms with ${trickleWith.notices} notices written, ` +
        `${Math.round(trickleReread.used / 1000)} ms with ${trickleReread.notices} notices and ${trickleReread.reads} reads of the page (${trickleReread.readsNotOk} not 200), ${Math.round(trickleWithout.used / 1000)} ms without streams`,
    );

    const within5 = delays.filter((delay) => delay <= 5000).length;
    const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'none in 10 s');
    const measured = runs.filter((run) => run.streams > 0).reduce((sum, run) => sum + run.wall, 0);
    const summary = (streams: number) => {
      const mine = runs.filter((run) => run.streams === streams);
      return { events: median(mine.map((run) => run.eventsPerSecond)), cpu: median(mine.map((run) => run.serverCpuMicrosPerEvent)) };
    };
    const none = summary(0);
    const open = summary(options.streams);
    const lines = [
      `### live, ${kind}`,
      '',
      `Server pinned to core ${SERVER_CORE}; the ingest client (batches of ${EVENTS_PER_BATCH}, ${options.connections} connections) and the streams' reader on core ${LOAD_CORE}; ${options.rounds} alternated rounds of ${options.seconds} s.`,
      '',
      '| round | streams open | accepted events/s | server CPU per event | server CPU share | client CPU | p99 | server loop max | load average | not 202 |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
      ...runs.map(
        (run) =>
          `| ${run.round} | ${run.streams} | ${Math.round(run.eventsPerSecond)} | ${run.serverCpuMicrosPerEvent.toFixed(1)} µs | ${Math.round(run.serverCpuShare * 100)} % | ${Math.round(run.clientCpu * 100)} % | ${run.p99Ms.toFixed(0)} ms | ${run.loopMaxMs.toFixed(0)} ms | ${run.loadAverage} | ${run.refused === '' ? 'none' : run.refused} |`,
      ),
      '',
      `Medians: ${Math.round(none.events)} events/s and ${none.cpu.toFixed(1)} µs per event with no stream; ${Math.round(open.events)} events/s (${(((open.events - none.events) / none.events) * 100).toFixed(1)} %) and ${open.cpu.toFixed(1)} µs per event (${(((open.cpu - none.cpu) / none.cpu) * 100).toFixed(1)} %) with ${options.streams}.`,
      '',
      `${options.streams} streams received ${received} notices in ${measured.toFixed(1)} s of load (${(received / Math.max(options.streams, 1) / measured).toFixed(2)} per stream per second; at most 2 by the coalescing; the reader used ${(readerCpu / 1e6 / measured * 100).toFixed(0)} % of core ${LOAD_CORE}); the longest gap between two notices on any stream while visits flowed: ${ms(maxGap)}`,
      '',
      `The fan-out alone (one visit every 100 ms for ${TRICKLE_S} s, streams open then closed): the server used ${(trickleWith.used / 1000).toFixed(0)} ms of CPU with ${trickleWith.notices} notices written to streams, ${(trickleWithout.used / 1000).toFixed(0)} ms without streams: ${perNotice.toFixed(1)} µs per notice written, so ${options.streams} streams at the coalescing's bound of 2 notices per second cost ${((perNotice * 2 * options.streams) / 1e4).toFixed(1)} % of the server's core (load average ${loadAverage()}).`,
      '',
      `The same with each notice followed by the page's read of GET /dashboard/api/live, as the dashboard does: ${(trickleReread.used / 1000).toFixed(0)} ms of CPU for ${trickleReread.notices} notices and ${trickleReread.reads} reads (${trickleReread.readsNotOk} not 200): ${perRead.toFixed(0)} µs per read, so ${options.streams} open pages of a busy site (2 reads per page per second) would need ${((perRead * 2 * options.streams) / 1e4).toFixed(0)} % of the server's core.`,
      '',
      `One visit after a quiet second: its notice reached ${within5} of ${delays.length} streams within 5 s; median ${ms(delays[Math.floor(delays.length / 2)] ?? Number.NaN)}, slowest ${ms(delays[delays.length - 1] ?? Number.NaN)}`,
      '',
    ];
    for (const line of lines) log(`${tag} ${line}`);
    return lines;
  } finally {
    await readers.stop();
    await server.stop();
    await db.destroy();
  }
}
