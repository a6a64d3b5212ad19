/**
 * Child processes of the benchmark: one-shot commands (the CLI, wrk, the
 * fixed-rate client), long-lived pinned servers that talk over an IPC channel
 * (L0, L2, L3), and the CPU time of a process read from /proc/<pid>/stat.
 * Every child is killed when the orchestrator exits.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs a command to completion, collecting its output and its wall time. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

let clockTicksPerSecond: number | undefined;

/** CLK_TCK, the unit of utime and stime in /proc (100 on Linux). */
export function clockTicks(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

/** utime + stime of a process (all its threads), in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name may hold spaces: fields are counted after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clockTicks();
}

export interface IpcMessage {
  type: string;
  [field: string]: unknown;
}

/**
 * A long-lived child pinned to one core with `taskset`, which sends
 * `{type: 'ready', url}` once it listens and answers IPC messages by type.
 * Its stdout and stderr go to a log file.
 */
export class PinnedProcess {
  readonly child: ChildProcess;
  readonly logFile: string;
  #exited = false;

  constructor(name: string, core: number, args: string[], env: NodeJS.ProcessEnv, logDir: string) {
    fs.mkdirSync(logDir, { recursive: true });
    this.logFile = path.join(logDir, `${name}.log`);
    const log = fs.openSync(this.logFile, 'w');
    this.child = spawn('taskset', ['-c', String(core), ...args], { env, stdio: ['ignore', log, log, 'ipc'] });
    fs.closeSync(log);
    children.add(this.child);
    this.child.once('exit', () => {
      this.#exited = true;
      children.delete(this.child);
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('process did not start');
    return this.child.pid;
  }

  /** The last lines of its log, for error messages. */
  logTail(lines = 15): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /**
   * Waits for `{type: 'ready', url}`; fails with the log tail if the process exits first.
   * Three minutes: at a load average of 40 the service alone took 37 to 41 s to start on the million-lead store, and longer beside L0 (issue 24).
   */
  async ready(timeoutMs = 180_000): Promise<string> {
    const message = await this.next('ready', timeoutMs);
    return String(message.url);
  }

  /** Sends a message and waits for the reply of the same type. */
  call(message: IpcMessage, timeoutMs = 120_000): Promise<IpcMessage> {
    const reply = this.next(message.type, timeoutMs);
    this.child.send(message);
    return reply;
  }

  private next(type: string, timeoutMs: number): Promise<IpcMessage> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: IpcMessage) => {
        if (message.type !== type) return;
        cleanup();
        resolve(message);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`process exited (${code}) before answering "${type}":\n${this.logTail()}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no "${type}" answer after ${timeoutMs} ms:\n${this.logTail()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      if (this.#exited) return onExit(this.child.exitCode);
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited after a few seconds. */
  async stop(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** `node --import tsx <script>` pinned to `core`. */
export function startNode(
  name: string,
  core: number,
  script: string,
  scriptArgs: string[],
  env: NodeJS.ProcessEnv,
  logDir: string,
  nodeFlags: string[] = [],
): PinnedProcess {
  return new PinnedProcess(name, core, ['node', ...nodeFlags, '--import', 'tsx', script, ...scriptArgs], env, logDir);
}
