/**
 * `npm run demo-site`: a small website with the tracker installed, pointed at
 * a running Leadlight, for clicking around and watching identities, their
 * timeline and leads appear through the API (README: "Try the tracker").
 * Uses the database DATABASE_URL names (default ./data/leadlight.db) to find
 * the workspace and make it a site key for the site's origin, once.
 *
 *   npm run demo-site -- [--leadlight http://127.0.0.1:3000] [--port 8080] [--workspace ID] [--cookieless]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { DEMO_WORKSPACE_NAME } from '../src/services/operator/seed.service.js';
import { createServices } from '../src/services/index.js';
import { startDemoSite } from './demo-site/site.js';

const SITE_KEY_NAME = 'demo site';

const { values } = parseArgs({
  options: {
    leadlight: { type: 'string', default: process.env.LEADLIGHT_URL ?? 'http://127.0.0.1:3000' },
    port: { type: 'string', default: '8080' },
    workspace: { type: 'string' },
    cookieless: { type: 'boolean', default: false },
  },
});

const config = loadConfig(process.env);
const database = openDatabase(config.database);
let siteKey: string;
let workspaceId: string;
try {
  await database.migrate();
  const services = createServices(new Store(database), { tracking: config.tracking });
  const workspaces = await services.workspaces.list();
  const workspace =
    values.workspace !== undefined
      ? await services.workspaces.get(values.workspace)
      : (workspaces.find((candidate) => candidate.name === DEMO_WORKSPACE_NAME) ?? (workspaces.length === 1 ? workspaces[0] : undefined));
  if (workspace === undefined) {
    throw new Error('no demo workspace: start Leadlight once (npm start) or name one with --workspace ID');
  }
  workspaceId = workspace.id;
  const origins = [`http://127.0.0.1:${values.port}`, `http://localhost:${values.port}`];
  const existing = (await services.siteKeys.list(workspace.id)).find(
    (key) => key.name === SITE_KEY_NAME && origins.every((origin) => key.origins.includes(origin)),
  );
  siteKey = existing?.key ?? (await services.siteKeys.create(workspace.id, SITE_KEY_NAME, origins)).key;
} catch (error) {
  process.stderr.write(`demo-site: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
} finally {
  await database.close();
}

const site = await startDemoSite({
  leadlightUrl: values.leadlight.replace(/\/$/, ''),
  siteKey,
  cookieless: values.cookieless,
  port: Number(values.port),
  scriptPath: config.tracking.scriptPath,
});
process.stdout.write(
  [
    `The demo site is at ${site.url} (workspace ${workspaceId}, site key ${siteKey}${values.cookieless ? ', cookieless' : ''}).`,
    `It loads the tracker from ${values.leadlight}: keep Leadlight running there.`,
    'Click around, sign up on /signup, then look with an API key of the workspace:',
    `  curl -H "Authorization: Bearer $KEY" '${values.leadlight}/api/v1/identities?limit=5'`,
    `  curl -H "Authorization: Bearer $KEY" '${values.leadlight}/api/v1/leads?limit=5'`,
    '',
  ].join('\n'),
);
process.on('SIGINT', () => void site.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void site.close().then(() => process.exit(0)));
