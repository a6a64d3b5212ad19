/**
 * Where the demo's visitors connect from (CONTRACT C5.8, C6.5, C6.6): real
 * networks of the shipped address ranges, so that the same pipeline as any
 * workspace's names their companies. Home visitors come from access
 * providers' addresses, whose reverse DNS names are the providers' generic
 * customer-line names; people at work come from their company's office line
 * at an access provider, whose reverse DNS name is a host of the company's
 * domain; a few come from businesses' own networks, which name their
 * companies by themselves. The reverse DNS answers are the demo's own: a
 * resolver the demo hands to the reverse DNS worker in place of node's DNS.
 */
import type { Faker } from '@faker-js/faker';
import { ipv4RangesOf, networkByAsn } from '../../intelligence/networks/asn-ranges.js';
import { classifyNetwork } from '../../intelligence/networks/classify-network.js';
import { namesCompany, type VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import type { PtrResolver } from '../intelligence/reverse-dns.js';

/** Access providers (Comcast, Deutsche Telekom, BT, Orange France, Telia, KPN): home and office lines. */
const ACCESS = [
  { asn: 7922, line: (address: string) => `c-${address.replaceAll('.', '-')}.hsd1.ca.comcast.net` },
  { asn: 3320, line: (address: string) => `p${hex(address)}.dip0.t-ipconnect.de` },
  { asn: 2856, line: (address: string) => `host-${address.replaceAll('.', '-')}.range86-1.btcentralplus.com` },
  { asn: 3215, line: (address: string) => `lfbn-${address.split('.').slice(2).join('-')}.w90-1.abo.wanadoo.fr` },
  { asn: 3301, line: (address: string) => `${address.split('.').reverse().join('-')}.customer.bahnhof.se` },
  { asn: 1136, line: (address: string) => `${address.replaceAll('.', '-')}.dynamic.kpn.net` },
];
/** Businesses' own networks (a bank, a chemicals maker, an investment bank, an insurer, a carmaker). */
const BUSINESSES = [8373, 12349, 9084, 29641, 8590, 20705];

function hex(address: string): string {
  return address
    .split('.')
    .map((octet) => Number(octet).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function addressIn(faker: Faker, asn: number): string {
  const ranges = ipv4RangesOf(asn).filter(([first, last]) => last - first >= 255);
  const [first, last] = faker.helpers.arrayElement(ranges);
  const value = faker.number.int({ min: first + 1, max: last - 1 });
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The demo's addresses and what reverse DNS answers for them. */
export class DemoNetworks implements PtrResolver {
  readonly #names = new Map<string, string>();
  readonly #businesses: number[];

  constructor(private readonly faker: Faker) {
    // only networks the classifier names as businesses: a change of the rules or the ranges changes the demo, never its pipeline
    this.#businesses = BUSINESSES.filter((asn) => {
      const network = networkByAsn(asn);
      if (network === undefined) return false;
      const verdict = classifyNetwork(network);
      return namesCompany({ class: verdict.class, asn, organization: network.organization, confidence: verdict.confidence } satisfies VisitorNetwork);
    });
  }

  /** A home connection at an access provider: its reverse DNS name is the provider's generic one. */
  home(): string {
    const provider = this.faker.helpers.arrayElement(ACCESS);
    const address = addressIn(this.faker, provider.asn);
    this.#names.set(address, provider.line(address));
    return address;
  }

  /** A company's office line at an access provider: its reverse DNS name is a host of the company's domain. */
  office(domain: string): string {
    const provider = this.faker.helpers.arrayElement(ACCESS);
    const address = addressIn(this.faker, provider.asn);
    this.#names.set(address, `${this.faker.helpers.arrayElement(['gw', 'mail', 'fw1', 'office', 'edge'])}.${domain}`);
    return address;
  }

  /** An address in a business's own network (no reverse DNS name: the network names the company). */
  business(): string {
    if (this.#businesses.length === 0) return this.home();
    return addressIn(this.faker, this.faker.helpers.arrayElement(this.#businesses));
  }

  async reverse(address: string): Promise<string[]> {
    const name = this.#names.get(address);
    if (name === undefined) throw Object.assign(new Error(`no PTR record for ${address}`), { code: 'ENOTFOUND' });
    return [name];
  }
}
