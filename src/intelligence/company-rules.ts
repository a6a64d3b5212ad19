/**
 * Company rules as ingestion and the reverse DNS worker apply them
 * (CONTRACT C6.8; docs/intelligence.md, "Company rules"): the match of a
 * rule read and normalised (an AS number, a CIDR range, a domain), and a
 * workspace's rules as one set answering which rule, if any, holds for a
 * visit's address and network or for a domain. The most specific wins: a
 * CIDR range over an AS number (the longest prefix first), a domain over
 * its parent domains.
 */
import net from 'node:net';
import { parse } from 'tldts';

export type RuleMatch = { asn: number } | { cidr: string } | { domain: string };

export interface CompanyRule {
  id: string;
  match_kind: 'asn' | 'cidr' | 'domain';
  match_value: string;
  company_id: string | null;
  not_a_company: boolean;
}

/** The largest 32-bit AS number. */
export const MAX_ASN = 4_294_967_295;

/** A CIDR range in canonical form (the network address, lower case), or undefined when it is not one. */
export function canonicalCidr(text: string): string | undefined {
  const match = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(text.trim());
  if (match === null) return undefined;
  const family = net.isIP(match[1]!);
  const prefix = Number(match[2]);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
  // the address as written, lower case: the block list matches by prefix either way
  return `${match[1]!.toLowerCase()}/${prefix}`;
}

/** A domain rule's domain: a host name with a public suffix, lower case, without a trailing dot; undefined otherwise. */
export function canonicalDomain(text: string): string | undefined {
  const host = text.trim().toLowerCase().replace(/\.$/, '');
  if (host === '' || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return undefined;
  const parsed = parse(host);
  if (parsed.isIp === true || parsed.domain === null || parsed.isIcann !== true || parsed.hostname !== host) return undefined;
  return host;
}

interface CidrRule {
  rule: CompanyRule;
  prefix: number;
  list: net.BlockList;
  family: 'ipv4' | 'ipv6';
}

/** A workspace's rules, ready to match. */
export class RuleSet {
  readonly #byAsn = new Map<number, CompanyRule>();
  readonly #byDomain = new Map<string, CompanyRule>();
  readonly #cidrs: CidrRule[] = [];

  constructor(rules: readonly CompanyRule[]) {
    for (const rule of rules) {
      if (rule.match_kind === 'asn') this.#byAsn.set(Number(rule.match_value), rule);
      else if (rule.match_kind === 'domain') this.#byDomain.set(rule.match_value, rule);
      else {
        const [address = '', prefix = '0'] = rule.match_value.split('/');
        const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
        const list = new net.BlockList();
        list.addSubnet(address, Number(prefix), family);
        this.#cidrs.push({ rule, prefix: Number(prefix), list, family });
      }
    }
    this.#cidrs.sort((a, b) => b.prefix - a.prefix);
  }

  get empty(): boolean {
    return this.#byAsn.size === 0 && this.#byDomain.size === 0 && this.#cidrs.length === 0;
  }

  /** The rule for a visit from `address` in AS `asn`: its CIDR range's (longest prefix), else its AS number's. */
  forNetwork(address: string | undefined, asn: number | undefined): CompanyRule | undefined {
    if (address !== undefined && this.#cidrs.length > 0) {
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
      const plain = mapped === null ? address : mapped[1]!;
      const family = net.isIP(plain);
      if (family !== 0) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        for (const cidr of this.#cidrs) if (cidr.family === type && cidr.list.check(plain, type)) return cidr.rule;
      }
    }
    return asn === undefined ? undefined : this.#byAsn.get(asn);
  }

  /** The rule for a domain (an email's, a PTR name's): its own, else its nearest parent's. */
  forDomain(domain: string | null | undefined): CompanyRule | undefined {
    if (domain === null || domain === undefined || this.#byDomain.size === 0) return undefined;
    let candidate = domain.toLowerCase();
    for (;;) {
      const rule = this.#byDomain.get(candidate);
      if (rule !== undefined) return rule;
      const dot = candidate.indexOf('.');
      if (dot === -1) return undefined;
      candidate = candidate.slice(dot + 1);
    }
  }
}

export const NO_RULES = new RuleSet([]);
