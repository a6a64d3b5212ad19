/**
 * Metrics of the Node.js process itself (prom-client's default metrics:
 * event-loop delay, memory, CPU, garbage collection, handles). They describe
 * the process, not one application in it, so they live in one registry per
 * process, made on first use, and every application's /metrics adds them to
 * its own. Collecting them once also keeps several applications in one
 * process (tests) from each starting an event-loop monitor.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

export function processRegistry(): Registry {
  if (registry === undefined) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
