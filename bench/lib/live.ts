/**
 * The `live` module of `npm run bench` (C9.2; BENCHMARKS.md "Live"): what
 * open Live streams cost ingestion. A real server process (`serve`, no
 * Redis) on loopback over the store receives batches of 10 page views on
 * POST /e from 8 concurrent clients for D seconds, first with no Live
 * stream open, then with S streams open on the same workspace (each a real
 * HTTP connection reading its events). Reported: accepted events per
 * second, and the notices the streams received (coalesced: at most one per
 * 500 ms per workspace, whatever the rate of visits). Delivery (a visit on
 * every stream within 5 s): while visits flow, the longest gap between two
 * notices on any stream (a visit committed in a gap is told by the notice
 * that ends it); then, once ingestion has been quiet for a second, one
 * visit is posted and the time from its 202 to its notice is taken on
 * every stream. Bounded: S is `--live-streams`, D is `--live-seconds`, the
 * probe waits at most 10 s.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { startServerProcess } from '../../test/helpers/processes.js';
import type { Log, StoreKind } from './data.js';
import { moduleStore } from './module-store.js';

const CLIENTS = 8;
const BATCH = 10;
/** a browser's: the events endpoint ignores bots (C5.3) */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** Answers the report's lines: events per second without and with the streams, and the notices they received. */
export async function benchLive(kind: StoreKind, streamCount: number, seconds: number, log: Log): Promise<string[]> {
  const tag = `[${kind}/live]`;
  const db = await moduleStore(kind);
  const services = createServices(new Store(db.database));
  const workspace = await services.workspaces.create('Live bench');
  const siteKey = (await services.siteKeys.create(workspace.id, 'bench', [])).key;
  const email = `bench.${randomUUID()}@example.com`;
  const invitation = await services.accounts.invite(workspace.id, { email, role: 'viewer' });
  const password = `password-${randomUUID()}`;
  await services.accounts.setPassword(invitation.user_id, password);
  const server = await startServerProcess({ DATABASE_URL: db.url, RATE_LIMIT_INGEST: '100000000', RATE_LIMIT_INGEST_ADDRESS: '100000000' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  try {
    const signedIn = await fetch(`${server.url}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    /** the events the server accepted (not ignored as a bot's, not duplicates) */
    const post = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(`${server.url}/e`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT } }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(response.statusCode === 202 ? Number((JSON.parse(text) as { data: { accepted: number } }).data.accepted) : 0));
        });
        request.on('error', reject);
        request.end(body);
      });

    const ingest = async (duration: number) => {
      const until = Date.now() + duration * 1000;
      let accepted = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (Date.now() < until) {
            const visitor = randomUUID();
            const events = Array.from({ length: BATCH }, (_, index) => ({ id: randomUUID(), type: 'page', visitor_id: visitor, url: `https://bench.example.com/p/${index}` }));
            accepted += await post(JSON.stringify({ key: siteKey, events }));
          }
        }),
      );
      return accepted / duration;
    };

    let notices = 0;
    /** per stream: when its last notice came, and the longest gap between two of its notices while measured */
    const seen: { last: number; maxGap: number }[] = [];
    let measuringGaps = false;
    const open = () =>
      new Promise<http.ClientRequest>((resolve, reject) => {
        const request = http.get(`${server.url}/dashboard/api/live/stream`, { agent: streamAgent, headers: { cookie } }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
          const mine = { last: 0, maxGap: 0 };
          seen.push(mine);
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            const count = chunk.split('event: visits').length - 1;
            if (count === 0) return;
            notices += count;
            const at = performance.now();
            if (measuringGaps && mine.last > 0) mine.maxGap = Math.max(mine.maxGap, at - mine.last);
            mine.last = at;
          });
          resolve(request);
        });
        request.on('error', reject);
      });

    /** one visit after a quiet second: each stream's time from the 202 to the next notice (ms; Infinity when none came in 10 s) */
    const probe = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const visitor = randomUUID();
      const events = [{ id: randomUUID(), type: 'page', visitor_id: visitor, url: 'https://bench.example.com/probe' }];
      if ((await post(JSON.stringify({ key: siteKey, events }))) !== 1) throw new Error('the probe visit was not accepted');
      const answered = performance.now();
      const until = answered + 10_000;
      while (performance.now() < until && seen.some((stream) => stream.last < answered)) await new Promise((resolve) => setTimeout(resolve, 10));
      return seen.map((stream) => (stream.last >= answered ? stream.last - answered : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
    };

    await ingest(2);
    const without = await ingest(seconds);
    streams.push(...(await Promise.all(Array.from({ length: streamCount }, open))));
    const noticesBefore = notices;
    measuringGaps = true;
    const withStreams = await ingest(seconds);
    measuringGaps = false;
    const received = notices - noticesBefore;
    const maxGap = Math.max(...seen.map((stream) => stream.maxGap));
    const delays = await probe();
    const within5 = delays.filter((delay) => delay <= 5000).length;
    const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'none in 10 s');
    const lines = [
      `### live, ${kind}`,
      '',
      '| store | streams open | accepted events/s |',
      '|---|---:|---:|',
      `| ${kind} | 0 | ${Math.round(without)} |`,
      `| ${kind} | ${streamCount} | ${Math.round(withStreams)} |`,
      '',
      `${streamCount} streams received ${received} notices in ${seconds} s (${(received / Math.max(streamCount, 1) / seconds).toFixed(2)} per stream per second; at most 2 by the coalescing); the longest gap between two notices on any stream while visits flowed: ${ms(maxGap)}`,
      '',
      `One visit after a quiet second: its notice reached ${within5} of ${delays.length} streams within 5 s; median ${ms(delays[Math.floor(delays.length / 2)] ?? Number.NaN)}, slowest ${ms(delays[delays.length - 1] ?? Number.NaN)}`,
      '',
    ];
    for (const line of lines) log(`${tag} ${line}`);
    return lines;
  } finally {
    for (const stream of streams) stream.destroy();
    agent.destroy();
    streamAgent.destroy();
    await server.stop();
    await db.destroy();
  }
}
