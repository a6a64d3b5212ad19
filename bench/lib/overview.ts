/**
 * The `overview` scenario of `npm run bench` (CONTRACT C9.5): the overview
 * of 90 days on a workspace of 10 million events, each store on an empty
 * database of its own. Sending 10 million events through the ingest would
 * take hours here, so the counters are written as the ingest would leave
 * them (its repositories' own upserts: traffic_counts, page_counts,
 * lead_counts, and the identities it creates): 10,000,000 page views over
 * 90 days, 2.5 per session, 0.8 visitors per session, spread with a Zipf
 * law over PAGES pages a day and the referrers, campaigns, countries,
 * devices and browsers below, on 3 sites; 1 identity and 0.25 leads per 100
 * sessions. Then the overview the page asks for (the traffic endpoint's
 * service: one request), every site and one site, and its statements one
 * by one, timed in process (no HTTP): 3 warm-up runs, then the median and
 * worst of 15, with this process's CPU time (all of SQLite's work) and, on
 * PostgreSQL, its backends' (from /proc). Each day's counters go to its
 * week's rows too (migration 0021), as the ingest's upsert writes them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import type { NewIdentity } from '../../src/repositories/tenant/identities.repository.js';
import { PendingCounts } from '../../src/repositories/tenant/lead-counts.repository.js';
import { PendingPageViews } from '../../src/repositories/tenant/page-counts.repository.js';
import { PendingTraffic } from '../../src/repositories/tenant/traffic-counts.repository.js';
import { createServices } from '../../src/services/index.js';
import { lastDays } from '../../src/services/tenant/traffic-overview.service.js';
import { createEmptyDatabase } from '../../test/helpers/stores.js';

export const OVERVIEW_EVENTS = 10_000_000;
const DAYS = 90;
const PAGES = Number(process.env.BENCH_OVERVIEW_PAGES ?? 500);
const SITES = ['www.example.com', 'docs.example.com', 'blog.example.com'];
const SIZES = { referrer: 300, campaign: 40, country: 120, device: 4, browser: 12 } as const;
const RUNS = 15;
const WARM_UP = 3;

/** `n` weights following Zipf's law (s = 1), summing to 1 */
function zipf(n: number): number[] {
  const raw = Array.from({ length: n }, (_, index) => 1 / (index + 1));
  const sum = raw.reduce((total, value) => total + value, 0);
  return raw.map((value) => value / sum);
}

/** Splits `total` by the weights into whole numbers that still sum to `total`. */
function split(total: number, weights: readonly number[]): number[] {
  const parts = weights.map((weight) => Math.floor(total * weight));
  let rest = total - parts.reduce((sum, value) => sum + value, 0);
  for (let index = 0; rest > 0; index = (index + 1) % parts.length, rest -= 1) parts[index]! += 1;
  return parts;
}

export interface OverviewBench {
  store: string;
  /** rows written: of days, and of weeks (migration 0021) */
  rows: { traffic: number; pages: number; trafficWeeks: number; pageWeeks: number };
  fillSeconds: number;
  results: { case: string; medianMs: number; worstMs: number; cpuMs: number; serverCpuMs?: number }[];
}

/** clock ticks per second of /proc's CPU times (Linux's USER_HZ) */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (ms) PostgreSQL's backends of this benchmark's database have
 * used, from /proc (the server runs on this machine: loopback only); every
 * backend connected to the database is the benchmark's, its database being
 * its own. Parallel workers end with their query and are not counted.
 */
