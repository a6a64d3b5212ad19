/**
 * Whether the embedded store can write (issues 9 and 19): a full disk or an
 * I/O error fails every write until space is freed, while reads go on. The
 * connection records the first such failure; /readyz says that writes fail,
 * and why, instead of looking healthy because `select 1` still answers.
 *
 * The failure is cleared by a write that commits while there is room for
 * writes (`room`: ROOM_BYTES free on the volume and below the page limit),
 * or by the readiness probe's own write under the same condition. A commit
 * alone is not enough (issue 19): on a full disk a small write still fits
 * in the log's last pages while every larger one fails, and readiness said
 * "ok" while 30 of 30 writes answered 507.
 */
import { isStorageFailure } from './errors.js';

export interface WriteFailure {
  /** the driver's code, e.g. SQLITE_FULL or SQLITE_IOERR_WRITE */
  code: string;
  message: string;
  /** ISO time of the first failure of this outage */
  since: string;
  /** free space the write-ahead log's copy into the database lacks (sqlite-checkpointer.ts), when known */
  checkpointShortBytes?: number;
}

export class WriteHealth {
  #failure: WriteFailure | undefined;
  /** the open transaction's commit proves that writes work: it is a write transaction without a storage failure */
  #proving = false;

  constructor(private readonly room: () => boolean = () => true) {}

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
    if (this.#proving && this.#failure !== undefined && this.#roomNow()) this.#failure = undefined;
    this.#proving = false;
  }

  succeeded(): void {
    this.#failure = undefined;
  }

  /** what the log's copy lacks, told with the failure */
  checkpointShort(bytes: number): void {
    if (this.#failure !== undefined) this.#failure = { ...this.#failure, checkpointShortBytes: bytes };
  }

  get failure(): WriteFailure | undefined {
    return this.#failure;
  }

  #roomNow(): boolean {
    try {
      return this.room();
    } catch {
      return false;
    }
  }
}
