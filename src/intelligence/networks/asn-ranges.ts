/**
 * Address → network organisation, from the ranges that ship in
 * @ip-location-db/asn (RouteViews, the regional registries and DB-IP,
 * CC BY 4.0): IPv4 and IPv6 files of inclusive numeric ranges, each with an
 * AS number and its organisation. Each family is read once, at its first
 * lookup (about 0.2 s for IPv4), into sorted typed arrays searched by
 * bisection; nothing is downloaded. Parsed by hand: the files are four
 * plain columns and a CSV library would cost several times the memory.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface Network {
  asn: number;
  organization: string;
  /** how many IPv4 addresses the AS announces in all: a business rarely holds more than a /16 */
  ipv4Addresses: number;
  /** whether the AS announces IPv6 ranges too: access and hosting networks nearly all do, most businesses' own do not */
  ipv6: boolean;
}

interface Table<N> {
  starts: ArrayLike<N>;
  ends: ArrayLike<N>;
  asns: Uint32Array;
  organizations: Map<number, string>;
  /** addresses per AS (IPv4 only) */
  sizes: Map<number, number>;
}

const directory = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json'));

function* rows(file: string): Generator<[string, string, number, string]> {
  const text = fs.readFileSync(path.join(directory, file), 'utf8');
  let position = 0;
  while (position < text.length) {
    let end = text.indexOf('\n', position);
    if (end === -1) end = text.length;
    const first = text.indexOf(',', position);
    const second = text.indexOf(',', first + 1);
    const third = text.indexOf(',', second + 1);
    if (first > position && second > first && third > second && third < end) {
      let organization = text.slice(third + 1, end).replace(/\r$/, '');
      if (organization.startsWith('"')) organization = organization.slice(1, -1).replace(/""/g, '"');
      yield [text.slice(position, first), text.slice(first + 1, second), Number(text.slice(second + 1, third)), organization];
    }
    position = end + 1;
  }
}

function load<N>(file: string, parse: (text: string) => N): Table<N> {
  const starts: N[] = [];
  const ends: N[] = [];
  const asns: number[] = [];
  const organizations = new Map<number, string>();
  const sizes = new Map<number, number>();
  for (const [start, end, asn, organization] of rows(file)) {
    const first = parse(start);
    const last = parse(end);
    starts.push(first);
    ends.push(last);
    asns.push(asn);
    if (!organizations.has(asn)) organizations.set(asn, organization);
    if (typeof first === 'number') sizes.set(asn, (sizes.get(asn) ?? 0) + (last as number) - first + 1);
  }
  return { starts, ends, asns: Uint32Array.from(asns), organizations, sizes };
}

function find<N extends number | bigint>(table: Table<N>, address: N, sizes: Map<number, number>): Network | undefined {
  let low = 0;
  let high = table.starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((table.starts[middle] as N) > address) high = middle - 1;
    else low = middle + 1;
  }
  if (high < 0 || (table.ends[high] as N) < address) return undefined;
  const asn = table.asns[high] as number;
  return { asn, organization: table.organizations.get(asn) ?? '', ipv4Addresses: sizes.get(asn) ?? 0, ipv6: announcesIpv6(asn) };
}

let ipv4: Table<number> | undefined;
let ipv6: Table<bigint> | undefined;
let ipv6Asns: Set<number> | undefined;

/** The AS numbers with IPv6 ranges: one pass over the IPv6 file's third column, without loading its ranges. */
function announcesIpv6(asn: number): boolean {
  if (ipv6Asns === undefined) {
    ipv6Asns = new Set(ipv6?.asns ?? []);
    if (ipv6 === undefined) for (const [, , number] of rows('asn-ipv6-num.csv')) ipv6Asns.add(number);
  }
  return ipv6Asns.has(asn);
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv6Number(address: string): bigint {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return BigInt(ipv4Number(mapped[1]!)) + 0xffff00000000n;
  const [head = '', tail = ''] = address.split('::');
  const parts = (text: string) => (text === '' ? [] : text.split(':'));
  const left = parts(head);
  const right = parts(tail);
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.reduce((value, group) => (value << 16n) + BigInt(parseInt(group, 16)), 0n);
}

function ipv4Table(): Table<number> {
  ipv4 ??= load('asn-ipv4-num.csv', Number);
  return ipv4;
}

/** The network of an AS number as the ranges name it (the evaluation set and the demo read networks by number), or undefined. */
export function networkByAsn(asn: number): Network | undefined {
  const table = ipv4Table();
  let organization = table.organizations.get(asn);
  if (organization === undefined) {
    ipv6 ??= load('asn-ipv6-num.csv', BigInt);
    organization = ipv6.organizations.get(asn);
  }
  return organization === undefined ? undefined : { asn, organization, ipv4Addresses: table.sizes.get(asn) ?? 0, ipv6: announcesIpv6(asn) };
}

/** The IPv4 ranges an AS announces, as [first, last] address numbers (the demo picks its visitors' addresses in them). */
export function ipv4RangesOf(asn: number): [number, number][] {
  const table = ipv4Table();
  const ranges: [number, number][] = [];
  for (let index = 0; index < table.asns.length; index += 1) {
    if (table.asns[index] === asn) ranges.push([table.starts[index] as number, table.ends[index] as number]);
  }
  return ranges;
}

/** The network an address belongs to, or undefined when the ranges hold none. */
export function lookupNetwork(address: string): Network | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped === null ? address : mapped[1]!;
  const family = net.isIP(plain);
  if (family === 0) return undefined;
  const v4 = ipv4Table();
  if (family === 4) return find(v4, ipv4Number(plain), v4.sizes);
  ipv6 ??= load('asn-ipv6-num.csv', BigInt);
  return find(ipv6, ipv6Number(plain), v4.sizes);
}
