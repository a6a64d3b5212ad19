/**
 * What the address of a request says about its network (CONTRACT C6.1):
 * the organisation from the shipped ASN ranges, its class, and for a
 * business the confidence that it is one company's own network. Kept on the
 * visitor (visitors.network); a business above the threshold names a company.
 */
import type { JsonObject } from '../../schemas/json.js';
import { lookupNetwork } from './asn-ranges.js';
import { classifyNetwork, COMPANY_MATCH_THRESHOLD, type NetworkClass } from './classify-network.js';

export interface VisitorNetwork {
  class: NetworkClass;
  asn: number;
  organization: string;
  confidence: number;
  /** the company the visit names, once linked: the business network's, a rule's (C6.8) or its reverse DNS name's (C6.6) */
  company_id?: string;
  /** the company_match of a company linked by a rule or by reverse DNS (a network's own is made from the fields above) */
  match?: JsonObject;
  /** the rule that decided the network's company (or that it names none), so a new or deleted rule is applied to the next events */
  rule_id?: string;
}

export function networkOf(address: string | undefined): VisitorNetwork | null {
  if (address === undefined || address === '') return null;
  const network = lookupNetwork(address);
  if (network === undefined || network.organization === '') return null;
  const verdict = classifyNetwork(network);
  return { class: verdict.class, asn: network.asn, organization: network.organization, confidence: verdict.confidence };
}

/**
 * Whether a visit from this network is looked up in reverse DNS when its
 * network names no company (C6.6): access networks and businesses below the
 * threshold, where a company's office line may carry its own name. Hosting
 * and VPN addresses are servers' and relays' (their PTR names the hosted
 * site, not the visitor), mobile ones are generic, and an education
 * network's name is the institution's, which names no company either.
 */
export function reverseDnsWorthy(network: VisitorNetwork | null): boolean {
  return network === null || network.class === 'isp' || (network.class === 'business' && !namesCompany(network));
}

export function namesCompany(network: VisitorNetwork | null): network is VisitorNetwork {
  return network !== null && network.class === 'business' && network.confidence >= COMPANY_MATCH_THRESHOLD;
}
