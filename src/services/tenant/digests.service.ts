/**
 * A member's email digest (CONTRACT C10.4): off, daily or weekly, chosen by
 * each member for themself in their workspace, and when the next one is
 * due (08:00 in the workspace's time zone; weekly on Mondays).
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { DigestChoice } from '../../repositories/tenant/digests.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { latestPeriod } from '../digests/period.js';
import { NotFoundError } from '../errors.js';

const HOUR_MS = 3_600_000;

export interface DigestSetting {
  digest: DigestChoice;
  /** the 08:00 of the next digest this member gets; null when off */
  next_at: string | null;
}

/** The 08:00 of the first period after `now` (one more hour than a period reaches past a daylight-saving change). */
export function nextDigestAt(now: number, timeZone: string, digest: DigestChoice): string | null {
  if (digest === 'off') return null;
  const latest = latestPeriod(now, timeZone, digest);
  return formatInstant(latestPeriod(latest.sendAt + (digest === 'daily' ? 25 : 7 * 24 + 1) * HOUR_MS, timeZone, digest).sendAt);
}

export class DigestsService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(userId: string, timeZone: string): Promise<DigestSetting> {
    const preference = await this.store.repos.digests.preference(userId);
    if (preference === undefined) throw new NotFoundError('user');
    return { digest: preference.digest, next_at: nextDigestAt(this.clock(), timeZone, preference.digest) };
  }

  async set(userId: string, digest: DigestChoice, timeZone: string): Promise<DigestSetting> {
    const at = this.clock();
    const member = await this.store.transaction((repos) => repos.digests.setPreference(userId, digest, formatInstant(at)));
    if (!member) throw new NotFoundError('user');
    return { digest, next_at: nextDigestAt(at, timeZone, digest) };
  }
}
