/**
 * Reads measured in CPU time rather than throughput (issue 24): on a machine
 * shared with other work, requests per second say more about the neighbours
 * than about the code. For each tree given (two checkouts, alternately), the
 * service started as bench/server.ts starts it on a loaded benchmark store,
 * pinned to core 0, and a closed loop of GETs from this process (pin it to
 * core 1) for each scenario of bench/lib/scenarios.ts's read paths. Per
 * scenario: CPU µs of the server per request (all threads, from
 * /proc/PID/task/∗/schedstat, in nanoseconds), requests per second, and
 * the share of answers that were not the expected status. The store is only
 * read, so it is used in place. `--node-flags` go to the server's node
 * (e.g. "--cpu-prof --cpu-prof-dir=DIR").
 *
 *   taskset -c 1 npx tsx bench/read-path.ts --store .bench/sqlite-1000000.json \
 *     --trees /tmp/base,/work/wt --requests 3000 --connections 8 --rounds 3
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closedLoop } from './lib/closed-loop.js';
import { startTreeServer, type TreeServer } from './lib/tree-server.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: '.bench/sqlite-1000000.json' },
    trees: { type: 'string', default: process.cwd() },
    requests: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    scenarios: { type: 'string', default: 'get,list,list-source,list-offset,bad-key' },
    'node-flags': { type: 'string', default: '' },
  },
});

const state = JSON.parse(fs.readFileSync(values.store, 'utf8')) as { url: string; keyA: string };
const leadIds = JSON.parse(fs.readFileSync(values.store.replace(/\.json$/, '.ids.json'), 'utf8')) as string[];
const requests = Number(values.requests);
const connections = Number(values.connections);
const LEADS = '/api/v1/leads';
const BAD_KEY = `ll_prod_${'x'.repeat(40)}`;

const SCENARIOS: Record<string, { path: (index: number) => string; key: string; expect: number }> = {
  get: { path: (index) => `${LEADS}/${leadIds[index % leadIds.length]}`, key: state.keyA, expect: 200 },
  list: { path: () => LEADS, key: state.keyA, expect: 200 },
  'list-source': { path: () => `${LEADS}?source=referral`, key: state.keyA, expect: 200 },
  'list-offset': { path: () => `${LEADS}?offset=10000`, key: state.keyA, expect: 200 },
  'bad-key': { path: () => LEADS, key: BAD_KEY, expect: 401 },
};

/** CPU time of every thread of `pid`, in seconds (schedstat: nanoseconds on the CPU). */
function cpuSeconds(pid: number): number {
  let total = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return total / 1e9;
}

function startServer(tree: string): Promise<TreeServer> {
  const flags = values['node-flags'].split(' ').filter((flag) => flag !== '');
  return startTreeServer(['taskset', '-c', '0', 'node', ...flags, '--import', 'tsx', 'bench/server.ts'], tree, state.url, 180_000);
}

function load(url: string, scenario: string, count: number): Promise<{ seconds: number; failed: number }> {
  const { path: pathOf, key, expect } = SCENARIOS[scenario]!;
  const headers = { authorization: `Bearer ${key}` };
  return closedLoop(connections, count, async (index) => {
    const response = await fetch(`${url}${pathOf(index)}`, { headers });
    await response.arrayBuffer();
    return response.status === expect;
  });
}

const trees = values.trees.split(',');
const scenarios = values.scenarios.split(',');
const say = (line: string) => process.stdout.write(`${line}\n`);
say(`read-path: ${requests} requests × ${connections} connections, ${values.rounds} rounds, trees ${trees.join(' | ')}`);
for (let round = 1; round <= Number(values.rounds); round += 1) {
  for (const tree of trees) {
    const server = await startServer(tree);
    const pid = server.child.pid!;
    try {
      for (const scenario of scenarios) {
        await load(server.url, scenario, Math.min(requests, 1000)); // warm-up: code compiled, pages cached
        const before = cpuSeconds(pid);
        const { seconds, failed } = await load(server.url, scenario, requests);
        const cpu = cpuSeconds(pid) - before;
        const load1 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
        say(
          `r${round} ${path.basename(tree)} ${scenario}: ${((cpu * 1e6) / requests).toFixed(0)} CPU-µs/req, ${(requests / seconds).toFixed(0)} req/s, load ${load1}${failed > 0 ? `, ${failed} not as expected` : ''}`,
        );
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
}
