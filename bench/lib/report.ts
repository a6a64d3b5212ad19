/**
 * The results of a run: the raw numbers (written as JSON) and the markdown
 * report with one table per store and limiter, bulk import, L2/L3,
 * redis/memory and the machine. Every summary figure is a median over the
 * rounds unless its column says otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportTiming, StoreKind } from './data.js';
import { ingestMarkdown, type IngestResult } from './ingest.js';
import type { FixedRateResult, WrkResult } from './load.js';
import { SCENARIO_IDS } from './scenarios.js';

export type Limiter = 'memory' | 'redis';

export interface MemorySample {
  heapUsed: number;
  rss: number;
}

export interface L2Sample extends WrkResult {
  cpuMicrosPerRequest: number;
  eventLoop: { p50: number; p99: number; max: number };
  memory: MemorySample;
  memoryAfterGc?: MemorySample;
  peakHeapUsed: number;
}

export interface L0Sample extends WrkResult {
  cpuMicrosPerRequest: number;
}

export interface L3Sample {
  operations: number;
  errors: number;
  seconds: number;
  operationsPerSecond: number;
  cpuMicrosPerOperation: number;
}

export interface Round {
  l0: L0Sample;
  l2: L2Sample;
  ratio: number;
  l3?: L3Sample;
  /** L2 requests/s ÷ L3 operations/s */
  l3Ratio?: number;
}

export interface ScenarioResult {
  store: StoreKind;
  limiter: Limiter;
  scenario: string;
  expect: number;
  /** leads of workspace A when this L2 started (posted leads of earlier runs included) */
  leadsA: number;
  replayExact: boolean;
  rounds: Round[];
  fixedRate?: FixedRateResult;
  failures: string[];
  /** socket errors and other things worth knowing that do not fail the run */
  warnings: string[];
}

export interface ImportRecord {
  store: StoreKind;
  reused: boolean;
  loadedAt: string;
  imports: ImportTiming[];
}

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  wrk: string;
  kernel: string;
  commit: string;
}

export interface RunRecord {
  started: string;
  finished: string;
  command: string;
  options: Record<string, unknown>;
  machine: Machine;
  imports: ImportRecord[];
  results: ScenarioResult[];
  /** the ingest scenario (events endpoint), per store */
  ingest: IngestResult[];
  failures: string[];
  /** what the servers logged, and other remarks that do not fail the run */
  notes: string[];
  /** the markdown the modules with their own stores wrote (lib/modules.ts) */
  modules?: string[];
}

export function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const MB = 1024 * 1024;

export function summarize(result: ScenarioResult) {
  const rounds = result.rounds;
  const of = (pick: (round: Round) => number) => rounds.map(pick);
  const ratios = of((round) => round.ratio);
  const heapAfter = rounds.map((round) => (round.l2.memoryAfterGc ?? round.l2.memory).heapUsed);
  const l3Ratios = rounds.flatMap((round) => (round.l3Ratio === undefined ? [] : [round.l3Ratio]));
  return {
    l2: median(of((round) => round.l2.requestsPerSecond)),
    l0: median(of((round) => round.l0.requestsPerSecond)),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    cpuL2: median(of((round) => round.l2.cpuMicrosPerRequest)),
    cpuL0: median(of((round) => round.l0.cpuMicrosPerRequest)),
    p50: median(of((round) => round.l2.p50Ms)),
    p99: median(of((round) => round.l2.p99Ms)),
    eventLoopP99: median(of((round) => round.l2.eventLoop.p99)),
    maxHeapMb: Math.max(...of((round) => Math.max(round.l2.peakHeapUsed, round.l2.memory.heapUsed))) / MB,
    maxRssMb: Math.max(...of((round) => round.l2.memory.rss)) / MB,
    heapGrowthMb: ((heapAfter[heapAfter.length - 1] ?? 0) - (heapAfter[0] ?? 0)) / MB,
    l3: median(rounds.flatMap((round) => (round.l3 === undefined ? [] : [round.l3.operationsPerSecond]))),
    cpuL3: median(rounds.flatMap((round) => (round.l3 === undefined ? [] : [round.l3.cpuMicrosPerOperation]))),
    l3Ratio: median(l3Ratios),
    l3RatioMin: Math.min(...l3Ratios),
    l3RatioMax: Math.max(...l3Ratios),
  };
}

