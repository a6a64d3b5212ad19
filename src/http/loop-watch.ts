/**
 * How long a request read now may have waited unread (issue 19). A request
 * that arrives while the event loop is held (a long synchronous task, a
 * flood answered in one turn, a pause of the garbage collector) sits in the
 * kernel until the loop polls again; Fastify's hooks only start the clock
 * when it is read, so its wait was invisible, and a request could be served
 * 20 s after it was sent with a `responseTime` of milliseconds.
 *
 * A timer beats every `periodMs`. Had the loop been free, a request would
 * have been read within a period of arriving; whatever the time since the
 * last beat exceeds that by, the loop was held, and a request read now may
 * have waited that long. A beat that comes late (the loop was held before
 * it) marks the rest of its turn, whose poll reads what arrived meanwhile.
 * It is an upper bound: a request read after a held loop may have arrived
 * at its end. A connection accepted after a held loop keeps what it may
 * have waited for its first request (see admission.ts).
 * No Fastify here.
 */

export interface LoopWatchOptions {
  periodMs?: number;
  now?: () => number;
  /** calls `beat` every `periodMs` (a timer that does not keep the process alive); tests beat by hand */
  every?: (beat: () => void, periodMs: number) => () => void;
}

function unrefInterval(beat: () => void, periodMs: number): () => void {
  const timer = setInterval(beat, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}

export class LoopWatch {
  readonly #periodMs: number;
  readonly #now: () => number;
  #lastBeat: number;
  /** set by a late beat until the end of its turn: when the loop was last seen free */
  #heldSince: number | undefined;
  readonly #every: NonNullable<LoopWatchOptions['every']>;
  #stop: (() => void) | undefined;

  constructor({ periodMs = 20, now = () => performance.now(), every = unrefInterval }: LoopWatchOptions = {}) {
    this.#periodMs = periodMs;
    this.#now = now;
    this.#every = every;
    this.#lastBeat = now();
  }

  start(): void {
    if (this.#stop !== undefined) return;
    this.#lastBeat = this.#now();
    this.#stop = this.#every(() => this.beat(), this.#periodMs);
  }

  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
  }

  beat(): void {
    const at = this.#now();
    if (at - this.#lastBeat > 2 * this.#periodMs && this.#heldSince === undefined) {
      this.#heldSince = this.#lastBeat;
      // the check phase of this turn: after the poll that reads what arrived while the loop was held
      setImmediate(() => (this.#heldSince = undefined));
    }
    this.#lastBeat = at;
  }

  /** ms a request read now may have waited unread because the loop was held; 0 when it was free (or before start) */
  heldFor(): number {
    if (this.#stop === undefined) return 0;
    return Math.max(0, this.#now() - (this.#heldSince ?? this.#lastBeat) - this.#periodMs);
  }
}
