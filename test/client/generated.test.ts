/**
 * The client's generated types (packages/client/src/generated/openapi.ts)
 * are those of the OpenAPI document the server serves now: a route schema
 * changed without `npm run client:generate` fails here (and in `npm run
 * check`). Also: the package resolves as a user's import would, to its built
 * JavaScript, with the operations named by the document's operationIds.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generatedTypes } from '../../scripts/client-generate.js';

describe('@leadlight/client: generated types', () => {
  it('are not stale: the checked-in file is what openapi-typescript makes of the current document', async () => {
    expect(fs.readFileSync(GENERATED_TYPES, 'utf8')).toBe(await generatedTypes());
  }, 60_000);

  it('name every operation of the document by its operationId', async () => {
    const text = fs.readFileSync(GENERATED_TYPES, 'utf8');
    for (const id of ['listLeads', 'getLead', 'createLead', 'updateLead', 'listIdentities', 'sendEvents', 'leadCreatedWebhook']) {
      expect(text).toMatch(new RegExp(`\\n    ${id}: \\{`));
    }
  });

  it('resolve as a user imports them: @leadlight/client is the built package of packages/client', async () => {
    const resolved = createRequire(import.meta.url).resolve('@leadlight/client/package.json');
    expect(fs.realpathSync(path.dirname(resolved))).toBe(fs.realpathSync(path.join(path.dirname(GENERATED_TYPES), '..', '..')));
    const entry = import.meta.resolve('@leadlight/client');
    expect(entry).toMatch(/packages\/client\/dist\/index\.js$/);
    const client = await import('@leadlight/client');
    expect(typeof client.createClient).toBe('function');
  });
});
