/**
 * `npm run bench:lighthouse`: Lighthouse's performance figures for the
 * dashboard's overview (CONTRACT C9.9: at least 0.9 on desktop), measured the
 * way BENCHMARKS.md describes. The service runs as `serve` does, in its own
 * process, on a fresh SQLite file filled by `seed --demo` (the overview's
 * JSON does not depend on the store: it comes from per-day counters); the
 * script signs in as an admin and hands the session cookie to Lighthouse,
 * which drives Debian's chromium with the network closed. Each form factor is
 * run `--runs` times (Lighthouse's default simulated throttling); the median
 * run by score is reported, with every run's figures in the JSON.
 *
 *   npm run bench:lighthouse -- --runs 3 [--form-factors desktop] [--out bench/results/lighthouse.json] [--lhr .bench/lighthouse]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    page: { type: 'string', default: '/' },
    'form-factors': { type: 'string', default: 'desktop,mobile' },
    /** a directory to write each run's full Lighthouse report (JSON) to */
    lhr: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer (got "${values.runs}")`);
const formFactors = values['form-factors'].split(',').filter((item): item is 'desktop' | 'mobile' => item === 'desktop' || item === 'mobile');
if (formFactors.length === 0) throw new Error('--form-factors: desktop, mobile or both');

interface RunFigures {
  score: number;
  tbtMs: number;
  cls: number;
  lcpMs: number;
  fcpMs: number;
  speedIndexMs: number;
  /** bytes of JavaScript Lighthouse found unused on the page */
  unusedJsBytes: number;
  /** the scripts the page loaded, with their transfer sizes */
  scripts: { url: string; transferBytes: number }[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A workspace filled with demo data and an admin with a password, in a new SQLite file. */
async function prepare(file: string): Promise<{ email: string; password: string }> {
  const database = openDatabase({ kind: 'sqlite', filename: file });
  try {
    await database.migrate();
    const services = createServices(new Store(database));
    const workspace = await services.workspaces.create('Lighthouse');
    await services.seed.seedDemo(workspace.id);
    const email = 'lighthouse@example.com';
    const password = 'lighthouse-bench-password';
    const invitation = await services.accounts.invite(workspace.id, { email, role: 'admin' });
    await services.accounts.setPassword(invitation.user_id, password);
    return { email, password };
  } finally {
    await database.close();
  }
}

async function waitForHealth(base: string, child: { exitCode: number | null }): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the service did not answer /healthz within 30 s');
}

async function signIn(base: string, person: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${base}/dashboard/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

function figures(lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']): RunFigures {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return {
    score: lhr.categories.performance?.score ?? Number.NaN,
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    fcpMs: Math.round(audit('first-contentful-paint')),
    speedIndexMs: Math.round(audit('speed-index')),
    unusedJsBytes: unused?.overallSavingsBytes ?? 0,
    scripts: requests
      .filter((request) => request.resourceType === 'Script')
      .map((request) => ({ url: new URL(request.url).pathname, transferBytes: request.transferSize ?? 0 })),
  };
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-lighthouse-'));
const person = await prepare(path.join(directory, 'lighthouse.db'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const service = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts'), 'serve'], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: path.join(directory, 'lighthouse.db'), PORT: String(port), HOST: '127.0.0.1', LEADLIGHT_DEMO: '0', LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0', MAX_EVENT_LOOP_UTILIZATION: '0' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
const results: Record<'desktop' | 'mobile', RunFigures[]> = { desktop: [], mobile: [] };
try {
  await waitForHealth(base, service);
  const cookie = await signIn(base, person);
  for (const formFactor of formFactors) {
    for (let run = 0; run < runs; run++) {
      const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: { Cookie: cookie } };
      const result = await lighthouse(`${base}${values.page}`, flags, formFactor === 'desktop' ? desktopConfig : undefined);
      if (result === undefined) throw new Error('Lighthouse returned no result');
      const errors = result.lhr.runtimeError ?? result.lhr.runWarnings.find((warning) => /did not load|redirect/i.test(warning));
      if (errors !== undefined) throw new Error(`Lighthouse: ${JSON.stringify(errors)}`);
      if (!result.lhr.finalDisplayedUrl.endsWith(values.page)) throw new Error(`the page redirected to ${result.lhr.finalDisplayedUrl} (not signed in?)`);
      results[formFactor].push(figures(result.lhr));
      if (values.lhr !== undefined) {
        fs.mkdirSync(values.lhr, { recursive: true });
        fs.writeFileSync(path.join(values.lhr, `${formFactor}-${run + 1}.json`), JSON.stringify(result.lhr));
      }
    }
  }
} finally {
  await chrome.kill();
  service.kill('SIGTERM');
  await new Promise((resolve) => service.once('exit', resolve));
  fs.rmSync(directory, { recursive: true, force: true });
}

/** Each built chunk's size, raw and as the build's Brotli and gzip copies (dashboard/precompress.ts) are served. */
function bundleSizes(): { file: string; raw: number; gzip: number; brotli: number }[] {
  const assets = path.join(ROOT, 'dist', 'dashboard', 'assets');
  const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : Number.NaN);
  return fs
    .readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => ({ file: name, raw: size(path.join(assets, name)), gzip: size(path.join(assets, `${name}.gz`)), brotli: size(path.join(assets, `${name}.br`)) }))
    .sort((a, b) => b.raw - a.raw);
}

const median = (items: RunFigures[]) => [...items].sort((a, b) => a.score - b.score)[Math.floor(items.length / 2)] as RunFigures;
const report = {
  date: new Date().toISOString(),
  page: values.page,
  lighthouse: (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }).version,
  chromium: CHROMIUM,
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`,
  runs,
  median: Object.fromEntries(formFactors.map((formFactor) => [formFactor, median(results[formFactor])])) as Partial<Record<'desktop' | 'mobile', RunFigures>>,
  all: results,
  bundle: bundleSizes(),
};
const log = (line: string) => process.stdout.write(`${line}\n`);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
for (const chunk of report.bundle) log(`${chunk.file.padEnd(40)} ${kib(chunk.raw).padStart(7)} KiB raw ${kib(chunk.gzip).padStart(6)} gzip ${kib(chunk.brotli).padStart(6)} brotli`);
for (const formFactor of formFactors) {
  const m = report.median[formFactor] as RunFigures;
  log(
    `${formFactor.padEnd(8)} score ${m.score.toFixed(2)}  TBT ${m.tbtMs} ms  CLS ${m.cls}  LCP ${m.lcpMs} ms  FCP ${m.fcpMs} ms  SI ${m.speedIndexMs} ms  unused JS ${(m.unusedJsBytes / 1024).toFixed(0)} KiB` +
      `  (scores of ${runs} runs: ${results[formFactor].map((r) => r.score.toFixed(2)).join(', ')})`,
  );
  log(`         scripts: ${m.scripts.map((s) => `${s.url} ${(s.transferBytes / 1024).toFixed(1)} KiB`).join(', ')}`);
}
if (values.out !== undefined) {
  fs.writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`written to ${values.out}`);
}
