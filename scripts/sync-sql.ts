/**
 * `npm run sql:sync`: writes src/queries/*.sql, the SQL every repository
 * method runs on each store, so a reviewer sees the SQL a change makes.
 * `--check` writes nothing and exits 1 when a file is stale or a statement
 * reaches a workspace's table without naming the workspace (CI runs the same
 * check as a test: test/sql/snapshots.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { generate, QUERIES_DIRECTORY } from './sql/generate.js';

const check = process.argv.includes('--check');
const { files, violations, statements } = await generate();
let failed = false;
for (const violation of violations) {
  process.stderr.write(`tenant boundary: ${violation}\n`);
  failed = true;
}
const wanted = new Set(files.keys());
fs.mkdirSync(QUERIES_DIRECTORY, { recursive: true });
for (const name of fs.readdirSync(QUERIES_DIRECTORY)) {
  if (name.endsWith('.sql') && !wanted.has(name)) {
    if (check) {
      process.stderr.write(`stale: ${name} is no longer generated\n`);
      failed = true;
    } else fs.rmSync(path.join(QUERIES_DIRECTORY, name));
  }
}
for (const [name, text] of files) {
  const file = path.join(QUERIES_DIRECTORY, name);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current === text) continue;
  if (check) {
    process.stderr.write(`stale: ${file} (run npm run sql:sync)\n`);
    failed = true;
  } else fs.writeFileSync(file, text);
}
process.stdout.write(`${statements} statements in ${files.size} files${check ? ' checked' : ' written'}\n`);
process.exitCode = failed ? 1 : 0;