async function serverCpuMs(database: ReturnType<typeof openDatabase>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(database.db);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime: fields 14 and 15 of the line, 12 and 13 after the command
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a backend that ended meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export async function benchOverview(kind: 'sqlite' | 'postgres', log: (line: string) => void): Promise<OverviewBench> {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  try {
    await database.migrate();
    const store = new Store(database);
    const services = createServices(store, { tracking: { geoipDatabase: 'off' } });
    const workspace = await services.workspaces.create('overview bench');
    const scope = store.forWorkspace(workspace.id);
    const started = performance.now();
    const perDay = split(OVERVIEW_EVENTS, Array.from({ length: DAYS }, () => 1 / DAYS));
    const siteShare = [0.7, 0.2, 0.1];
    const pageWeights = zipf(PAGES);
    let trafficRows = 0;
    let pageRows = 0;
    const weekRows = { traffic: new Set<string>(), pages: new Set<string>() };
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    for (let index = 0; index < DAYS; index += 1) {
      const day = new Date(today - index * 86_400_000).toISOString().slice(0, 10);
      const traffic = new PendingTraffic();
      const pages = new PendingPageViews();
      const leads = new PendingCounts();
      const identities: NewIdentity[] = [];
      split(perDay[index]!, siteShare).forEach((views, site) => {
        const host = SITES[site]!;
        const sessions = Math.round(views / 2.5);
        const bounces = Math.round(sessions * 0.45);
        const duration = sessions * 95_000;
        const visitors = Math.round(sessions * 0.8);
        traffic.add('', day, host, '', { page_views: views, sessions, bounces, duration_ms: duration, visitors, all_sites_visitors: Math.round(visitors * 0.95) });
        for (const [dimension, size] of Object.entries(SIZES)) {
          const shares = split(sessions, zipf(size));
          shares.forEach((count, value) => {
            if (count > 0) traffic.add(dimension, day, host, `${dimension}-${value}`, { sessions: count, bounces: Math.round(count * 0.45), duration_ms: count * 95_000 });
          });
        }
        const pageViews = split(views, pageWeights);
        pageViews.forEach((count, page) => {
          for (let view = 0; view < count; view += 1) pages.add(day, host, `/page/${page}`);
        });
        for (let lead = 0; lead < Math.round(sessions / 400); lead += 1) leads.add([{ source: lead % 3 === 0 ? 'campaign' : 'website', created_at: `${day}T12:00:00.000Z` }]);
        for (let person = 0; person < Math.round(sessions / 100); person += 1) {
          identities.push({
            id: randomUUID(),
            visitor_id: randomUUID(),
            email: `p${index}-${site}-${person}@example.com`,
            name: null,
            traits: {},
            first_seen: `${day}T12:00:00.000Z`,
            last_seen: `${day}T12:00:00.000Z`,
            ip: null,
            city: null,
            country: null,
            is_favorite: false,
            created_at: `${day}T12:00:00.000Z`,
          });
        }
        pageRows += pageViews.filter((count) => count > 0).length;
      });
      for (const row of pages.rows()) if (row.day !== day) weekRows.pages.add(`${row.day} ${row.host} ${row.path}`);
      for (const row of traffic.rows()) {
        if (row.day === day) trafficRows += 1;
        else weekRows.traffic.add(`${row.dimension} ${row.day} ${row.host} ${row.value}`);
      }
      await scope.transaction(async (repos) => {
        await repos.trafficCounts.add(traffic);
        await repos.pageCounts.add(pages);
        await repos.leadCounts.add(leads);
        await repos.identities.insertMany(identities);
      });
    }
    const fillSeconds = (performance.now() - started) / 1000;
    log(
      `[${kind}] overview: ${trafficRows} traffic rows and ${weekRows.traffic.size} of weeks, ${pageRows} page rows and ${weekRows.pages.size} of weeks, written in ${fillSeconds.toFixed(1)} s`,
    );
    if (kind === 'postgres') {
      for (const table of ['traffic_counts', 'page_counts', 'lead_counts', 'identities']) await database.db.executeQuery({ sql: `analyze ${table}`, parameters: [], query: { kind: 'RawNode' } } as never);
    }
    const tenant = services.forWorkspace(workspace.id);
    const range = lastDays(DAYS);
    const repos = scope.repos;
    const previous = lastDays(2 * DAYS);
    const cases: [string, () => Promise<unknown>][] = [
      ['90 days, every site', () => tenant.traffic.traffic(range)],
      ['90 days, one site', () => tenant.traffic.traffic(range, SITES[0])],
      ['30 days, every site', () => tenant.traffic.traffic(lastDays(30))],
      // its statements one by one (90 days, every site)
      ['  totals per day (180 days)', () => repos.trafficCounts.days(previous.from, range.to, undefined)],
      ['  top pages', () => repos.pageCounts.top(range.from, range.to, 10)],
      ['  top referrers', () => repos.trafficCounts.top('referrer', range.from, range.to, undefined, 10)],
      ['  top countries', () => repos.trafficCounts.top('country', range.from, range.to, undefined, 10)],
      ['  sites', () => repos.trafficCounts.sites(100)],
      ['  leads per day (180 days)', () => repos.leadCounts.range(previous.from, range.to)],
      ['  identities per day (180 days)', () => repos.identities.countByDay(previous.from)],
    ];
    const results: OverviewBench['results'] = [];
    for (const [name, run] of cases) {
      const times: number[] = [];
      const cpu: number[] = [];
      let server = 0;
      for (let round = 0; round < WARM_UP + RUNS; round += 1) {
        if (round === WARM_UP && kind === 'postgres') server = await serverCpuMs(database);
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await run();
        const used = process.cpuUsage(c0);
        if (round >= WARM_UP) {
          times.push(performance.now() - t0);
          cpu.push((used.user + used.system) / 1000);
        }
      }
      // PostgreSQL's CPU: the mean over the measured runs (/proc counts in hundredths of a second)
      const serverCpu = kind === 'postgres' ? ((await serverCpuMs(database)) - server) / RUNS : undefined;
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const result = {
        case: name.trim(),
        medianMs: Number(times[Math.floor(RUNS / 2)]!.toFixed(1)),
        worstMs: Number(times.at(-1)!.toFixed(1)),
        // this process's CPU (SQLite runs in it; PostgreSQL's work is in its server)
        cpuMs: Number(cpu[Math.floor(RUNS / 2)]!.toFixed(1)),
        ...(serverCpu === undefined ? {} : { serverCpuMs: Number(serverCpu.toFixed(1)) }),
      };
      const onServer = serverCpu === undefined ? '' : `, PostgreSQL's CPU ${result.serverCpuMs} ms (mean)`;
      log(
        `[${kind}] overview, ${name}: median ${result.medianMs} ms, worst ${result.worstMs} ms, this process's CPU ${result.cpuMs} ms${onServer} (load average ${loadavg()[0]!.toFixed(1)})`,
      );
      results.push(result);
    }
    return { store: kind, rows: { traffic: trafficRows, pages: pageRows, trafficWeeks: weekRows.traffic.size, pageWeeks: weekRows.pages.size }, fillSeconds, results };
  } finally {
    await database.close();
    await empty.drop();
  }
}
