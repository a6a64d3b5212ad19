/**
 * PTR lookups (CONTRACT C6.6): the resolver interface the reverse DNS
 * worker asks, and the one it asks by default, node:dns's Resolver over the
 * resolvers of DNS_SERVERS (the system's when unset), one try, at most
 * 2 seconds (a lookup that is not answered by then is cancelled and counts
 * as failed). The demo supplies a resolver of its own (its simulated
 * answers) in the same place.
 */
import { Resolver } from 'node:dns/promises';

export interface PtrResolver {
  /** The PTR names of an address; rejects when there is none or the lookup fails. */
  reverse(address: string): Promise<string[]>;
}

export const LOOKUP_TIMEOUT_MS = 2_000;

export class SystemPtrResolver implements PtrResolver {
  constructor(
    private readonly servers: readonly string[] = [],
    private readonly timeoutMs: number = LOOKUP_TIMEOUT_MS,
  ) {}

  async reverse(address: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: this.timeoutMs, tries: 1 });
    if (this.servers.length > 0) resolver.setServers([...this.servers]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([resolver.reverse(address), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
