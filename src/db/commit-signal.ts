/**
 * Why the delivery workers need not wait for their poll (CONTRACT C8.5,
 * C10.3; README "Alerts"): a write transaction that puts a delivery in an
 * outbox (alerts, webhooks) notes it here while it runs (`noteOutboxWrite`,
 * called by the repositories that write the outboxes); once the transaction
 * has committed, the store tells this process's listeners (the workers,
 * which then claim at once) and the relay, which carries the hint to the
 * other processes (Redis pub/sub when REDIS_URL is set: server.ts). A hint is
 * only a hint: a transaction rolled back says nothing, a hint lost costs at
 * most one poll interval, and the poll still finds whatever a process killed
 * before telling anyone committed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const OUTBOXES = ['alerts', 'webhooks'] as const;
export type Outbox = (typeof OUTBOXES)[number];

const written = new AsyncLocalStorage<Set<Outbox>>();

/** Runs `work` (a transaction's body), collecting the outboxes it writes to. */
export function collectOutboxWrites<T>(outboxes: Set<Outbox>, work: () => Promise<T>): Promise<T> {
  return written.run(outboxes, work);
}

/** The running transaction wrote a delivery to `outbox` (a no-op outside Store.run). */
export function noteOutboxWrite(outbox: Outbox): void {
  written.getStore()?.add(outbox);
}

export type OutboxListener = () => void;

export class CommitSignal {
  readonly #listeners = new Map<Outbox, Set<OutboxListener>>(OUTBOXES.map((outbox) => [outbox, new Set()]));
  /** outboxes whose listeners are already told on the next turn */
  readonly #pending = new Set<Outbox>();
  #relay: ((outbox: Outbox) => void) | undefined;

  /** Transactions wrote to these outboxes and committed: tells this process (on a later turn, once per turn) and the relay. */
  committed(outboxes: Iterable<Outbox>): void {
    for (const outbox of outboxes) {
      if (this.#pending.has(outbox)) continue;
      this.#pending.add(outbox);
      setImmediate(() => {
        this.#pending.delete(outbox);
        this.#relay?.(outbox);
        this.heard(outbox);
      });
    }
  }

  /** A hint about `outbox` (from the relay: another process committed, or this one): tells this process's listeners. */
  heard(outbox: Outbox): void {
    for (const listener of this.#listeners.get(outbox) ?? []) {
      try {
        listener();
      } catch {
        // a listener's failure is its own (the workers catch theirs)
      }
    }
  }

  /** `listener` is called after every commit that wrote to `outbox`; the returned function stops it. */
  on(outbox: Outbox, listener: OutboxListener): () => void {
    const listeners = this.#listeners.get(outbox) as Set<OutboxListener>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Where committed hints also go (another process's `heard`); never waits and never throws. */
  relayTo(relay: ((outbox: Outbox) => void) | undefined): void {
    this.#relay = relay;
  }
}
