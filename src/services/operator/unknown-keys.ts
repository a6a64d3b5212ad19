/**
 * A short memory of key hashes that named no active key (issue 14): a flood
 * of requests with the same well-formed unknown key is answered 401 without
 * a database lookup each time. Only unknowns are remembered, never valid
 * keys (C2.2: a revoked or rotated key fails on the very next request).
 * It is safe because a hash only ever goes from known to unknown: a new key
 * is a fresh random secret that nobody presented before it existed, and a
 * revoked key is never active again. Bounded in entries (the oldest is
 * forgotten first) and in time, so it costs little memory under a flood of
 * random keys.
 */

const DEFAULT_ENTRIES = 10_000;
const DEFAULT_TTL_MS = 10_000;

export class UnknownKeys {
  readonly #until = new Map<string, number>();

  constructor(
    private readonly clock: () => number,
    private readonly maxEntries = DEFAULT_ENTRIES,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  /** Whether `keyHash` was found unknown less than the TTL ago. */
  has(keyHash: string): boolean {
    const until = this.#until.get(keyHash);
    if (until === undefined) return false;
    if (until > this.clock()) return true;
    this.#until.delete(keyHash);
    return false;
  }

  remember(keyHash: string): void {
    this.#until.delete(keyHash);
    if (this.#until.size >= this.maxEntries) {
      const oldest = this.#until.keys().next();
      if (oldest.done !== true) this.#until.delete(oldest.value);
    }
    this.#until.set(keyHash, this.clock() + this.ttlMs);
  }
}
