/**
 * L2 of the benchmark: the real service, started exactly as `serve` starts
 * it (configuration from the environment), plus an IPC channel for the
 * orchestrator. Run with `taskset -c 0 node --expose-gc --import tsx bench/server.ts`
 * and an 'ipc' stdio channel.
 *
 *   → {type: 'stats', reset: boolean, gc?: boolean}
 *   ← {type: 'stats', eventLoop: {p50, p99, max} (ms), memory: process.memoryUsage(),
 *      peakHeapUsed (bytes, sampled every 250 ms), memoryAfterGc?}
 *
 * `reset` clears the event-loop histogram and the heap peak after reading
 * them; `gc` also reports the memory after a full collection (needs --expose-gc).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

interface StatsRequest {
  type: 'stats';
  reset: boolean;
  gc?: boolean;
}

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let peakHeapUsed = 0;
setInterval(() => {
  peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed);
}, 250).unref();

const ms = (nanoseconds: number) => nanoseconds / 1e6;

function stats(request: StatsRequest) {
  const memory = process.memoryUsage();
  peakHeapUsed = Math.max(peakHeapUsed, memory.heapUsed);
  const answer: Record<string, unknown> = {
    type: 'stats',
    eventLoop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
    memory,
    peakHeapUsed,
  };
  if (request.gc === true && typeof globalThis.gc === 'function') {
    globalThis.gc();
    answer.memoryAfterGc = process.memoryUsage();
  }
  if (request.reset) {
    histogram.reset();
    peakHeapUsed = 0;
  }
  return answer;
}

const server = await startServer(loadConfig(process.env), { output: process.stdout });

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
}

process.on('message', (message: StatsRequest) => {
  if (message.type === 'stats') process.send?.(stats(message));
});
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
process.send?.({ type: 'ready', url: server.url });
