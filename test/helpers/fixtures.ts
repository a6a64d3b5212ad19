/**
 * Test data for resources the API cannot create (companies, lists, users,
 * activity, personalities): written through the import service, the same
 * path `leadlight import` takes.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ImportResource } from '../../src/services/tenant/import/import.service.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import type { TestApp } from './app.js';

/** Imports rows (ids generated when absent); returns their ids in order. */
export async function importRows(
  t: TestApp,
  workspaceId: WorkspaceId,
  resource: ImportResource,
  rows: Record<string, unknown>[],
): Promise<string[]> {
  const withIds = rows.map((row) => ({ id: randomUUID(), ...row }));
  const text = withIds.map((row) => JSON.stringify(row)).join('\n');
  await t.services.forWorkspace(workspaceId).imports.run(resource, Readable.from([text]));
  return withIds.map((row) => row.id as string);
}

export function seedCompanies(
  t: TestApp,
  workspaceId: WorkspaceId,
  companies: { name: string; domain?: string | null; created_at?: string }[],
): Promise<string[]> {
  return importRows(t, workspaceId, 'companies', companies);
}
