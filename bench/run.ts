/**
 * `npm run bench`: the benchmark harness of issue 4 (method in BENCHMARKS.md).
 * For each store × limiter × scenario it alternates L0 (a replay of one real
 * response on bare node:http) and L2 (the service) over several rounds, the
 * server pinned to core 0 and wrk to core 1, adds L3 (the same queries
 * without HTTP) for GET by id on PostgreSQL and a fixed-rate latency run for
 * the lists, then writes a markdown report and the raw numbers as JSON.
 * The modules with stores of their own (lib/modules.ts: search-export,
 * search, live) run once per store before the scenarios.
 *
 *   npm run bench -- --leads 20000 --leads-b 2000 --identities 1000 --duration 2 --rounds 2
 *   npm run bench -- --scenarios search-export --search-leads 1000000
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { BENCH_DIR, createKey, leadIds, prepareStore, saveState, settleStore, sizesOf, type StoreKind, type StoreState } from './lib/data.js';
import { capture, replayMatches, runFixedRate, runWrk, writeWrkScript, type WrkResult } from './lib/load.js';
import { cpuMicros, startNode, type PinnedProcess } from './lib/processes.js';
import { machine, median, summarize, writeReport, type Limiter, type Round, type RunRecord, type ScenarioResult } from './lib/report.js';
import { benchIngest } from './lib/ingest.js';
import { benchIntegrations } from './lib/integrations.js';
import { benchCompanies } from './lib/companies.js';
import { ALERT_LATENCY, benchAlertLatency } from './lib/alert-latency.js';
import { MODULE_FLAGS, MODULE_IDS, runModules } from './lib/modules.js';
import { benchOverview } from './lib/overview.js';
import { BULK_IMPORT, COMPANIES, INGEST, INTEGRATIONS, OVERVIEW, SCENARIO_IDS, SCENARIOS, type Scenario } from './lib/scenarios.js';

const SERVER_CORE = 0;
const RUN_DIR = path.join(BENCH_DIR, 'run');
const LOG_DIR = path.join(RUN_DIR, 'logs');

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '1000000' },
    'leads-b': { type: 'string', default: '100000' },
    identities: { type: 'string', default: '20000' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    limiters: { type: 'string', default: 'memory,redis' },
    scenarios: { type: 'string', default: [...SCENARIO_IDS, ...MODULE_IDS, ALERT_LATENCY].join(',') },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    reimport: { type: 'boolean', default: false },
    out: { type: 'string' },
    ...MODULE_FLAGS,
  },
});

function list<T extends string>(name: string, raw: string, allowed: readonly T[]): T[] {
  const items = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  const bad = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (bad.length > 0) throw new Error(`--${name}: unknown ${bad.join(', ')} (allowed: ${allowed.join(', ')})`);
  return items as T[];
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer (got "${raw}")`);
  return value;
}

const options = {
  leads: positive('leads', values.leads),
  leadsB: positive('leads-b', values['leads-b']),
  identities: positive('identities', values.identities),
  stores: list<StoreKind>('stores', values.stores, ['sqlite', 'postgres']),
  limiters: list<Limiter>('limiters', values.limiters, ['memory', 'redis']),
  scenarios: list('scenarios', values.scenarios, [...SCENARIO_IDS, ...MODULE_IDS, ALERT_LATENCY]),
  duration: positive('duration', values.duration),
  rounds: positive('rounds', values.rounds),
  connections: positive('connections', values.connections),
  reimport: values.reimport,
  modules: {
    searchLeads: positive('search-leads', values['search-leads']),
    searchIdentities: positive('search-identities', values['search-identities']),
    liveStreams: positive('live-streams', values['live-streams']),
    liveSeconds: positive('live-seconds', values['live-seconds']),
    liveRounds: positive('live-rounds', values['live-rounds']),
  },
  /** extra V8/Node flags for L2 (BENCH_SERVER_NODE_FLAGS), for experiments such as GC sizing */
  serverNodeFlags: (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
};
const started = new Date();
const out = values.out ?? path.join('bench', 'results', `${started.toISOString().slice(0, 10)}-${options.leads}.md`);
const log = (line: string) => process.stdout.write(`${line}\n`);
process.on('SIGINT', () => process.exit(130));

