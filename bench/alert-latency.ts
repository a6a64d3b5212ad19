/**
 * Event → alert delivery time on one store, alone (bench/lib/alert-latency.ts
 * says what it measures; `npm run bench` runs it on both stores as the
 * `alerts` scenario). Prints the result as JSON.
 * `LOAD_BATCHES_PER_S=20 npx tsx bench/alert-latency.ts [sqlite|postgres] [seconds]`.
 */
import { measureAlertLatency } from './lib/alert-latency.js';

const store = process.argv.includes('postgres') ? 'postgres' : 'sqlite';
const seconds = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 30);
const result = await measureAlertLatency(store, seconds, Number(process.env.LOAD_BATCHES_PER_S ?? 20), (line) => process.stderr.write(`${line}\n`));
process.stdout.write(`${JSON.stringify(result)}\n`);
