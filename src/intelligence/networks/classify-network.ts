/**
 * Which kind of network an organisation runs (docs/intelligence.md,
 * "Companies"): hosting, mobile, education, access provider, or a business,
 * and for a business how confident the match is. Only a business above the
 * threshold names the visitor's company; hosting traffic is kept out of
 * scoring.
 */
import type { Network } from './asn-ranges.js';
import {
  ACCESS_ASNS,
  ACCESS_WORDS,
  COMPANY_FORMS,
  EDUCATION_WORDS,
  GENERIC_NETWORK_WORDS,
  HOSTING_ASNS,
  HOSTING_WORDS,
  MOBILE_WORDS,
} from './known-networks.js';

export type NetworkClass = 'business' | 'isp' | 'hosting' | 'mobile' | 'education';

export interface NetworkVerdict {
  class: NetworkClass;
  /** for a business: how sure it is one company's own network, 0–1 */
  confidence: number;
}

/** A business network must be at least this sure to name a company. */
export const COMPANY_MATCH_THRESHOLD = 0.6;
/** More than a /16 of IPv4 addresses is an operator's size, not a business's. */
const LARGE_NETWORK = 65_536;

function words(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/[,()"']/g, ' ')
    .split(/[\s\-_/]+/)
    .map((word) => word.replace(/\.$/, ''))
    .filter((word) => word !== '');
}

function hasAny(name: string, tokens: readonly string[], list: readonly string[]): boolean {
  const lower = ` ${tokens.join(' ')} `;
  return list.some((entry) => (entry.includes(' ') ? lower.includes(` ${entry} `) : tokens.includes(entry))) || list.some((entry) => entry.includes('&') && name.toLowerCase().includes(entry));
}

export function classifyNetwork(network: Network): NetworkVerdict {
  const tokens = words(network.organization);
  const has = (list: readonly string[]) => hasAny(network.organization, tokens, list);
  if (HOSTING_ASNS.has(network.asn) || has(HOSTING_WORDS)) return { class: 'hosting', confidence: 0 };
  if (has(MOBILE_WORDS)) return { class: 'mobile', confidence: 0 };
  if (has(EDUCATION_WORDS)) return { class: 'education', confidence: 0 };
  if (ACCESS_ASNS.has(network.asn) || has(ACCESS_WORDS)) return { class: 'isp', confidence: 0 };
  let confidence = 0.5;
  if (has(COMPANY_FORMS)) confidence += 0.3;
  if (has(GENERIC_NETWORK_WORDS)) confidence -= 0.2;
  if (network.ipv4Addresses > LARGE_NETWORK) confidence -= 0.3;
  return { class: 'business', confidence: Math.max(0, Math.min(1, Math.round(confidence * 100) / 100)) };
}