const redisUrl = () => process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Fails unless Redis answers: the service would otherwise fall back to per-process limits silently. */
async function pingRedis(): Promise<void> {
  const redis = new Redis(redisUrl(), { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${redisUrl()} does not answer (${message(error)})`);
  } finally {
    redis.disconnect();
  }
}

/**
 * What L2 logged (LOG_LEVEL=warn): each message once with its count. A
 * message about Redis fails the run, since the redis limiter then silently
 * falls back to per-process counters.
 */
function serverLog(run: RunRecord, tag: string, l2: PinnedProcess): void {
  const counts = new Map<string, number>();
  for (const line of l2.logTail(Number.MAX_SAFE_INTEGER).split('\n')) {
    if (line.trim() === '') continue;
    let text = line;
    try {
      text = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
    } catch {
      // not pino JSON: keep the line as it is
    }
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  for (const [text, count] of counts) {
    const note = `${tag}: L2 logged ${count}× "${text.slice(0, 200)}"`;
    log(note);
    if (/redis/i.test(text)) run.failures.push(note);
    else run.notes.push(note);
  }
}

function serverEnv(url: string, limiter: Limiter): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    LEADLIGHT_DEMO: '0',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PRODUCTION: '1000000000',
    RATE_LIMIT_DEVELOPMENT: '1000000000',
    RATE_LIMIT_UNAUTHENTICATED: '1000000000',
    // saturation is measured on purpose (32 connections): shedding it would end the measurement;
    // the shedding itself is measured by bench/overload.ts
    MAX_EVENT_LOOP_DELAY_MS: '0',
  };
  delete env.REDIS_URL;
  if (limiter === 'redis') env.REDIS_URL = redisUrl();
  return env;
}

/** The total leads of workspace A (from a list's pagination), checking on the way that the stored key works. */
async function leadsOfA(state: StoreState, base: string): Promise<number> {
  const response = await fetch(`${base}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${state.keyA}` } });
  const body = (await response.json()) as { pagination?: { total?: number } };
  if (response.status === 200) return body.pagination?.total ?? Number.NaN;
  if (response.status !== 401) throw new Error(`GET /api/v1/leads answered ${response.status} with the bench key`);
  log(`[${state.store}] the stored keys are not valid any more: creating new ones`);
  state.keyA = await createKey(state.url, state.workspaceA);
  state.keyB = await createKey(state.url, state.workspaceB);
  saveState(state);
  return leadsOfA(state, base);
}

/** CPU µs per request of `pid` over one wrk run. */
async function measured(pid: number, run: () => Promise<WrkResult>): Promise<WrkResult & { cpuMicrosPerRequest: number }> {
  const before = cpuMicros(pid);
  const result = await run();
  return { ...result, cpuMicrosPerRequest: (cpuMicros(pid) - before) / Math.max(1, result.requests) };
}

function checkStatuses(result: ScenarioResult, level: string, wrk: WrkResult): void {
  const expected2xx = result.expect < 300;
  if (expected2xx && wrk.non2xx > 0) {
    result.failures.push(`${level}: ${wrk.non2xx} of ${wrk.requests} responses were not 2xx`);
  } else if (!expected2xx && wrk.non2xx !== wrk.requests) {
    result.failures.push(`${level}: ${wrk.requests - wrk.non2xx} of ${wrk.requests} responses were not ${result.expect}`);
  }
  if (wrk.generatorCpu > 0.9) result.warnings.push(`${level}: wrk used ${Math.round(wrk.generatorCpu * 100)} % of its core`);
  const errors = Object.entries(wrk.socketErrors).filter(([, count]) => count > 0);
  if (errors.length > 0) result.warnings.push(`${level} socket errors: ${errors.map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
}

interface Context {
  store: StoreKind;
  limiter: Limiter;
  state: StoreState;
  ids: string[];
  idsFile: string;
  l2: PinnedProcess;
  base: string;
  l0: PinnedProcess;
  l0Base: string;
  leadsA: number;
}

async function measureScenario(context: Context, scenario: Scenario): Promise<ScenarioResult> {
  const { store, limiter, state, ids, l2, base, l0, l0Base } = context;
  const tag = `[${store}/${limiter}] ${scenario.id}`;
  const result: ScenarioResult = {
    store,
    limiter,
    scenario: scenario.id,
    expect: scenario.expect,
    leadsA: context.leadsA,
    replayExact: false,
    rounds: [],
    failures: [],
    warnings: [],
  };
  const captured = await capture(base, scenario, state.keyA, ids);
  if (captured.status !== scenario.expect) {
    const body = Buffer.from(captured.bodyBase64, 'base64').toString('utf8').slice(0, 200);
    result.failures.push(`the first request answered ${captured.status}, expected ${scenario.expect}: ${body}`);
    log(`${tag}: FAILED, ${result.failures[0]}`);
    return result;
  }
  const closes = captured.rawHeaders.some((value, index) => index % 2 === 1 && value.toLowerCase() === 'close');
  if (closes) result.warnings.push('L2 answered "Connection: close" to a keep-alive request');
  const name = `${store}-${limiter}-${scenario.id}`;
  const captureFile = path.join(RUN_DIR, `${name}.capture.json`);
  const script = path.join(RUN_DIR, `${name}.lua`);
  fs.writeFileSync(captureFile, JSON.stringify(captured));
  writeWrkScript(script, scenario, state.keyA, ids);
  const url = (root: string) => root + (scenario.path.includes('{id}') ? '/' : scenario.path);

  await l0.call({ type: 'load', file: captureFile });
  const withL3 = store === 'postgres' && scenario.id === 'get-lead';
  const l3 = withL3
    ? startNode(`l3-${name}`, SERVER_CORE, 'bench/l3.ts', [state.keyA, context.idsFile], serverEnv(state.url, limiter), LOG_DIR)
    : undefined;
  try {
    await l3?.ready();
    result.replayExact = await replayMatches(l0Base, captured);
    if (!result.replayExact) result.warnings.push("L0's response differs from the captured one");
    // warm-up, not measured
    const warmUp = 1;
    await runWrk(url(l0Base), script, options.connections, warmUp);
    await runWrk(url(base), script, options.connections, warmUp);
    await l3?.call({ type: 'run', seconds: warmUp, concurrency: options.connections });

    for (let index = 1; index <= options.rounds; index += 1) {
      const l0Run = await measured(l0.pid, () => runWrk(url(l0Base), script, options.connections, options.duration));
      checkStatuses(result, `L0 round ${index}`, l0Run);
      await l2.call({ type: 'stats', reset: true });
      const l2Run = await measured(l2.pid, () => runWrk(url(base), script, options.connections, options.duration));
      checkStatuses(result, `L2 round ${index}`, l2Run);
      const stats = await l2.call({ type: 'stats', reset: false, gc: true });
      const round: Round = {
        l0: l0Run,
        l2: {
          ...l2Run,
          eventLoop: stats.eventLoop as Round['l2']['eventLoop'],
          memory: stats.memory as Round['l2']['memory'],
          memoryAfterGc: stats.memoryAfterGc as Round['l2']['memoryAfterGc'],
          peakHeapUsed: stats.peakHeapUsed as number,
        },
        ratio: l2Run.requestsPerSecond / l0Run.requestsPerSecond,
      };
      let l3Text = '';
      if (l3 !== undefined) {
        const answer = await l3.call({ type: 'run', seconds: options.duration, concurrency: options.connections });
        const operations = answer.operations as number;
        const seconds = answer.seconds as number;
        round.l3 = {
          operations,
          errors: answer.errors as number,
          seconds,
          operationsPerSecond: operations / seconds,
          cpuMicrosPerOperation: (answer.cpuMicros as number) / Math.max(1, operations),
        };
        round.l3Ratio = l2Run.requestsPerSecond / round.l3.operationsPerSecond;
        if (round.l3.errors > 0) result.failures.push(`L3 round ${index}: ${round.l3.errors} errors (${String(answer.firstError)})`);
        l3Text = `  L3 ${Math.round(round.l3.operationsPerSecond)}/s  L2/L3 ${round.l3Ratio.toFixed(2)}`;
      }
      result.rounds.push(round);
      log(
        `${tag} r${index}: L0 ${Math.round(l0Run.requestsPerSecond)}/s (wrk ${Math.round(l0Run.generatorCpu * 100)} %)  L2 ${Math.round(l2Run.requestsPerSecond)}/s  ` +
          `L2/L0 ${round.ratio.toFixed(2)}  p99 ${l2Run.p99Ms.toFixed(2)} ms  loop p99 ${round.l2.eventLoop.p99.toFixed(1)} ms${l3Text}`,
      );
    }
    if (scenario.fixedRate) {
      const rate = Math.max(1, Math.round(median(result.rounds.map((round) => round.l2.requestsPerSecond)) / 2));
      await l2.call({ type: 'stats', reset: true });
      result.fixedRate = await runFixedRate(base, scenario, state.keyA, rate, options.connections, options.duration, context.idsFile);
      const fixed = result.fixedRate;
      const loop = (await l2.call({ type: 'stats', reset: false })).eventLoop as { p99: number; max: number };
      fixed.eventLoopP99 = loop.p99;
      fixed.eventLoopMax = loop.max;
      if (fixed.unexpected > 0 || fixed.errors > 0) {
        result.failures.push(`fixed rate: ${fixed.unexpected} responses were not ${scenario.expect}, ${fixed.errors} errors`);
      }
      if (fixed.clientCpu > 0.9) result.warnings.push(`fixed rate: the client used ${Math.round(fixed.clientCpu * 100)} % of its core`);
      if (fixed.achievedRate < 0.95 * rate) result.warnings.push(`fixed rate: achieved ${Math.round(fixed.achievedRate)}/s of ${rate}/s`);
      log(
        `${tag} fixed rate ${rate}/s: achieved ${Math.round(fixed.achievedRate)}/s, ` +
          `p50 ${fixed.p50Ms.toFixed(2)} ms, p99 ${fixed.p99Ms.toFixed(2)} ms, loop p99 ${fixed.eventLoopP99.toFixed(1)} ms, max ${fixed.eventLoopMax.toFixed(1)} ms`,
      );
    }
  } finally {
    await l3?.stop();
  }
  const s = summarize(result);
  const status = result.failures.length > 0 ? `  FAILED: ${result.failures.join('; ')}` : '';
  log(`${tag}: L2/L0 ${s.ratio.toFixed(2)} (${s.ratioMin.toFixed(2)}–${s.ratioMax.toFixed(2)})${status}`);
  return result;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * L2 (and L0) on one store with one limiter, and the given scenarios against
 * them. An error fails that part only.
 */
async function benchLimiter(run: RunRecord, state: StoreState, limiter: Limiter, scenarios: Scenario[], phase: string) {
  const store = state.store;
  const tag = `[${store}/${limiter}]`;
  const { ids, file: idsFile } = await leadIds(state);
  if (limiter === 'redis') await pingRedis();
  const name = `${store}-${limiter}-${phase}`;
  const l2 = startNode(`l2-${name}`, SERVER_CORE, 'bench/server.ts', [], serverEnv(state.url, limiter), LOG_DIR, ['--expose-gc', ...options.serverNodeFlags]);
  const l0 = startNode(`l0-${name}`, SERVER_CORE, 'bench/replay-server.ts', [], process.env, LOG_DIR);
  try {
    const base = await l2.ready();
    const l0Base = await l0.ready();
    const leadsA = await leadsOfA(state, base);
    log(`${tag} L2 pid ${l2.pid} on ${base}, L0 pid ${l0.pid}; workspace A holds ${leadsA} leads`);
    if (phase === 'reads' && leadsA > state.sizes.leads * 1.05) {
      const grown = Math.round((leadsA / state.sizes.leads - 1) * 100);
      const note = `${tag}: workspace A holds ${leadsA} leads, ${grown} % more than generated (post-lead of earlier runs; --reimport starts afresh)`;
      if (!run.notes.includes(note)) run.notes.push(note);
    }
    for (const scenario of scenarios) {
      let result: ScenarioResult;
      try {
        result = await measureScenario({ store, limiter, state, ids, idsFile, l2, base, l0, l0Base, leadsA }, scenario);
      } catch (error) {
        log(`${tag} ${scenario.id}: FAILED, ${message(error)}`);
        result = {
          store,
          limiter,
          scenario: scenario.id,
          expect: scenario.expect,
          leadsA,
          replayExact: false,
          rounds: [],
          failures: [message(error)],
          warnings: [],
        };
      }
      run.results.push(result);
      run.failures.push(...result.failures.map((failure) => `${store}/${limiter}/${scenario.id}: ${failure}`));
    }
  } finally {
    await l0.stop();
    await l2.stop();
    serverLog(run, tag, l2);
  }
}

async function main(): Promise<number> {
  fs.rmSync(RUN_DIR, { recursive: true, force: true });
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const run: RunRecord = {
    started: started.toISOString(),
    finished: '',
    command: ['npm run bench --', ...process.argv.slice(2)].join(' '),
    options,
    machine: machine(),
    imports: [],
    results: [],
    ingest: [],
    failures: [],
    notes: [],
    modules: [],
  };
  const sizes = sizesOf(options.leads, options.leadsB, options.identities);
  const scenarios = SCENARIOS.filter((scenario) => options.scenarios.includes(scenario.id));
  log(`Leadlight bench: ${JSON.stringify(options)}`);

  const withData = options.scenarios.some((id) => id !== INGEST && id !== INTEGRATIONS && id !== COMPANIES && id !== OVERVIEW && id !== ALERT_LATENCY && !MODULE_IDS.includes(id));
  if (options.scenarios.includes(COMPANIES)) run.notes.push(...benchCompanies(log));
  for (const store of options.stores) {
    if (options.scenarios.includes(INGEST)) {
      const result = await benchIngest(store, { ...options, logDir: LOG_DIR }, log);
      run.ingest.push(result);
      run.failures.push(...result.failures.map((failure) => `${store}/ingest: ${failure}`));
    }
    if (options.scenarios.includes(OVERVIEW)) {
      try {
        const result = await benchOverview(store, log);
        run.notes.push(`overview ${store}: ${JSON.stringify(result)}`);
        for (const entry of result.results) if (entry.case.startsWith('90 days') && entry.medianMs > 300) run.failures.push(`${store}/overview: ${entry.case} took ${entry.medianMs} ms (median), over 300 ms`);
      } catch (error) {
        log(`[${store}/overview] FAILED: ${message(error)}`);
        run.failures.push(`${store}/overview: ${message(error)}`);
      }
    }
    if (options.scenarios.includes(INTEGRATIONS)) {
      try {
        const result = await benchIntegrations(store, { leads: options.leads, serverNodeFlags: options.serverNodeFlags, logDir: LOG_DIR }, log);
        run.notes.push(`integrations ${store}: ${JSON.stringify(result)}`);
        run.failures.push(...result.failures.map((failure) => `${store}/integrations: ${failure}`));
      } catch (error) {
        log(`[${store}/integrations] FAILED: ${message(error)}`);
        run.failures.push(`${store}/integrations: ${message(error)}`);
      }
    }
    const modules = await runModules(store, options.scenarios, { ...options.modules, connections: options.connections, serverNodeFlags: options.serverNodeFlags, logDir: LOG_DIR }, log);
    run.modules?.push(...modules.notes);
    run.failures.push(...modules.failures);
    if (options.scenarios.includes(ALERT_LATENCY)) {
      const alerts = await benchAlertLatency(store, log).catch((error: unknown) => ({ note: `alerts ${store}: failed`, failures: [`${store}/alerts: ${message(error)}`] }));
      run.notes.push(alerts.note);
      run.failures.push(...alerts.failures);
    }
    if (!withData) continue;
    let prepared: Awaited<ReturnType<typeof prepareStore>>;
    try {
      prepared = await prepareStore(store, sizes, options.reimport, log);
      await settleStore(prepared.state, log);
    } catch (error) {
      log(`[${store}] FAILED to prepare the store: ${message(error)}`);
      run.failures.push(`${store}: preparing the store: ${message(error)}`);
      continue;
    }
    const { state, reused } = prepared;
    if (options.scenarios.includes(BULK_IMPORT)) run.imports.push({ store, reused, loadedAt: state.loadedAt, imports: state.imports });
    // reads first with every limiter, then writes: post-lead grows workspace A
    const phases: [string, Scenario[]][] = [
      ['reads', scenarios.filter((scenario) => scenario.method === 'GET')],
      ['writes', scenarios.filter((scenario) => scenario.method !== 'GET')],
    ];
    for (const [phase, phaseScenarios] of phases) {
      for (const limiter of phaseScenarios.length === 0 ? [] : options.limiters) {
        try {
          await benchLimiter(run, state, limiter, phaseScenarios, phase);
        } catch (error) {
          log(`[${store}/${limiter}] FAILED: ${message(error)}`);
          run.failures.push(`${store}/${limiter}: ${message(error)}`);
        }
      }
    }
  }

  run.finished = new Date().toISOString();
  const jsonFile = writeReport(run, out);
  log(`report: ${out} (raw numbers: ${jsonFile})`);
  if (run.failures.length > 0) {
    log(`FAILED: ${run.failures.length} failure(s):\n${run.failures.map((failure) => `  ${failure}`).join('\n')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
