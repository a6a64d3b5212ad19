/**
 * One round of the digest worker in a process of its own, for the
 * multi-process tests of digests (CONTRACT C10.4): opens DATABASE_URL,
 * says `ready`, waits for a line on stdin (so that several processes start
 * their round together), runs one round at the clock it is given, prints
 * the round as JSON and exits.
 *
 *   node --import tsx test/helpers/digest-round.ts <clock ms> <smtp url>
 */
import { createInterface } from 'node:readline';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { Store } from '../../src/repositories/index.js';
import { DigestWorker } from '../../src/services/digests/worker.js';

const [clock, smtpUrl] = process.argv.slice(2);
const database = openDatabase(parseDatabaseUrl(process.env.DATABASE_URL ?? '', 2));
const worker = new DigestWorker(new Store(database), { smtpUrl, smtpFrom: 'Leadlight <digests@leadlight.example>', publicUrl: 'https://leadlight.example' }, () => Number(clock));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();
const round = await worker.runOnce();
await worker.stop();
await database.close();
process.stdout.write(`${JSON.stringify(round)}\n`);
