/**
 * How the processes of an installation tell each other that a workspace's
 * visits changed (CONTRACT C9.2; README "Live"): one message per change,
 * naming the workspace. With REDIS_URL, Redis pub/sub carries it to every
 * process (a visit received by one process reaches the Live pages served by
 * the others; the messages are hints, losing one costs at most a refresh
 * the next one brings); without it, an in-process emitter, since a single
 * process (SQLite) has no one else to tell.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

export interface LiveBus {
  /** sends a notice about the workspace; never waits and never throws */
  publish(workspaceId: string): void;
  /** `handler` is called with the workspace of every notice, this process's own included */
  onNotice(handler: (workspaceId: string) => void): void;
  close(): Promise<void>;
}

export class MemoryLiveBus implements LiveBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  publish(workspaceId: string): void {
    // delivered on a later turn, as Redis would: the ingest path never runs a listener
    setImmediate(() => this.#emitter.emit('notice', workspaceId));
  }

  onNotice(handler: (workspaceId: string) => void): void {
    this.#emitter.on('notice', handler);
  }

  async close(): Promise<void> {
    this.#emitter.removeAllListeners();
  }
}

export const LIVE_CHANNEL = 'leadlight:live';

export class RedisLiveBus implements LiveBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #handlers: ((workspaceId: string) => void)[] = [];

  /** `channel`: Live's by default; the delivery workers' hints use one of their own (webhooks/outbox-relay.ts) */
  constructor(
    url: string,
    onError: (error: Error) => void = () => undefined,
    private readonly channel: string = LIVE_CHANNEL,
  ) {
    const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false } as const;
    this.#publisher = new Redis(url, options);
    // a subscriber queues its SUBSCRIBE until connected, and subscribes again after a reconnection
    this.#subscriber = new Redis(url, { maxRetriesPerRequest: null });
    // ioredis retries by itself: an outage is told once a minute, not once per attempt
    let toldAt = 0;
    const tell = (error: Error) => {
      if (Date.now() - toldAt < 60_000) return;
      toldAt = Date.now();
      onError(error);
    };
    for (const client of [this.#publisher, this.#subscriber]) client.on('error', tell);
    this.#subscriber.on('message', (_channel: string, workspaceId: string) => {
      for (const handler of this.#handlers) handler(workspaceId);
    });
    void this.#subscriber.subscribe(channel).catch(tell);
  }

  /** whether both connections are up (tests wait for it before publishing) */
  async ready(timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.#publisher.status === 'ready' && this.#subscriber.status === 'ready') return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }

  publish(workspaceId: string): void {
    if (this.#publisher.status !== 'ready') return;
    this.#publisher.publish(this.channel, workspaceId).catch(() => undefined);
  }

  onNotice(handler: (workspaceId: string) => void): void {
    this.#handlers.push(handler);
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
    this.#publisher.disconnect();
  }
}
