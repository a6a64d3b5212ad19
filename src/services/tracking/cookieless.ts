/**
 * Visitor ids for the tracker's cookieless mode (CONTRACT C5.4): nothing is
 * stored in the browser, so the id is derived from a random salt of the day
 * (UTC), the workspace, the client address and the User-Agent. The same
 * browser keeps one id for the day and cannot be followed across days: the
 * salt of each day is random, shared by every process through the store,
 * and deleted after 48 hours (maintenance.service.ts); it is never stored
 * with any data. A visitor active across midnight keeps yesterday's id while
 * its session lasts (yesterday's salt is kept for exactly that).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../../repositories/index.js';
import { formatInstant } from '../../schemas/instants.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';

const DAY_MS = 86_400_000;

export function dayOf(ms: number): string {
  return formatInstant(ms).slice(0, 10);
}

/** A UUID (version 8, RFC 9562: custom) from the first 16 bytes of a SHA-256. */
export function derivedUuid(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\n')).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class DailySalts {
  /** salts are never changed once stored, so a process may keep those it has read */
  readonly #known = new Map<string, string>();

  constructor(private readonly store: Store) {}

  /** The salt of `day`, made (once, for every process) when it has none yet. */
  async salt(day: string, at: number): Promise<string> {
    const known = await this.existing(day);
    if (known !== undefined) return known;
    await this.store.transaction((repos) => repos.trackingSalts.insertIfAbsent(day, randomBytes(32).toString('base64'), formatInstant(at)));
    return (await this.existing(day)) as string;
  }

  /** The salt of `day` if one was made. */
  async existing(day: string): Promise<string | undefined> {
    const cached = this.#known.get(day);
    if (cached !== undefined) return cached;
    const stored = await this.store.operator.trackingSalts.find(day);
    if (stored !== undefined) this.#known.set(day, stored);
    return stored;
  }

  /**
   * The cookieless ids a request may have: today's, and yesterday's while
   * yesterday's salt exists (the caller keeps yesterday's for a visitor
   * still in its session).
   */
  async candidates(workspaceId: WorkspaceId, address: string, userAgent: string, at: number): Promise<{ today: string; yesterday?: string }> {
    const [todayKey, yesterdayKey] = [dayOf(at), dayOf(at - DAY_MS)];
    // nothing older than yesterday's salt stays in memory either
    for (const day of this.#known.keys()) if (day !== todayKey && day !== yesterdayKey) this.#known.delete(day);
    const today = derivedUuid(await this.salt(todayKey, at), workspaceId, address, userAgent);
    const yesterdaySalt = await this.existing(yesterdayKey);
    return yesterdaySalt === undefined ? { today } : { today, yesterday: derivedUuid(yesterdaySalt, workspaceId, address, userAgent) };
  }
}
