/**
 * Load generation, pinned to core 1: wrk (saturation throughput and latency,
 * one thread, a Lua script per scenario) and bench/fixed-rate.ts (latency at
 * a fixed rate). Also the capture of one real response of a scenario, which L0
 * replays, and a byte-for-byte check of that replay.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { PacedRequest, PacedResult } from '../fixed-rate.js';
import { clockTicks, runCommand } from './processes.js';
import { firstPath, requestHeaders, type Scenario } from './scenarios.js';

export const LOAD_CORE = 1;

const lua = (text: string) => JSON.stringify(text);

/** A wrk Lua script that sends the scenario's requests, rotating over `ids` when its path has `{id}`. */
export function writeWrkScript(file: string, scenario: Scenario, goodKey: string, ids: readonly string[]): void {
  const lines = [`wrk.method = ${lua(scenario.method)}`];
  for (const [name, value] of Object.entries(requestHeaders(scenario, goodKey))) {
    lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  }
  if (scenario.body !== undefined) lines.push(`wrk.body = ${lua(scenario.body)}`);
  if (scenario.path.includes('{id}')) {
    const [prefix, suffix] = scenario.path.split('{id}') as [string, string];
    lines.push(
      `local ids = {${ids.map(lua).join(',')}}`,
      'local count = #ids',
      'local index = 0',
      'request = function()',
      '  index = index + 1',
      '  if index > count then index = 1 end',
      `  return wrk.format(nil, ${lua(prefix)} .. ids[index] .. ${lua(suffix)})`,
      'end',
    );
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** responses with a status of 400 or more (wrk's "Non-2xx or 3xx responses") */
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  /** CPU time of wrk ÷ wall time: near 1, the load generator (not the server) is the limit */
  generatorCpu: number;
}

const UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function milliseconds(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text ?? '');
  if (match === null) return Number.NaN;
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

export function parseWrk(output: string): Omit<WrkResult, 'generatorCpu'> {
  const requests = /(\d+) requests in /.exec(output);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (requests === null || rate === null) throw new Error(`cannot read wrk output:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: Number(requests[1]),
    requestsPerSecond: Number(rate[1]),
    p50Ms: milliseconds(/^\s+50%\s+(\S+)/m.exec(output)?.[1]),
    p99Ms: milliseconds(/^\s+99%\s+(\S+)/m.exec(output)?.[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: {
      connect: Number(socket?.[1] ?? 0),
      read: Number(socket?.[2] ?? 0),
      write: Number(socket?.[3] ?? 0),
      timeout: Number(socket?.[4] ?? 0),
    },
  };
}

/**
 * Runs wrk in a shell that then prints its own cutime and cstime (fields 16
 * and 17 of /proc/<shell>/stat: the CPU time of wrk, its reaped child).
 */
const WRK_SHELL = 'wrk "$@"; code=$?; echo "wrk-cpu-ticks $(cut -d" " -f16,17 /proc/$$/stat)"; exit $code';

/** `taskset -c 1 wrk -t1 -cC -dDs --latency -s SCRIPT URL`, and the share of its core wrk used. */
export async function runWrk(url: string, script: string, connections: number, seconds: number): Promise<WrkResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', script, url];
  const result = await runCommand('taskset', ['-c', String(LOAD_CORE), 'sh', '-c', WRK_SHELL, 'sh', ...args]);
  if (result.code !== 0) throw new Error(`wrk failed (${result.code}): ${result.stderr || result.stdout}`);
  const ticks = /wrk-cpu-ticks (\d+) (\d+)/.exec(result.stdout);
  const cpuSeconds = ticks === null ? Number.NaN : (Number(ticks[1]) + Number(ticks[2])) / clockTicks();
  return { ...parseWrk(result.stdout), generatorCpu: cpuSeconds / result.seconds };
}

export interface FixedRateResult extends PacedResult {
  targetRate: number;
  /** responses that were not the expected status */
  unexpected: number;
  /** the server's event-loop delay p99 during this run, ms */
  eventLoopP99?: number;
  /** the longest event-loop delay in the server during this run, ms: tells a server stall from one elsewhere */
  eventLoopMax?: number;
}

/**
 * Latency at a fixed rate with bench/fixed-rate.ts (an open model, requests
 * evenly spaced, latency from when each was due). Not autocannon -R: it sends
 * each connection's quota for the second back to back and then waits, which
 * measures saturation latency in bursts.
 */
export async function runFixedRate(
  base: string,
  scenario: Scenario,
  goodKey: string,
  rate: number,
  connections: number,
  seconds: number,
  idsFile: string,
): Promise<FixedRateResult> {
  const request: PacedRequest = {
    url: base + scenario.path,
    idsFile,
    method: scenario.method,
    headers: requestHeaders(scenario, goodKey),
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    rate,
    seconds,
    connections,
  };
  const args = ['-c', String(LOAD_CORE), 'node', '--import', 'tsx', 'bench/fixed-rate.ts', JSON.stringify(request)];
  const result = await runCommand('taskset', args);
  if (result.code !== 0) throw new Error(`bench/fixed-rate.ts failed (${result.code}): ${result.stderr}`);
  const paced = JSON.parse(result.stdout) as PacedResult;
  const expected = paced.statuses[String(scenario.expect)] ?? 0;
  return { ...paced, targetRate: rate, unexpected: paced.completed - expected };
}

/** One response exactly as the server sent it. */
export interface Capture {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  bodyBase64: string;
}

/**
 * Sends the scenario's first request to `base` and keeps the whole response.
 * The request asks for keep-alive, as wrk's do, so the captured headers say
 * `Connection: keep-alive` and L0 keeps its connections open too.
 */
export async function capture(base: string, scenario: Scenario, goodKey: string, ids: readonly string[]): Promise<Capture> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    return await send(agent, base + firstPath(scenario, ids), scenario, goodKey);
  } finally {
    agent.destroy();
  }
}

function send(agent: http.Agent, url: string, scenario: Scenario, goodKey: string): Promise<Capture> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: scenario.method, headers: requestHeaders(scenario, goodKey), agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            statusMessage: response.statusMessage ?? '',
            rawHeaders: response.rawHeaders,
            bodyBase64: Buffer.concat(chunks).toString('base64'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(scenario.body);
  });
}

/** The bytes a server writes for `captured` (status line, headers, body). */
export function captureBytes(captured: Capture): Buffer {
  let head = `HTTP/1.1 ${captured.status} ${captured.statusMessage}\r\n`;
  for (let index = 0; index < captured.rawHeaders.length; index += 2) {
    head += `${captured.rawHeaders[index]}: ${captured.rawHeaders[index + 1]}\r\n`;
  }
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), Buffer.from(captured.bodyBase64, 'base64')]);
}

/** Reads L0's raw answer to one request and checks it equals the captured response byte for byte. */
export function replayMatches(base: string, captured: Capture): Promise<boolean> {
  const expected = captureBytes(captured);
  const { port, hostname } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let length = 0;
    const timer = setTimeout(() => finish(), 5000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).equals(expected));
    };
    socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= expected.length) finish();
    });
    socket.on('error', reject);
  });
}