function safe(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    // wrk -v exits 1 after printing its version
    const output = (error as { stdout?: string }).stdout ?? '';
    return output.trim() || 'unknown';
  }
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    wrk: (safe('wrk', ['-v']).split('\n')[0] ?? 'unknown').replace(/\s*Copyright.*$/, ''),
    kernel: `${os.type()} ${os.release()}`,
    commit: safe('git', ['rev-parse', '--short', 'HEAD']) + (safe('git', ['status', '--porcelain', 'src']) === '' ? '' : ' (src modified)'),
  };
}

const int = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function scenarioTable(results: ScenarioResult[]): string[] {
  const lines = [
    '| scenario | L2 req/s | L0 req/s | L2/L0 median (min–max) | CPU µs/req L2 / L0 | p50 / p99 ms | p99 ms at half load | event-loop p99 ms, saturated / half load | max heap MB | heap growth MB |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const result of results) {
    const name = result.failures.length > 0 ? `${result.scenario} **FAILED**` : result.scenario;
    if (result.rounds.length === 0) {
      lines.push(`| ${name} | | | | | | | | | |`);
      continue;
    }
    const s = summarize(result);
    const rate = result.fixedRate;
    const fixedRate = rate === undefined ? '–' : `${fixed(rate.p99Ms, 1)} @ ${int(rate.targetRate)}/s`;
    lines.push(
      `| ${name} | ${int(s.l2)} | ${int(s.l0)} | ${fixed(s.ratio)} (${fixed(s.ratioMin)}–${fixed(s.ratioMax)}) | ` +
        `${int(s.cpuL2)} / ${int(s.cpuL0)} | ${fixed(s.p50)} / ${fixed(s.p99)} | ${fixedRate} | ` +
        `${fixed(s.eventLoopP99)} / ${rate?.eventLoopP99 === undefined ? '–' : fixed(rate.eventLoopP99)} | ${fixed(s.maxHeapMb, 0)} | ${fixed(s.heapGrowthMb, 1)} |`,
    );
  }
  return lines;
}

function importTable(imports: ImportRecord[]): string[] {
  const lines = [
    '| store | workspace | resource | rows | seconds | rows/s | rows/s net of start-up | loaded |',
    '|---|---|---|--:|--:|--:|--:|---|',
  ];
  for (const record of imports) {
    const when = record.reused ? `reused, loaded ${record.loadedAt}` : 'this run';
    for (const step of record.imports) {
      lines.push(
        `| ${STORE_NAME[record.store]} | ${step.workspace} | ${step.resource} | ${int(step.rows)} | ` +
          `${fixed(step.seconds)} | ${int(step.rowsPerSecond)} | ${int(step.netRowsPerSecond)} | ${when} |`,
      );
    }
  }
  return lines;
}

function l3Table(results: ScenarioResult[]): string[] {
  const rows = results.filter((result) => result.rounds.some((round) => round.l3 !== undefined));
  if (rows.length === 0) return [];
  const lines = [
    '| store | limiter | scenario | L2 req/s | L3 op/s | L2/L3 median (min–max) | CPU µs L2 /req, L3 /op |',
    '|---|---|---|--:|--:|--:|--:|',
  ];
  for (const result of rows) {
    const s = summarize(result);
    lines.push(
      `| ${STORE_NAME[result.store]} | ${result.limiter} | ${result.scenario} | ${int(s.l2)} | ${int(s.l3)} | ` +
        `${fixed(s.l3Ratio)} (${fixed(s.l3RatioMin)}–${fixed(s.l3RatioMax)}) | ${int(s.cpuL2)}, ${int(s.cpuL3)} |`,
    );
  }
  return lines;
}

