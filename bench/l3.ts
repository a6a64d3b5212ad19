/**
 * L3 of the benchmark (PostgreSQL): what GET /api/v1/leads/{id} asks of the
 * store, with no HTTP. Each operation looks the key up by its hash
 * (ApiKeysService.authenticate) and reads one lead (LeadsService.get),
 * through the same services, Kysely and pg pool as the service
 * (DATABASE_URL, DATABASE_POOL_SIZE).
 *
 *   taskset -c 0 node --import tsx bench/l3.ts KEY IDS.json
 *
 * Over IPC: {type: 'run', seconds, concurrency} runs that many async loops
 * for that long and answers {type: 'run', operations, errors, seconds,
 * cpuMicros, firstError?}.
 */
import fs from 'node:fs';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';

interface RunRequest {
  type: 'run';
  seconds: number;
  concurrency: number;
}

const [secretArg, idsFile] = process.argv.slice(2);
if (secretArg === undefined || idsFile === undefined) throw new Error('usage: l3.ts KEY IDS.json');
const secret: string = secretArg;
const ids = JSON.parse(fs.readFileSync(idsFile, 'utf8')) as string[];

const database = openDatabase(loadConfig(process.env).database);
const services = createServices(new Store(database));

async function run(request: RunRequest) {
  let operations = 0;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + request.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const id = ids[next % ids.length] as string;
      next += 1;
      try {
        const key = await services.apiKeys.authenticate(secret);
        if (key === undefined) throw new Error('the key is not valid');
        await services.forWorkspace(key.workspace_id).leads.get(id);
        operations += 1;
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, loop));
  const used = process.cpuUsage(cpu);
  return {
    type: 'run',
    operations,
    errors,
    seconds: (performance.now() - started) / 1000,
    cpuMicros: used.user + used.system,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

process.on('message', (message: RunRequest) => {
  if (message.type === 'run') void run(message).then((answer) => process.send?.(answer));
});
const stop = () => void database.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
await database.ping();
process.send?.({ type: 'ready', url: '' });
