/**
 * Which kind of network an organisation runs (CONTRACT C6.5;
 * docs/intelligence.md, "From the network"): hosting (with cloud, CDN and
 * content), VPN, mobile, education, access provider, or a business, and for
 * a business how sure it is that the network is one company's own. Only a
 * business at or above the threshold names the visitor's company; hosting
 * traffic is kept out of scoring. The rules prefer a missed company to a
 * wrong one: the known lists first, then what the name says, then the
 * network's size.
 */
import type { Network } from './asn-ranges.js';
import { ACCESS_ASNS, EDUCATION_ASNS, HOSTING_ASNS, MOBILE_ASNS, VPN_ASNS } from './known-networks.js';
import {
  ACCESS_WORDS,
  COMPANY_FORMS,
  EDUCATION_WORDS,
  GENERIC_NETWORK_WORDS,
  HOSTING_WORDS,
  INDUSTRY_WORDS,
  MOBILE_WORDS,
  type WordRule,
} from './network-words.js';

export type NetworkClass = 'business' | 'isp' | 'hosting' | 'vpn' | 'mobile' | 'education';

export interface NetworkVerdict {
  class: NetworkClass;
  /** for a business: how sure it is one company's own network, 0–1 */
  confidence: number;
}

/** A business network must be at least this sure to name a company. */
export const COMPANY_MATCH_THRESHOLD = 0.6;
/** More than a /16 of IPv4 addresses is an operator's size, not a business's (unless its name says its industry). */
const LARGE_NETWORK = 65_536;
/** More than a /12 is an operator's whatever its name says. */
const HUGE_NETWORK = 1_048_576;

interface FoldedName {
  /** ' word word … ' */
  spaced: string;
  tokens: Set<string>;
}

/** Lower case, accents removed, `&` kept, every other mark a space. */
export function foldName(name: string): FoldedName {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9&]+/g, ' ')
    .trim();
  return { spaced: ` ${folded} `, tokens: new Set(folded.split(' ').filter((word) => word !== '')) };
}

function matches(name: FoldedName, rule: WordRule): boolean {
  for (const token of rule.tokens) {
    if (token.includes(' ') ? name.spaced.includes(` ${token} `) : name.tokens.has(token)) return true;
  }
  return rule.stems.some((stem) => name.spaced.includes(stem));
}

const hasForm = (name: FoldedName) => COMPANY_FORMS.some((form) => (form.includes(' ') ? name.spaced.includes(` ${form} `) : name.tokens.has(form)));

export function classifyNetwork(network: Network): NetworkVerdict {
  const { asn } = network;
  if (HOSTING_ASNS.has(asn)) return { class: 'hosting', confidence: 0 };
  if (VPN_ASNS.has(asn)) return { class: 'vpn', confidence: 0 };
  if (MOBILE_ASNS.has(asn)) return { class: 'mobile', confidence: 0 };
  if (EDUCATION_ASNS.has(asn)) return { class: 'education', confidence: 0 };
  if (ACCESS_ASNS.has(asn)) return { class: 'isp', confidence: 0 };
  return classifyByName(network);
}

/** The rules without the known lists: what the name and size say (the evaluation measures them alone too). */
export function classifyByName(network: Network): NetworkVerdict {
  const name = foldName(network.organization);
  if (matches(name, HOSTING_WORDS)) return { class: 'hosting', confidence: 0 };
  if (matches(name, MOBILE_WORDS)) return { class: 'mobile', confidence: 0 };
  if (matches(name, EDUCATION_WORDS)) return { class: 'education', confidence: 0 };
  if (matches(name, ACCESS_WORDS)) return { class: 'isp', confidence: 0 };
  if (network.ipv4Addresses > HUGE_NETWORK) return { class: 'isp', confidence: 0 };
  const industry = matches(name, INDUSTRY_WORDS);
  let confidence = 0.5;
  if (hasForm(name)) confidence += 0.15;
  if (industry) confidence += 0.3;
  if (matches(name, GENERIC_NETWORK_WORDS)) confidence -= 0.3;
  if (network.ipv4Addresses > LARGE_NETWORK && !industry) confidence -= 0.3;
  if (network.ipv6 && !industry) confidence -= 0.15;
  return { class: 'business', confidence: Math.max(0, Math.min(1, Math.round(confidence * 100) / 100)) };
}