function redisTable(results: ScenarioResult[]): string[] {
  const lines = [
    '| store | scenario | memory L2 req/s | redis L2 req/s | redis/memory | same, each over its L0 |',
    '|---|---|--:|--:|--:|--:|',
  ];
  for (const redis of results.filter((result) => result.limiter === 'redis')) {
    if (!['get-lead', 'list-default'].includes(redis.scenario)) continue;
    const memory = results.find(
      (result) => result.limiter === 'memory' && result.store === redis.store && result.scenario === redis.scenario,
    );
    if (memory === undefined || memory.rounds.length === 0 || redis.rounds.length === 0) continue;
    const r = summarize(redis);
    const m = summarize(memory);
    lines.push(
      `| ${STORE_NAME[redis.store]} | ${redis.scenario} | ${int(m.l2)} | ${int(r.l2)} | ${fixed(r.l2 / m.l2)} | ${fixed(r.ratio / m.ratio)} |`,
    );
  }
  return lines.length > 2 ? lines : [];
}

export function markdown(run: RunRecord): string {
  const out = [`# Leadlight benchmark, ${run.started.slice(0, 10)}`, '', `\`${run.command}\``, ''];
  const groups = new Map<string, ScenarioResult[]>();
  for (const result of run.results) {
    const key = `${STORE_NAME[result.store]}, ${result.limiter} limiter`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const order = (result: ScenarioResult) => SCENARIO_IDS.indexOf(result.scenario);
  for (const [title, results] of groups) {
    const leads = Math.min(...results.map((result) => result.leadsA));
    out.push(`## ${title}`, '', `Workspace A held ${int(leads)} leads when these measurements started.`, '');
    out.push(...scenarioTable(results.sort((a, b) => order(a) - order(b))), '');
  }
  if (run.ingest.length > 0) out.push(ingestMarkdown(run.ingest));
  if (run.imports.length > 0) out.push('## Bulk import (through the CLI, wall time of each command)', '', ...importTable(run.imports), '');
  const l3 = l3Table(run.results);
  if (l3.length > 0) out.push('## PostgreSQL: L2 against L3 (the same queries without HTTP)', '', ...l3, '');
  const redis = redisTable(run.results);
  if (redis.length > 0) out.push('## Rate limiter: redis against memory (same store)', '', ...redis, '');
  const notReplayed = run.results.filter((result) => !result.replayExact && result.rounds.length > 0);
  if (notReplayed.length > 0) {
    out.push(`L0 did not replay L2's response byte for byte in: ${notReplayed.map((r) => `${r.store}/${r.limiter}/${r.scenario}`).join(', ')}.`, '');
  }
  if (run.modules !== undefined && run.modules.length > 0) out.push('## Modules', '', ...run.modules, '');
  out.push('## Failures', '', ...(run.failures.length === 0 ? ['none'] : run.failures.map((failure) => `- ${failure}`)), '');
  const warnings = [
    ...run.results.flatMap((result) => result.warnings.map((w) => `- ${result.store}/${result.limiter}/${result.scenario}: ${w}`)),
    ...run.notes.map((note) => `- ${note}`),
  ];
  if (warnings.length > 0) out.push('## Warnings', '', ...warnings, '');
  const m = run.machine;
  out.push(
    '## Machine',
    '',
    `- CPU: ${m.cpu}, ${m.cores} cores (server on core 0, load generator on core 1)`,
    `- ${m.kernel}, Node ${m.node}, ${m.wrk}`,
    `- commit ${m.commit}`,
    `- started ${run.started}, finished ${run.finished}`,
    `- options: \`${JSON.stringify(run.options)}\``,
    '',
  );
  return out.join('\n');
}

export function writeReport(run: RunRecord, markdownFile: string): string {
  fs.mkdirSync(path.dirname(markdownFile), { recursive: true });
  fs.writeFileSync(markdownFile, markdown(run));
  const jsonFile = markdownFile.replace(/\.md$/, '') + '.json';
  fs.writeFileSync(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
  return jsonFile;
}
