/**
 * The Live page's notices (CONTRACT C9.2): ingestion says a workspace's
 * visits changed once its transaction committed (`changed`, synchronous,
 * never awaiting anyone); the hub sends at most one notice per workspace per
 * COALESCE_MS over the bus (the first at once, the rest of the window as one
 * more at its end) and hands each notice it hears to the open streams of
 * that workspace. Streams are capped per process and per workspace; a
 * listener that throws is dropped, never the others.
 */
import type { LiveBus } from './live-bus.js';

export interface LiveLimits {
  /** at most one notice per workspace per this many ms */
  coalesceMs: number;
  /** open streams in this process */
  maxStreams: number;
  /** open streams of one workspace in this process */
  maxStreamsPerWorkspace: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { coalesceMs: 500, maxStreams: 2_000, maxStreamsPerWorkspace: 1_000 };

/**
 * The stream caps for a process that takes at most `maxConnections`
 * connections (MAX_CONNECTIONS): an open stream holds a connection, so
 * streams may take at most half of them and the API, the events endpoint and
 * the dashboard always keep the other half (README "Live").
 */
export function liveLimitsFor(maxConnections: number): LiveLimits {
  const maxStreams = Math.min(DEFAULT_LIVE_LIMITS.maxStreams, Math.floor(maxConnections / 2));
  return { ...DEFAULT_LIVE_LIMITS, maxStreams, maxStreamsPerWorkspace: Math.min(DEFAULT_LIVE_LIMITS.maxStreamsPerWorkspace, maxStreams) };
}

export type LiveListener = () => void;

export class LiveHub {
  readonly limits: LiveLimits;
  /** workspaces inside a coalescing window: whether another change came during it */
  readonly #windows = new Map<string, { dirty: boolean }>();
  readonly #listeners = new Map<string, Set<LiveListener>>();
  /** per workspace, how many changes this process made or heard of (reads of the page are shared within one: shared-reads.ts) */
  readonly #generations = new Map<string, number>();
  /** how to end each open stream (at shutdown) */
  readonly #enders = new Set<() => void>();
  #open = 0;
  #published = 0;

  constructor(
    readonly bus: LiveBus,
    limits: Partial<LiveLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...limits };
    bus.onNotice((workspaceId) => this.#deliver(workspaceId));
  }

  /** the workspace's visits changed (called after the commit) */
  changed(workspaceId: string): void {
    // this process's own change is seen by its next read at once, before the notice comes back over the bus
    this.#bump(workspaceId);
    const window = this.#windows.get(workspaceId);
    if (window !== undefined) {
      window.dirty = true;
      return;
    }
    this.#publish(workspaceId);
    const opened = { dirty: false };
    this.#windows.set(workspaceId, opened);
    const timer = setTimeout(() => {
      this.#windows.delete(workspaceId);
      if (opened.dirty) this.changed(workspaceId);
    }, this.limits.coalesceMs);
    timer.unref();
  }

  /**
   * `listener` is called on every notice about the workspace until the
   * returned function is called; `end` ends the stream when the process
   * shuts down. Undefined when a cap is reached.
   */
  subscribe(workspaceId: string, listener: LiveListener, end: () => void = () => undefined): (() => void) | undefined {
    const listeners = this.#listeners.get(workspaceId) ?? new Set<LiveListener>();
    if (this.#open >= this.limits.maxStreams || listeners.size >= this.limits.maxStreamsPerWorkspace) return undefined;
    listeners.add(listener);
    this.#listeners.set(workspaceId, listeners);
    this.#open += 1;
    this.#enders.add(end);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      listeners.delete(listener);
      this.#enders.delete(end);
      this.#open -= 1;
      if (listeners.size === 0 && this.#listeners.get(workspaceId) === listeners) this.#listeners.delete(workspaceId);
    };
  }

  /** the workspace's changes made or heard of so far: a read of its page taken at one generation is current until the next */
  generation(workspaceId: string): number {
    return this.#generations.get(workspaceId) ?? 0;
  }

  /** open streams in this process */
  get open(): number {
    return this.#open;
  }

  /** notices this process sent */
  get published(): number {
    return this.#published;
  }

  /** ends every open stream (a shutdown: they would keep their connections open) */
  endStreams(): void {
    for (const end of [...this.#enders]) end();
  }

  async close(): Promise<void> {
    this.endStreams();
    await this.bus.close();
  }

  #publish(workspaceId: string): void {
    this.#published += 1;
    this.bus.publish(workspaceId);
  }

  #bump(workspaceId: string): void {
    this.#generations.set(workspaceId, this.generation(workspaceId) + 1);
  }

  #deliver(workspaceId: string): void {
    // before the streams are told: the reads they cause must not reuse an older one
    this.#bump(workspaceId);
    for (const listener of this.#listeners.get(workspaceId) ?? []) {
      try {
        listener();
      } catch {
        // a stream that cannot be written to is closed by its own close handler
      }
    }
  }
}
