/**
 * What the HTTP layer attaches to a request: the authenticated key's
 * workspace, and whether the body was a JSON Merge Patch. Route config can
 * mark a route public (no key) or name the fields a body may not set.
 */
import type { FastifyRequest } from 'fastify';
import type { KeyType } from '../services/api-keys.service.js';
import { unauthorized } from './errors.js';

export interface AuthContext {
  workspaceId: string;
  keyId: string;
  keyType: KeyType;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    mergePatch: boolean;
  }
  interface FastifyContextConfig {
    /** served without a key (still limited per address) */
    public?: boolean;
    /** resource fields that this route's body may not set: reported as such, not as unknown */
    readOnlyFields?: readonly string[];
  }
}

export function authOf(request: FastifyRequest): AuthContext {
  if (request.auth === null) throw unauthorized();
  return request.auth;
}
