/**
 * Writes measured in CPU time rather than throughput (issue 24): on a
 * machine shared with other work, requests per second say more about the
 * neighbours than about the code. For each tree given (the same script can
 * run the service of two checkouts, alternately), a fresh copy of a loaded
 * benchmark store, the service started as bench/server.ts starts it, pinned
 * to core 0, and a closed loop of POSTs then PATCHes from this process
 * (pin it to core 1). Per scenario: CPU µs of the server per request (all
 * threads, /proc; and the event loop's part of it),
 * requests per second, and the server's event-loop delay.
 * With --strace, the server runs under `strace -f` and the report counts the
 * fdatasync/fsync calls made on the event loop's thread and on others, and
 * the time the event loop spent in them, and the bytes written with pwrite64
 * (SQLite's writes to the log) per request: counts that the machine's other
 * load does not change, where CPU time does. `--node-flags` are given to the
 * server's node (e.g. "--cpu-prof --cpu-prof-dir=DIR" for a profile per run).
 *
 *   taskset -c 1 npx tsx bench/write-path.ts --store .bench/sqlite-20000.json \
 *     --trees /tmp/base,/work/wt --requests 4000 --connections 32 --rounds 3 [--strace]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closedLoop } from './lib/closed-loop.js';
import { startTreeServer, type TreeServer } from './lib/tree-server.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: '.bench/sqlite-20000.json' },
    trees: { type: 'string', default: process.cwd() },
    requests: { type: 'string', default: '4000' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    strace: { type: 'boolean', default: false },
    scenarios: { type: 'string', default: 'post,patch' },
    'node-flags': { type: 'string', default: '' },
  },
});

const state = JSON.parse(fs.readFileSync(values.store, 'utf8')) as { url: string; keyA: string };
const ids = (JSON.parse(fs.readFileSync(values.store.replace(/\.json$/, '.ids.json'), 'utf8')) as { ids?: string[] } | string[]);
const leadIds = Array.isArray(ids) ? ids : (ids.ids ?? []);
const requests = Number(values.requests);
const connections = Number(values.connections);
const ticks = 100; // CLK_TCK on Linux

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/**
 * CPU seconds of the server's event loop (the thread whose id is the
 * process's) and of its other threads together: libuv's pool (the log's
 * fdatasync), SQLite's checkpointer (a worker thread), V8's helpers (Node 20
 * names them all "node", so they are not told apart). A thread that ended
 * during the run is not counted.
 */
function threadSeconds(pid: number): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const kind = tid === String(pid) ? 'event loop' : 'other threads';
    byKind.set(kind, (byKind.get(kind) ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticks);
  }
  return byKind;
}

function threadShares(before: Map<string, number>, after: Map<string, number>, count: number): string {
  const parts: string[] = [];
  for (const [kind, seconds] of after) parts.push(`${kind} ${(((seconds - (before.get(kind) ?? 0)) * 1e6) / count).toFixed(0)}`);
  return parts.join(', ');
}

interface Server extends TreeServer {
  /** the node process (under strace, strace's child) */
  pid: number;
  stats(): Promise<{ eventLoop: { p99: number; max: number } }>;
}

async function startServer(tree: string, db: string, straceFile: string | undefined): Promise<Server> {
  const flags = values['node-flags'].split(' ').filter((flag) => flag !== '');
  const node = ['node', ...flags, '--import', 'tsx', 'bench/server.ts'];
  const command = ['taskset', '-c', '0', ...(straceFile === undefined ? [] : ['strace', '-f', '--seccomp-bpf', '-T', '-e', 'trace=fdatasync,fsync,pwrite64', '-o', straceFile]), ...node];
  const { url, child, exited } = await startTreeServer(command, tree, db, 120_000);
  const pid = straceFile === undefined ? child.pid! : nodePid(child.pid!);
  const stats = () =>
    new Promise<{ eventLoop: { p99: number; max: number } }>((resolve) => {
      const listen = (message: { type: string }) => {
        if (message.type !== 'stats') return;
        child.off('message', listen);
        resolve(message as unknown as { eventLoop: { p99: number; max: number } });
      };
      child.on('message', listen);
      child.send({ type: 'stats', reset: true });
    });
  return { url, child, exited, pid, stats };
}

