/**
 * What the HTTP layer attaches to a request: the workspace the gate admitted
 * it to (that workspace's services, bound to it: nothing else is reachable
 * from a route), the key that did so, and whether the body was a JSON Merge
 * Patch. Route config can mark a route public (no key) or name the fields a
 * body may not set.
 */
import type { FastifyRequest } from 'fastify';
import type { KeyType } from '../services/operator/api-keys.service.js';
import type { WorkspaceServices } from '../services/index.js';
import { unauthorized } from './errors.js';

export interface PresentedKey {
  id: string;
  type: KeyType;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the gate once the key is known; null on public routes and before the gate */
    workspace: WorkspaceServices | null;
    apiKey: PresentedKey | null;
    mergePatch: boolean;
  }
  interface FastifyContextConfig {
    /** served without a key (still limited per address) */
    public?: boolean;
    /** resource fields that this route's body may not set: reported as such, not as unknown */
    readOnlyFields?: readonly string[];
  }
}

/** The services of the request's workspace. */
export function workspaceOf(request: FastifyRequest): WorkspaceServices {
  if (request.workspace === null) throw unauthorized();
  return request.workspace;
}
