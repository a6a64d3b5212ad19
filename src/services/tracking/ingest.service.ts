/**
 * Ingestion of tracked events (CONTRACT C5.3 to C5.7): the one path every
 * event takes, whether it came to the events endpoint or from the demo
 * seed's simulated visits. Bots and headless browsers are ignored whole; an
 * event's time is the server's when it claims to be over 5 minutes ahead,
 * and an event older than 7 days is ignored; an id seen before is a
 * duplicate; cookieless events get their visitor id from the daily salt. The
 * events that remain are appended to the log and derived in one transaction
 * (derive.ts): when this resolves, both are durable.
 */
import type { IpStorage } from '../../config.js';
import { networkOf } from '../../intelligence/networks/visitor-network.js';
import type { Store } from '../../repositories/index.js';
import { nextMonth, type Month } from '../../repositories/operator/event-partitions.repository.js';
import { canonicalInstant, formatInstant, validInstantMs } from '../../schemas/instants.js';
import { checkEnvelope, eventList, validateEvents, type TrackedEvent } from '../../schemas/tracked-events.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { isPublicAddress, storedAddress } from './addresses.js';
import { isAutomated } from './bots.js';
import type { DailySalts } from './cookieless.js';
import { deriveBatch, type IncomingEvent, type RequestFacts } from './derive.js';
import type { Geolocator } from './geolocation.js';
import type { CompanyRulesCache } from '../intelligence/company-rules-cache.js';
import type { SettingsCache } from '../intelligence/settings-cache.js';
import { SESSION_GAP_MS } from './sessions.js';

/** a `ts` further ahead than this takes the server's time */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
/** an event older than this is ignored */
export const MAX_EVENT_AGE_MS = 7 * 86_400_000;

export interface IngestContext {
  /** when the events were received (ms); the demo seed passes the time of a simulated visit */
  receivedAt: number;
  /** the client address, normalized (addresses.ts) */
  address: string | undefined;
  userAgent: string | undefined;
  /** the Sec-CH-UA client hint */
  clientHints?: string | undefined;
}

export interface IngestCounts {
  accepted: number;
  duplicates: number;
  ignored: number;
}

export interface IngestOptions {
  ipStorage: IpStorage;
  /** whether addresses whose network names no company are queued for reverse DNS (C6.6; REVERSE_DNS) */
  reverseDns?: boolean;
  /** told after a commit that wrote events of the workspace (the Live page's notices, C9.2): synchronous, never awaited */
  onIngested?: (workspaceId: WorkspaceId) => void;
}

const monthOf = (ms: number): Month => formatInstant(ms).slice(0, 7);

export class IngestService {
  /** months whose partition this process has made sure of */
  readonly #partitions = new Set<Month>();

  constructor(
    private readonly store: Store,
    private readonly salts: DailySalts,
    private readonly geolocator: Geolocator,
    private readonly options: IngestOptions,
    private readonly settings: SettingsCache,
    private readonly rules: CompanyRulesCache,
  ) {}

  /**
   * A batch as the events endpoint received it (`{key, events}`, the key
   * already checked): ignored whole when it comes from a bot, otherwise
   * judged whole (a 400 naming every bad event) and ingested.
   */
  async receive(workspaceId: WorkspaceId, batch: Record<string, unknown>, context: IngestContext): Promise<IngestCounts> {
    checkEnvelope(batch);
    const events = eventList(batch.events);
    if (isAutomated(context)) return { accepted: 0, duplicates: 0, ignored: events.length };
    return this.ingest(workspaceId, validateEvents(events), context);
  }

