/**
 * One read of a workspace's Live page shared by every open page of it
 * (issue 24, perf-live): each notice makes every open page read
 * GET /dashboard/api/live again, up to two reads a second per page, so 1,000
 * open pages of a busy workspace would read the same rows 2,000 times a
 * second. A read is reused while no change of the workspace was heard since
 * it started (the hub's generation) and for at most `maxAgeMs` (the window of
 * the last 30 minutes slides with the clock); a failed read is not kept.
 */
export class SharedReads<T> {
  readonly #entries = new Map<string, { generation: number; started: number; value: Promise<T> }>();

  constructor(private readonly maxAgeMs: number) {}

  get(key: string, generation: number, read: () => Promise<T>): Promise<T> {
    const now = performance.now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.generation === generation && now - entry.started < this.maxAgeMs) return entry.value;
    const fresh = { generation, started: now, value: read() };
    this.#entries.set(key, fresh);
    const forget = () => {
      if (this.#entries.get(key) === fresh) this.#entries.delete(key);
    };
    fresh.value.catch(forget);
    setTimeout(forget, this.maxAgeMs).unref();
    return fresh.value;
  }
}
