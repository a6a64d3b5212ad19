/**
 * A plain string is not a WorkspaceId: tenant data can only be reached with
 * an id that a trusted lookup produced. The @ts-expect-error lines are the
 * test: `npm run check` (tsc over test/) fails if any of them compiles
 * without an error. The runtime part shows the lookups that do produce one.
 */
import { describe, expect, it } from 'vitest';
import { TenantScope } from '../../src/repositories/scope/tenant-scope.js';
import type { Services } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { createTestApp } from '../helpers/app.js';

function typeChecks(services: Services, scope: TenantScope, text: string, id: WorkspaceId): void {
  // @ts-expect-error a string from a request or a command line is not a WorkspaceId
  services.forWorkspace(text);
  // @ts-expect-error nor is any string literal
  services.forWorkspace('0190a0a0-0000-7000-8000-00000000000a');
  // @ts-expect-error a tenant scope needs a WorkspaceId too
  new TenantScope(undefined as never, text, undefined as never);
  // @ts-expect-error and a workspace_id column only compares with one
  scope.selectFrom('leads').where('workspace_id', '=', text);
  services.forWorkspace(id);
}

describe('WorkspaceId', () => {
  it('comes from the operator lookup and from a key, and opens that workspace only', async () => {
    expect(typeChecks).toBeTypeOf('function');
    const t = await createTestApp('sqlite');
    try {
      const created = await t.services.workspaces.create('Typed');
      const resolved: WorkspaceId = await t.services.workspaces.resolve(created.id);
      const key = await t.services.apiKeys.create(created.id, 'production');
      const authenticated = await t.services.apiKeys.authenticate(key.key);
      const fromKey: WorkspaceId | undefined = authenticated?.workspace_id;
      expect(fromKey).toBe(resolved);
      expect(t.services.forWorkspace(resolved).id).toBe(created.id);
    } finally {
      await t.close();
    }
  });
});
