/**
 * Whether the embedded store can write (issue 9): a full disk or an I/O
 * error fails every write until space is freed, while reads go on. The
 * connection records the first such failure and clears it at the next
 * commit, so /readyz can say that writes fail, and why, instead of looking
 * healthy because `select 1` still answers.
 */
import { isStorageFailure } from './errors.js';

export interface WriteFailure {
  /** the driver's code, e.g. SQLITE_FULL or SQLITE_IOERR_WRITE */
  code: string;
  message: string;
  /** ISO time of the first failure of this outage */
  since: string;
}

export class WriteHealth {
  #failure: WriteFailure | undefined;
  /** the open transaction's commit proves that writes work: it is a write transaction without a storage failure */
  #proving = false;

  began(write: boolean): void {
    this.#proving = write;
  }

  /** Records `error` when it is a storage failure; returns whether it was. */
  observe(error: unknown): boolean {
    if (!isStorageFailure(error)) return false;
    const { code, message } = error as Error & { code?: string };
    this.#failure ??= { code: code ?? 'unknown', message, since: new Date().toISOString() };
    this.#proving = false;
    return true;
  }

  committed(): void {
    if (this.#proving) this.#failure = undefined;
    this.#proving = false;
  }

  succeeded(): void {
    this.#failure = undefined;
  }

  get failure(): WriteFailure | undefined {
    return this.#failure;
  }
}
