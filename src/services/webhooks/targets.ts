/**
 * Where a webhook may point (CONTRACT C8.5): http(s) URLs whose host is not
 * a loopback, private, link-local or otherwise internal address, unless
 * WEBHOOK_ALLOW_PRIVATE=1. Checked when a webhook is created or updated (an
 * address in the URL, or what its name resolves to now), and again at every
 * delivery, on the addresses the connection actually uses (`guardedLookup`
 * is the socket's lookup), so a name cannot be pointed inside later.
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is loopback, private, link-local, shared, multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) return blocked.check(mapped[1] as string, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Why `raw` cannot be a webhook URL, or undefined when it can. Resolves the name (a name that does not resolve yet is allowed). */
export async function refusalOf(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (allowPrivate) return undefined;
  const host = hostOf(url);
  if (net.isIP(host) !== 0) return isPrivateAddress(host) ? 'must not point to a loopback or private address' : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point to a loopback or private address';
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    if (addresses.some((entry) => isPrivateAddress(entry.address))) return 'must not point to a loopback or private address';
  } catch {
    // not resolvable now: checked again at every delivery
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** How names are resolved: the system's resolver, or a stand-in (tests answer names of their own). */
export type Resolve = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A socket lookup that refuses private addresses (unless allowed), so the
 * connection uses only checked addresses. Also used by company enrichment
 * (C6.7) to read websites under the same rules.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = dns.lookup as Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '');
      const list = addresses as LookupAddress[];
      if (!allowPrivate && list.some((entry) => isPrivateAddress(entry.address))) {
        return callback(new TargetRefused(`${hostname} resolves to a loopback or private address`), '');
      }
      if (options.all === true) return callback(null, list);
      const first = list[0];
      if (first === undefined) return callback(new TargetRefused(`${hostname} has no address`), '');
      callback(null, first.address, first.family);
    });
  };
}

/** Checks an address literal in a URL at delivery time (no lookup happens for one). */
export function literalRefusal(raw: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const url = new URL(raw);
  const host = hostOf(url);
  if (net.isIP(host) !== 0 && isPrivateAddress(host)) return `${host} is a loopback or private address`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback address`;
  return undefined;
}
