/**
 * `leadlight serve [--host H] [--port N] [--workers N]`: runs the API until
 * SIGINT or SIGTERM, then stops taking connections, lets requests in flight
 * finish and closes the store (close-with-grace). With --workers, a primary
 * process migrates the store once and keeps N worker processes (node:cluster)
 * serving on one port, replacing any that dies.
 */
import cluster, { type Worker } from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import { InvalidArgumentError, type Command } from 'commander';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig, type Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { serveClusterMetrics } from '../../observability/cluster-metrics.js';
import { createLogger, displayUrl, prepareStore, printDemo, startServer } from '../../server.js';
import type { CliIo } from '../context.js';

const SHUTDOWN_GRACE_MS = 10_000;
const RESTART_DELAY_MS = 1_000;

function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
}

interface ServeOptions {
  host?: string;
  port?: number;
  workers?: number;
}

function untilSignal(logger: FastifyBaseLogger, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const handlers = closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
      if (err) logger.error({ err }, 'shutting down after an error');
      else logger.info({ signal }, 'shutting down');
      await stop();
      handlers.uninstall();
      resolve();
    });
  });
}

/**
 * A worker stops once, on the first signal: the primary forwards SIGTERM, and
 * a terminal's Ctrl-C reaches the whole process group as well.
 */
function untilWorkerSignal(logger: FastifyBaseLogger, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const handler = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
      stop()
        .catch((err: unknown) => logger.error({ err }, 'shutdown failed'))
        .finally(() => {
          // the channel to the primary would keep this process alive
          process.disconnect?.();
          resolve();
        });
    };
    process.on('SIGTERM', handler);
    process.on('SIGINT', handler);
  });
}

async function serveOne(config: Config, io: CliIo, logger: FastifyBaseLogger): Promise<void> {
  const server = await startServer(config, { output: io.stdout, logger });
  const stop = () => server.close();
  await (cluster.isWorker ? untilWorkerSignal(logger, stop) : untilSignal(logger, stop));
}

async function superviseWorkers(config: Config, io: CliIo, logger: FastifyBaseLogger, count: number): Promise<void> {
  const database = openDatabase(config.database);
  const demo = await prepareStore(config, database).finally(() => database.close());
  if (config.database.kind === 'sqlite' && config.redisUrl === undefined) {
    logger.warn('several workers without REDIS_URL: each worker counts rate limits on its own');
  }
  serveClusterMetrics();
  let stopping = false;
  const fork = (): Worker => cluster.fork({ LEADLIGHT_DEMO: '0' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ worker_pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS);
  });
  cluster.once('listening', (_worker, address) => {
    if (demo !== undefined) {
      const host = address.address === null || address.address === undefined ? config.host : address.address;
      printDemo(io.stdout, demo, displayUrl(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`));
    }
  });
  for (let index = 0; index < count; index += 1) fork();
  await untilSignal(logger, async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  });
}

export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('run the HTTP API')
    .option('--host <host>', 'address to listen on (HOST)')
    .option('--port <port>', 'port to listen on (PORT)', integer(0, 65535))
    .option('--workers <n>', 'worker processes sharing the port (node:cluster)', integer(1, 256))
    .action(async (options: ServeOptions) => {
      const loaded = loadConfig(io.env);
      const config = { ...loaded, host: options.host ?? loaded.host, port: options.port ?? loaded.port };
      const logger = createLogger(config);
      const workers = options.workers ?? 1;
      if (workers > 1 && cluster.isPrimary) await superviseWorkers(config, io, logger, workers);
      else await serveOne(config, io, logger);
    });
}
