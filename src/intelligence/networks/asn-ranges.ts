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
  return { asn, organization: table.organizations.get(asn) ?? '', ipv4Addresses: sizes.get(asn) ?? 0 };
}

let ipv4: Table<number> | undefined;
let ipv6: Table<bigint> | undefined;

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

/** The network an address belongs to, or undefined when the ranges hold none. */
export function lookupNetwork(address: string): Network | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped === null ? address : mapped[1]!;
  const family = net.isIP(plain);
  if (family === 0) return undefined;
  ipv4 ??= load('asn-ipv4-num.csv', Number);
  if (family === 4) return find(ipv4, ipv4Number(plain), ipv4.sizes);
  ipv6 ??= load('asn-ipv6-num.csv', BigInt);
  return find(ipv6, ipv6Number(plain), ipv4.sizes);
}
