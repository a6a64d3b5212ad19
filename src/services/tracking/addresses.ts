/**
 * Client addresses as tracking keeps them (CONTRACT C5.5): IPv4-mapped IPv6
 * addresses read as IPv4, what IP_STORAGE keeps (the whole address, its /24
 * or /48, or nothing), and whether an address is public (only public
 * addresses are looked up in the geolocation database).
 */
import net from 'node:net';
import type { IpStorage } from '../../config.js';

const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

/** The address as compared and stored: lower case, without a zone, IPv4-mapped IPv6 as IPv4; undefined when it is none. */
export function normalizeAddress(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const address = text.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped !== null && net.isIPv4(mapped[1] as string)) return mapped[1];
  return net.isIP(address) === 0 ? undefined : address;
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address. */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  let left = parse(head);
  let right = tail === undefined ? [] : parse(tail);
  const lastPart = (tail === undefined ? left : right).at(-1) ?? '';
  if (lastPart.includes('.')) {
    const octets = lastPart.split('.').map(Number) as [number, number, number, number];
    const groups = [((octets[0] << 8) | octets[1]).toString(16), ((octets[2] << 8) | octets[3]).toString(16)];
    if (tail === undefined) left = [...left.slice(0, -1), ...groups];
    else right = [...right.slice(0, -1), ...groups];
  }
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((group) => parseInt(group, 16));
}

/** The address with all but its first `keep` groups zeroed, in the compressed form URLs use. */
function truncateIpv6(address: string, keep: number): string {
  const groups = ipv6Groups(address).map((group, index) => (index < keep ? group : 0));
  return new URL(`http://[${groups.map((group) => group.toString(16)).join(':')}]`).hostname.slice(1, -1);
}

/** What IP_STORAGE keeps of a (normalized) address. */
export function storedAddress(address: string | undefined, storage: IpStorage): string | null {
  if (address === undefined || storage === 'none') return null;
  if (storage === 'full') return address;
  if (net.isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0`;
  return truncateIpv6(address, 3);
}
