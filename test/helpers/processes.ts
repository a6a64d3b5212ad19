/**
 * Real Leadlight processes for tests: `leadlight serve` and CLI commands run
 * from the sources (the run's bundle of them while it is current, else
 * node --import tsx: cli-entry.ts), on free loopback ports, stopped at the
 * end of the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { cliEntry, ROOT } from './cli-entry.js';

export { ROOT };

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Admission control is generous in test processes unless a test sets it, as
 * rate limits are (GENEROUS_LIMITS): on a machine shared by parallel test
 * files a process's loop can lag long enough to shed, or time out the
 * queued requests of, a test about something else. Its behaviour is tested
 * in test/http/admission.test.ts, and measured by `npm run bench:overload`.
 */
const GENEROUS_ADMISSION = {
  MAX_EVENT_LOOP_DELAY_MS: '0',
  MAX_IN_FLIGHT_REQUESTS: '10000',
  MAX_QUEUED_REQUESTS: '10000',
  QUEUE_TIMEOUT_MS: '600000',
};

/**
 * Company enrichment (C6.7) reads companies' websites on the internet: off
 * in test processes unless a test turns it on, with local servers standing
 * in for the websites (test/helpers/websites.ts).
 */
function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, LOG_LEVEL: 'warn', LEADLIGHT_DEMO: '0', ENRICHMENT: 'off', ...GENEROUS_ADMISSION, ...env };
}

export async function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...cliEntry(), 'serve', '--port', String(port), ...args], {
    cwd: ROOT,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCliProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliEntry(), ...args], {
      cwd: ROOT,
      env: baseEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Waits, if needed, until the current rate-limit window has at least `seconds` left. */
export async function awayFromWindowEdge(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
