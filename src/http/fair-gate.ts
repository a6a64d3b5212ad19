/**
 * A bound on the requests doing work at once, fair between workspaces
 * (issue 9). At most `maxInFlight` requests hold a slot; the others wait in
 * one queue per tenant (a workspace, or a client address), and a freed slot
 * goes to the tenants in turn, so one workspace's flood delays another's
 * requests by at most one request per slot, never by the flood's length. A
 * tenant may fill at most half of the waiting room, a full waiting room
 * refuses at once, and a request that waited `queueTimeoutMs` is refused:
 * overload is answered quickly (503) instead of queued without bound.
 *
 * At most `grantsPerTurn` slots are granted in one turn of the event loop
 * (issue 19): on SQLite a granted request runs to its answer without
 * yielding, and slots freed and granted again in the same turn would let one
 * turn serve the whole queue while no socket is read and no connection is
 * accepted (Node accepts one connection per turn), so that new connections
 * waited seconds before the server saw them. The rest are granted in the
 * next turns, after the loop has polled; and while connections are being
 * accepted, one per turn, so that a burst of them is accepted quickly.
 * No Fastify here: admission.ts binds it to requests.
 */

export type Release = () => void;

export type Refusal = 'queue_full' | 'queue_timeout';

interface Waiter {
  grant: (release: Release) => void;
  refuse: (reason: Refusal) => void;
  timer: NodeJS.Timeout;
}

export interface FairGateOptions {
  maxInFlight: number;
  maxQueued: number;
  queueTimeoutMs: number;
  /** slots granted in one turn of the event loop at most (default: no bound) */
  grantsPerTurn?: number;
}

export class FairGateRefusal extends Error {
  override name = 'FairGateRefusal';
  constructor(readonly reason: Refusal) {
    super(reason === 'queue_full' ? 'too many requests are waiting' : 'waited too long for a slot');
  }
}

export class FairGate {
  #inFlight = 0;
  #queued = 0;
  /** tenants with waiters, in the order they are served next */
  readonly #queues = new Map<string, Waiter[]>();
  readonly #perTenantQueue: number;
  readonly #grantsPerTurn: number;
  #grantedThisTurn = 0;
  #turnScheduled = false;
  /** the grants of the current turn: one while connections are being accepted */
  #turnBudget: number;
  #acceptedThisTurn = false;

  constructor(private readonly options: FairGateOptions) {
    this.#perTenantQueue = Math.max(1, Math.ceil(options.maxQueued / 2));
    this.#grantsPerTurn = Math.max(1, options.grantsPerTurn ?? Number.POSITIVE_INFINITY);
    this.#turnBudget = this.#grantsPerTurn;
  }

  /**
   * A connection was accepted in this turn. Node accepts one per turn, so
   * more may be waiting (a client opening 512 at once): the next turn grants
   * one slot only, so that the loop comes back to accept the next sooner.
   */
  connectionAccepted(): void {
    this.#acceptedThisTurn = true;
    this.#scheduleTurn();
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /**
   * A slot now (synchronously, as a function) or later (a promise); rejects
   * with FairGateRefusal. `timeoutMs` (the queue timeout unless given) is
   * how long the request may still wait.
   */
  acquire(tenant: string, timeoutMs = this.options.queueTimeoutMs): Release | Promise<Release> {
    if (this.#inFlight < this.options.maxInFlight && this.#queued === 0 && this.#grantedThisTurn < this.#turnBudget) {
      return this.#take();
    }
    const queue = this.#queues.get(tenant);
    if (this.#queued >= this.options.maxQueued || (queue?.length ?? 0) >= this.#perTenantQueue) {
      return Promise.reject(new FairGateRefusal('queue_full'));
    }
    return new Promise<Release>((grant, reject) => {
      const waiter: Waiter = {
        grant,
        refuse: (reason) => reject(new FairGateRefusal(reason)),
        timer: setTimeout(() => this.#expire(tenant, waiter), Math.max(0, timeoutMs)),
      };
      if (queue === undefined) this.#queues.set(tenant, [waiter]);
      else queue.push(waiter);
      this.#queued += 1;
      // a slot may be free, only this turn's grants spent
      this.#scheduleTurn();
    });
  }

  #take(): Release {
    this.#inFlight += 1;
    this.#grantedThisTurn += 1;
    this.#scheduleTurn();
    return this.#releaser();
  }

  /** At the end of this turn (the check phase, after the poll): a new turn's grants, and the waiters they serve. */
  #scheduleTurn(): void {
    if (this.#turnScheduled || this.#grantsPerTurn === Number.POSITIVE_INFINITY) return;
    this.#turnScheduled = true;
    setImmediate(() => {
      this.#turnScheduled = false;
      this.#grantedThisTurn = 0;
      this.#turnBudget = this.#acceptedThisTurn ? 1 : this.#grantsPerTurn;
      this.#acceptedThisTurn = false;
      this.#next();
    });
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      this.#next();
    };
  }

  #next(): void {
    while (this.#inFlight < this.options.maxInFlight && this.#queued > 0 && this.#grantedThisTurn < this.#turnBudget) {
      const [tenant, queue] = this.#queues.entries().next().value as [string, Waiter[]];
      const waiter = queue.shift() as Waiter;
      this.#queues.delete(tenant);
      // served: this tenant goes behind every other waiting tenant
      if (queue.length > 0) this.#queues.set(tenant, queue);
      this.#queued -= 1;
      clearTimeout(waiter.timer);
      waiter.grant(this.#take());
    }
  }

  #expire(tenant: string, waiter: Waiter): void {
    const queue = this.#queues.get(tenant);
    const index = queue?.indexOf(waiter) ?? -1;
    if (queue === undefined || index === -1) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(tenant);
    this.#queued -= 1;
    waiter.refuse('queue_timeout');
  }
}