  /** Valid events of one workspace (from receive, or the demo seed's visits). */
  async ingest(workspaceId: WorkspaceId, events: readonly TrackedEvent[], context: IngestContext): Promise<IngestCounts> {
    const counts: IngestCounts = { accepted: 0, duplicates: 0, ignored: 0 };
    if (isAutomated(context)) return { ...counts, ignored: events.length };
    const now = context.receivedAt;
    const seen = new Set<string>();
    const timed: { event: TrackedEvent; at: number; occurredAt: string }[] = [];
    for (const event of events) {
      const id = event.id.toLowerCase();
      if (seen.has(id)) {
        counts.duplicates += 1;
        continue;
      }
      seen.add(id);
      const claimed = event.ts === undefined ? now : validInstantMs(event.ts);
      const ahead = claimed > now + MAX_CLOCK_AHEAD_MS;
      const at = ahead ? now : claimed;
      if (at < now - MAX_EVENT_AGE_MS) counts.ignored += 1;
      else timed.push({ event, at, occurredAt: ahead || event.ts === undefined ? formatInstant(at) : canonicalInstant(event.ts) });
    }
    if (timed.length === 0) return counts;

    const cookieless = timed.some(({ event }) => event.visitor_id === undefined)
      ? await this.cookielessVisitor(workspaceId, context)
      : undefined;
    const incoming: IncomingEvent[] = timed.map(({ event, at, occurredAt }) => ({
      event,
      at,
      occurredAt,
      visitorId: event.visitor_id?.toLowerCase() ?? (cookieless as string),
    }));
    const place = await this.geolocator.locate(context.address);
    const network = networkOf(context.address);
    const rules = await this.rules.get(workspaceId);
    const facts: RequestFacts = {
      receivedAt: formatInstant(now),
      ip: storedAddress(context.address, this.options.ipStorage),
      city: place?.city ?? null,
      country: place?.country ?? null,
      userAgent: context.userAgent ?? null,
      network,
      pages: (await this.settings.get(workspaceId)).classifier,
      rules,
      networkRule: rules.empty ? undefined : rules.forNetwork(context.address, network?.asn),
      reverseDnsAddress: this.options.reverseDns === true && context.address !== undefined && isPublicAddress(context.address) ? context.address : undefined,
    };
    await this.ensurePartitions(incoming.map((item) => item.at));
    const claimed = await this.store.forWorkspace(workspaceId).transaction((repos) => deriveBatch(repos, incoming, facts));
    counts.accepted = claimed.size;
    counts.duplicates += incoming.length - claimed.size;
    if (claimed.size > 0) this.options.onIngested?.(workspaceId);
    return counts;
  }

  /** Makes sure the log has a partition for the month of each time (PostgreSQL), before the transaction that writes them. */
  async ensurePartitions(times: readonly number[]): Promise<void> {
    const partitions = this.store.operator.eventPartitions;
    if (!partitions.partitioned) return;
    for (const month of new Set(times.map(monthOf))) {
      if (this.#partitions.has(month)) continue;
      await partitions.ensure(month);
      this.#partitions.add(month);
    }
  }

  /** Creates the partitions of this month and the next `ahead` months (the maintenance job). */
  async partitionsAhead(now: number, ahead: number): Promise<void> {
    let month = monthOf(now);
    const months: Month[] = [];
    for (let index = 0; index <= ahead; index += 1) {
      months.push(month);
      month = nextMonth(month);
    }
    await this.ensurePartitions(months.map((name) => Date.parse(`${name}-01T00:00:00Z`)));
  }

  /** Forgets which partitions exist (after retention dropped some). */
  forgetPartitions(): void {
    this.#partitions.clear();
  }

  /**
   * The cookieless visitor of a request: today's derived id, or yesterday's
   * while that visitor's session goes on across midnight.
   */
  private async cookielessVisitor(workspaceId: WorkspaceId, context: IngestContext): Promise<string> {
    const { today, yesterday } = await this.salts.candidates(workspaceId, context.address ?? '', context.userAgent ?? '', context.receivedAt);
    if (yesterday === undefined) return today;
    const visitors = this.store.forWorkspace(workspaceId).repos.visitors;
    if ((await visitors.find(today)) !== undefined) return today;
    const earlier = await visitors.find(yesterday);
    return earlier !== undefined && Date.parse(earlier.session_last_at) >= context.receivedAt - SESSION_GAP_MS ? yesterday : today;
  }
}
