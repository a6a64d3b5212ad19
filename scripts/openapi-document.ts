/**
 * The OpenAPI documents exactly as the server serves them, without a server:
 * the app is built over a throwaway SQLite file (no request is made, the
 * document depends only on the route schemas). Used by `npm run
 * openapi:write` (the linted file), the client's and the dashboard's type
 * generation, and the tests that fail when generated types are stale.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { DEFAULT_TRACKING } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';

/** Both documents the server serves: the public API's and the dashboard's (C9.10). */
export async function openapiDocuments(): Promise<{ api: Record<string, unknown>; dashboard: Record<string, unknown> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-openapi-'));
  const database = openDatabase({ kind: 'sqlite', filename: path.join(dir, 'leadlight.db') });
  try {
    const app = await buildApp({
      config: { rateLimits: { production: 1, development: 1, unauthenticated: 1 }, trustProxy: false, tracking: DEFAULT_TRACKING },
      database,
    });
    await app.ready();
    const documents = { api: structuredClone(app.openapiDocuments.api()), dashboard: structuredClone(app.openapiDocuments.dashboard()) };
    await app.close();
    return documents;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The public API's document (/api/v1/openapi.json). */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  return (await openapiDocuments()).api;
}
