/**
 * Safe retries of POSTs (CONTRACT C8.2), in the database so that every
 * process agrees and nothing is lost with a process:
 *
 * - `begin` claims the key with one INSERT (the unique key resolves
 *   concurrent duplicates: never a check then an insert), or tells what the
 *   key already holds: an answer to replay, a request still running (409),
 *   or another request (422).
 * - `writeHook` marks the claim applied inside every write transaction the
 *   request runs (repositories/write-hooks.ts): the key and the write commit
 *   together. A claim that lost its lease to another request rolls the write back.
 * - `complete` stores the answer before it is sent; `release` forgets a
 *   claim whose request was refused or failed, so that the key can be retried.
 *
 * Keys live IDEMPOTENCY_LIFETIME_MS from their first use, then the upkeep
 * job prunes them (`prune`).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { StoredAnswer } from '../../repositories/tenant/idempotency.repository.js';
import { withoutWriteHook, type WriteHook } from '../../repositories/write-hooks.js';
import { formatInstant } from '../../schemas/instants.js';
import { ServiceError } from '../errors.js';

export type { StoredAnswer };

/** how long a key is kept: at least 24 hours (C8.2) */
export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60_000;
/** a claim whose request has not committed within this lease may be taken over (its process died) */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** what a 409 tells the client to wait, in seconds */
export const IN_USE_RETRY_AFTER_S = 1;

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export type Begun =
  | { kind: 'run'; token: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'in_use' }
  | { kind: 'reused' };

/** The hash a key is bound to: the operation and its body (key order does not matter). */
export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class IdempotencyInUseError extends ServiceError {
  constructor() {
    super('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later', {
      retry_after: IN_USE_RETRY_AFTER_S,
    });
  }
}

export class IdempotencyReusedError extends ServiceError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was used with another request body or endpoint');
  }
}

export class IdempotencyService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async begin(key: string, hash: string): Promise<Begun> {
    const repo = this.store.repos.idempotency;
    const token = randomUUID();
    for (let tries = 0; tries < 3; tries += 1) {
      const at = this.clock();
      const until = formatInstant(at + IDEMPOTENCY_LEASE_MS);
      const claimed = await this.store.transaction((repos) => repos.idempotency.claim(key, hash, token, until, formatInstant(at)));
      if (claimed) return { kind: 'run', token };
      const held = await repo.find(key);
      if (held === undefined) continue; // pruned or released in between: claim again
      if (held.request_hash !== hash) return { kind: 'reused' };
      if (held.state === 'completed' && held.response_status !== null) {
        return {
          kind: 'replay',
          answer: {
            status: held.response_status,
            headers: JSON.parse(held.response_headers ?? '{}') as Record<string, string>,
            body: held.response_body ?? '',
          },
        };
      }
      if (held.state === 'running' && Date.parse(held.locked_until) < at) {
        const taken = await this.store.transaction((repos) => repos.idempotency.takeOver(key, token, until, formatInstant(at)));
        if (taken) return { kind: 'run', token };
      }
      return { kind: 'in_use' };
    }
    return { kind: 'in_use' };
  }

  /** The hook that marks the claim applied in each write transaction of its request. */
  writeHook(key: string, token: string): WriteHook {
    return async (trx) => {
      const applied = await this.store.repositoriesIn(trx).idempotency.markApplied(key, token);
      if (!applied) throw new IdempotencyInUseError();
    };
  }

  complete(key: string, token: string, answer: StoredAnswer): Promise<boolean> {
    return withoutWriteHook(() => this.store.transaction((repos) => repos.idempotency.complete(key, token, answer)));
  }

  release(key: string, token: string): Promise<void> {
    return withoutWriteHook(() => this.store.transaction((repos) => repos.idempotency.release(key, token)));
  }
}
