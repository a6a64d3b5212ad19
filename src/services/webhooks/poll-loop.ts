/**
 * How the delivery workers (webhooks C8.5, alerts C10.3) run their rounds:
 * every `pollMs`, and at once when woken because a transaction that wrote to
 * their outbox committed (db/commit-signal.ts). One round at a time: a wake
 * during a round runs one more right after it (what committed meanwhile may
 * not have been claimed), never a second in parallel. The poll stays the
 * guarantee (a hint lost, a delivery retried later, a process killed before
 * it told anyone); the wake only makes the usual case immediate.
 */
export class PollLoop {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  /** Runs a round now (or right after the running one). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#again = false;
    this.#running = this.round()
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.#running = undefined;
        if (this.#stopped) return;
        if (this.#again) this.wake();
        else this.#schedule();
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    while (this.#running !== undefined) await this.#running;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.wake(), this.pollMs);
    this.#timer.unref();
  }
}
