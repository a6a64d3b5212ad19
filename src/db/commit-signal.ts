/**
 * Why the delivery workers need not wait for their poll (CONTRACT C8.5,
 * C10.3; README "Alerts"): a write transaction that puts a delivery in an
 * outbox (alerts, webhooks) is flagged as it runs (`noteOutboxWrite`, called
 * by the repositories that write the outboxes, on the transaction object
 * itself); once the transaction has committed, the store tells this
 * process's listeners (the workers, which then claim at once) and the relay,
 * which carries the hint to the other processes (Redis pub/sub when
 * REDIS_URL is set: server.ts). A hint is only a hint: a transaction rolled
 * back says nothing, a hint lost costs at most one poll interval, and the
 * poll still finds whatever a process killed before telling anyone
 * committed.
 *
 * The flag lives on the transaction rather than in an AsyncLocalStorage
 * around every write transaction: a store of that kind turns on Node's
 * promise hooks for the whole process, a cost on every promise of the hot
 * paths (issue 24, BENCHMARKS.md "Ingest, round two").
 */

export const OUTBOXES = ['alerts', 'webhooks'] as const;
export type Outbox = (typeof OUTBOXES)[number];

/** the outboxes a transaction object wrote to since the store last took them (Store.run) */
const written = new WeakMap<object, Set<Outbox>>();

/**
 * The transaction `trx` wrote a delivery to `outbox`. Outside a transaction
 * (a statement that commits alone, which Store.run does not watch) it is a
 * no-op.
 */
export function noteOutboxWrite(trx: { readonly isTransaction: boolean }, outbox: Outbox): void {
  if (!trx.isTransaction) return;
  const outboxes = written.get(trx);
  if (outboxes === undefined) written.set(trx, new Set([outbox]));
  else outboxes.add(outbox);
}

/**
 * The outboxes `trx` wrote to since the last call, and forgets them: the
 * group commit runs several jobs one after the other on one transaction
 * object, and each job's own writes are taken when it ends.
 */
export function takeOutboxWrites(trx: object): Set<Outbox> | undefined {
  const outboxes = written.get(trx);
  if (outboxes !== undefined) written.delete(trx);
  return outboxes;
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
