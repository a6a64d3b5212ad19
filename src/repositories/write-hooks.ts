/**
 * Work that must commit with whatever a request writes (CONTRACT C8.2: an
 * idempotency key is marked applied in the transaction of the write it
 * protects). A request runs its handler inside `withWriteHook`; every write
 * transaction the store runs for it (Store.run) calls the hook on that
 * transaction before it commits, so both commit or neither does. The hook is
 * carried by AsyncLocalStorage, so services need not know of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Schema } from '../db/schema.js';

export type WriteHook = (trx: Transaction<Schema>) => Promise<void>;

const hooks = new AsyncLocalStorage<WriteHook>();

export function withWriteHook<T>(hook: WriteHook, run: () => T): T {
  return hooks.run(hook, run);
}

/** The hook of the running request, if any. */
export function currentWriteHook(): WriteHook | undefined {
  return hooks.getStore();
}

/** Runs outside any request's hook (work a request starts but does not own). */
export function withoutWriteHook<T>(run: () => T): T {
  return hooks.exit(run);
}
