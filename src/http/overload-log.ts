/**
 * The overload warning, rate-limited (issue 19). A line per refused request
 * wrote 176,160 lines (31 MB) in 40 s of a flood: the log became part of the
 * overload (each line a synchronous write) and buried everything else. Now
 * the first refusal is logged at once, and then at most one line per
 * `intervalMs`, with how many requests were refused since the previous line,
 * by reason. A refusal after a quiet interval is logged at once again.
 * No Fastify here.
 */

export interface OverloadLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface OverloadLogOptions {
  intervalMs?: number;
  now?: () => number;
}

export const OVERLOAD_MESSAGE = 'overloaded: requests refused with 503';

export class OverloadLog {
  readonly #intervalMs: number;
  readonly #now: () => number;
  #lastLineAt = Number.NEGATIVE_INFINITY;
  #since = 0;
  readonly #counts = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: OverloadLogger | undefined,
    { intervalMs = 10_000, now = Date.now }: OverloadLogOptions = {},
  ) {
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  refused(reason: string): void {
    if (this.#counts.size === 0) this.#since = this.#now();
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
    if (this.#now() - this.#lastLineAt >= this.#intervalMs) {
      this.flush();
      return;
    }
    // what is refused after this line is told at the end of the interval, even if nothing more comes
    this.#timer ??= setTimeout(() => this.flush(), this.#intervalMs).unref();
  }

  /** Writes the line of what was refused since the previous one, if anything was. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#counts.size === 0) return;
    const refused = Object.fromEntries(this.#counts);
    const total = [...this.#counts.values()].reduce((sum, count) => sum + count, 0);
    this.logger?.warn({ refused, total, since: new Date(this.#since).toISOString() }, OVERLOAD_MESSAGE);
    this.#counts.clear();
    this.#lastLineAt = this.#now();
  }

  close(): void {
    this.flush();
  }
}