/** the node process under strace (its only child, or a child of taskset's exec'd strace) */
function nodePid(stracePid: number): number {
  const children = fs.readFileSync(`/proc/${stracePid}/task/${stracePid}/children`, 'utf8').trim().split(/\s+/).map(Number);
  return children[0]!;
}

function load(url: string, scenario: string): Promise<{ seconds: number; failed: number }> {
  const headers = { authorization: `Bearer ${state.keyA}`, 'content-type': 'application/json' };
  return closedLoop(connections, requests, async (index) => {
    const response =
      scenario === 'post'
        ? await fetch(`${url}/api/v1/leads`, { method: 'POST', headers, body: '{"code":"bench","source":"website","properties":{"a":1}}' })
        : await fetch(`${url}/api/v1/leads/${leadIds[index % leadIds.length]}`, { method: 'PATCH', headers, body: '{"properties":{"bench":true}}' });
    await response.arrayBuffer();
    return response.status < 300;
  });
}

function syncCalls(file: string, mainPid: number): { main: number; mainMs: number; others: number; written: number; writes: number } {
  let main = 0;
  let mainMs = 0;
  let others = 0;
  let written = 0;
  let writes = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    // a call another thread interrupted is written as "<unfinished ...>", then "<... pwrite64 resumed>" with its result
    const write = /^\d+\s+(?:pwrite64\(|<\.\.\. pwrite64 resumed>).* = (\d+) <[\d.]+>$/.exec(line);
    if (write !== null) {
      writes += 1;
      written += Number(write[1]);
      continue;
    }
    const match = /^(\d+)\s+(?:f(?:data)?sync\(|<\.\.\. f(?:data)?sync resumed>).*<([\d.]+)>$/.exec(line);
    if (match === null) continue;
    if (Number(match[1]) === mainPid) {
      main += 1;
      mainMs += Number(match[2]) * 1000;
    } else others += 1;
  }
  return { main, mainMs, others, written, writes };
}

const trees = values.trees.split(',');
const scenarios = values.scenarios.split(',');
const say = (line: string) => process.stdout.write(`${line}\n`);
say(`write-path: ${requests} requests × ${connections} connections, ${values.rounds} rounds, trees ${trees.join(' | ')}${values.strace ? ', under strace' : ''}`);
for (let round = 1; round <= Number(values.rounds); round += 1) {
  for (const tree of trees) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-path-'));
    const db = path.join(dir, 'store.db');
    fs.copyFileSync(state.url, db);
    const straceFile = values.strace ? path.join(dir, 'strace.txt') : undefined;
    const server = await startServer(tree, db, straceFile);
    try {
      await load(server.url, 'post'); // warm-up: code paths compiled, caches filled
      for (const scenario of scenarios) {
        if (straceFile !== undefined) fs.truncateSync(straceFile);
        await server.stats();
        const before = cpuSeconds(server.pid);
        const threadsBefore = threadSeconds(server.pid);
        const { seconds, failed } = await load(server.url, scenario);
        const cpu = cpuSeconds(server.pid) - before;
        const threads = threadShares(threadsBefore, threadSeconds(server.pid), requests);
        const { eventLoop } = await server.stats();
        const syncs = straceFile === undefined ? '' : (() => {
          const calls = syncCalls(straceFile, server.pid);
          return `, syncs on the event loop ${calls.main} (${calls.mainMs.toFixed(0)} ms), on other threads ${calls.others}; ${(calls.writes / requests).toFixed(1)} pwrite64 and ${(calls.written / requests / 1024).toFixed(1)} KiB written per request`;
        })();
        say(
          `r${round} ${path.basename(tree)} ${scenario}: ${(requests / seconds).toFixed(0)} req/s, ${((cpu * 1e6) / requests).toFixed(0)} CPU-µs/req (${threads}), event loop p99 ${eventLoop.p99.toFixed(1)} ms max ${eventLoop.max.toFixed(1)} ms${failed > 0 ? `, ${failed} not 2xx` : ''}${syncs}`,
        );
      }
    } finally {
      process.kill(server.pid, 'SIGTERM');
      await server.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
