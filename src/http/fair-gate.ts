/**
 * A bound on the requests doing work at once, fair between workspaces
 * (issue 9). At most `maxInFlight` requests hold a slot; the others wait in
 * one queue per tenant (a workspace, or a client address), and a freed slot
 * goes to the tenants in turn, so one workspace's flood delays another's
 * requests by at most one request per slot, never by the flood's length. A
 * tenant may fill at most half of the waiting room, a full waiting room
 * refuses at once, and a request that waited `queueTimeoutMs` is refused:
 * overload is answered quickly (503) instead of queued without bound.
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

  constructor(private readonly options: FairGateOptions) {
    this.#perTenantQueue = Math.max(1, Math.ceil(options.maxQueued / 2));
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /** A slot now (synchronously, as a function) or later (a promise); rejects with FairGateRefusal. */
  acquire(tenant: string): Release | Promise<Release> {
    if (this.#inFlight < this.options.maxInFlight && this.#queued === 0) {
      this.#inFlight += 1;
      return this.#releaser();
    }
    const queue = this.#queues.get(tenant);
    if (this.#queued >= this.options.maxQueued || (queue?.length ?? 0) >= this.#perTenantQueue) {
      return Promise.reject(new FairGateRefusal('queue_full'));
    }
    return new Promise<Release>((grant, reject) => {
      const waiter: Waiter = {
        grant,
        refuse: (reason) => reject(new FairGateRefusal(reason)),
        timer: setTimeout(() => this.#expire(tenant, waiter), this.options.queueTimeoutMs),
      };
      if (queue === undefined) this.#queues.set(tenant, [waiter]);
      else queue.push(waiter);
      this.#queued += 1;
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
    while (this.#inFlight < this.options.maxInFlight && this.#queued > 0) {
      const [tenant, queue] = this.#queues.entries().next().value as [string, Waiter[]];
      const waiter = queue.shift() as Waiter;
      this.#queues.delete(tenant);
      // served: this tenant goes behind every other waiting tenant
      if (queue.length > 0) this.#queues.set(tenant, queue);
      this.#queued -= 1;
      clearTimeout(waiter.timer);
      this.#inFlight += 1;
      waiter.grant(this.#releaser());
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
