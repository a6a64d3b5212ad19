/**
 * The OpenAPI document exactly as the server serves it, without a server:
 * the app is built over a throwaway SQLite file (no request is made, the
 * document depends only on the route schemas). Used by `npm run
 * openapi:write` (the linted file), the client's type generation, and the
 * test that fails when the client's generated types are stale.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { DEFAULT_TRACKING } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';

export async function openapiDocument(): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-openapi-'));
  const database = openDatabase({ kind: 'sqlite', filename: path.join(dir, 'leadlight.db') });
  try {
    const app = await buildApp({
      config: { rateLimits: { production: 1, development: 1, unauthenticated: 1 }, trustProxy: false, tracking: DEFAULT_TRACKING },
      database,
    });
    await app.ready();
    const document = structuredClone(app.swagger()) as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
