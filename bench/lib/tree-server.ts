/**
 * The server of one source tree for the tree-against-tree benchmarks
 * (read-path.ts, write-path.ts): `bench/server.ts` of the tree started by
 * `command` (taskset, strace, node and its flags), with a measured server's
 * environment (limits and load shedding off, no demo, warnings only); answers
 * once the server reports its URL over IPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface TreeServer {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

export async function startTreeServer(command: string[], tree: string, databaseUrl: string, readyMs: number): Promise<TreeServer> {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LEADLIGHT_DEMO: '0',
      RATE_LIMIT_PRODUCTION: '1000000000',
      RATE_LIMIT_DEVELOPMENT: '1000000000',
      RATE_LIMIT_UNAUTHENTICATED: '1000000000',
      // saturation is measured on purpose: shedding it (C-overload) would end the measurement
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready answer: ${output}`)), readyMs);
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
  return { url, child, exited };
}
