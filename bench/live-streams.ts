/**
 * The Live streams of the `live` bench module (bench/lib/live.ts), in a
 * process of their own pinned to the load core, so that reading 1,000
 * streams takes nothing from the server's core and nothing from the
 * orchestrator's timers. Driven over IPC; each answer has its request's type:
 *
 *   → {type: 'open', url, cookie, count}   ← {type: 'open', opened}
 *   → {type: 'gaps', measuring: true}      ← {type: 'gaps'} (counting from now)
 *   → {type: 'gaps', measuring: false}     ← {type: 'gaps', received, maxGap, cpuMicros, answered, notOk}
 *   → {type: 'probe', eventsUrl, key, userAgent}
 *                                          ← {type: 'probe', delays} (ms from the 202 to each stream's notice, sorted; -1: none in 10 s)
 *   → {type: 'reread', url?, cookie?}    ← {type: 'reread'} (with a url: each notice is followed by a GET of it, as the page does; without: no more, answered once those in flight are done)
 *   → {type: 'close'}                      ← {type: 'close'}
 *
 * The probe waits for a quiet second, posts one page view and times its
 * notice on every stream.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';

interface Stream {
  request: http.ClientRequest;
  /** when its last notice came (performance.now()) */
  last: number;
  /** the longest gap between two of its notices while measured */
  maxGap: number;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
/** the pages' reads of GET /dashboard/api/live after a notice, as the dashboard does (components/live-stream.ts) */
const readAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let reread: { url: string; cookie: string } | undefined;
const reads = { answered: 0, notOk: 0 };
let pendingReads = 0;

function readAgain(): void {
  if (reread === undefined) return;
  pendingReads += 1;
  const request = http.get(reread.url, { agent: readAgent, headers: { cookie: reread.cookie } }, (response) => {
    if (response.statusCode === 200) reads.answered += 1;
    else reads.notOk += 1;
    response.resume();
    response.on('end', () => (pendingReads -= 1));
  });
  request.on('error', () => {
    reads.notOk += 1;
    pendingReads -= 1;
  });
}
let streams: Stream[] = [];
let received = 0;
let measuring = false;
let cpuAtStart = process.cpuUsage();

function open(url: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { cookie } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`stream answered ${response.statusCode}`));
      }
      const stream: Stream = { request, last: 0, maxGap: 0 };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const count = chunk.split('event: visits').length - 1;
        if (count === 0) return;
        const at = performance.now();
        if (measuring) {
          received += count;
          if (stream.last > 0) stream.maxGap = Math.max(stream.maxGap, at - stream.last);
        }
        stream.last = at;
        readAgain();
      });
      resolve(stream);
    });
    request.on('error', reject);
  });
}

/** streams opened at once */
const OPENING = 8;

/** a 503 (the server shedding while it is saturated by the ingest load) is tried again, as a browser's EventSource would */
async function openRetrying(url: string, cookie: string): Promise<Stream> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await open(url, cookie);
    } catch (error) {
      if (attempt >= 20 || !(error instanceof Error) || !error.message.endsWith('503')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function postOne(eventsUrl: string, key: string, userAgent: string): Promise<number> {
  const body = JSON.stringify({ key, events: [{ id: randomUUID(), type: 'page', visitor_id: randomUUID(), url: 'https://bench.example.com/probe' }] });
  return new Promise((resolve, reject) => {
    const request = http.request(eventsUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(response.statusCode === 202 ? Number((JSON.parse(text) as { data: { accepted: number } }).data.accepted) : 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function probe(eventsUrl: string, key: string, userAgent: string): Promise<number[]> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if ((await postOne(eventsUrl, key, userAgent)) !== 1) throw new Error('the probe visit was not accepted');
  const answered = performance.now();
  const until = answered + 10_000;
  while (performance.now() < until && streams.some((stream) => stream.last < answered)) await new Promise((resolve) => setTimeout(resolve, 10));
  return streams.map((stream) => (stream.last >= answered ? stream.last - answered : -1)).sort((a, b) => (a < 0 ? 1 : b < 0 ? -1 : a - b));
}

interface Message {
  type: string;
  [field: string]: unknown;
}

async function answer(message: Message): Promise<Message> {
  switch (message.type) {
    case 'open': {
      const url = String(message.url);
      const cookie = String(message.cookie);
      // a few at a time, as pages open: a thousand at once from one address would overflow its share of the admission queue
      let left = Number(message.count);
      await Promise.all(
        Array.from({ length: OPENING }, async () => {
          while (left > 0) {
            left -= 1;
            streams.push(await openRetrying(url, cookie));
          }
        }),
      );
      return { type: 'open', opened: streams.length };
    }
    case 'reread':
      reread = message.url === undefined ? undefined : { url: String(message.url), cookie: String(message.cookie) };
      // turned off: answered once the reads still in flight are done (at most 60 s)
      for (const until = performance.now() + 60_000; reread === undefined && pendingReads > 0 && performance.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return { type: 'reread' };
    case 'gaps':
      if (message.measuring === true) {
        received = 0;
        reads.answered = 0;
        reads.notOk = 0;
        // a gap counts from the first notice of the measure: the load's own start is not the server's gap
        for (const stream of streams) {
          stream.maxGap = 0;
          stream.last = 0;
        }
        cpuAtStart = process.cpuUsage();
        measuring = true;
        return { type: 'gaps' };
      } else {
        measuring = false;
        const cpu = process.cpuUsage(cpuAtStart);
        return { type: 'gaps', received, maxGap: Math.max(0, ...streams.map((stream) => stream.maxGap)), cpuMicros: cpu.user + cpu.system, ...reads };
      }
    case 'probe':
      return { type: 'probe', delays: await probe(String(message.eventsUrl), String(message.key), String(message.userAgent)) };
    case 'close':
      for (const stream of streams) stream.request.destroy();
      streams = [];
      return { type: 'close' };
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

process.on('message', (message: Message) => {
  answer(message).then(
    (reply) => process.send?.(reply),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: '' });
