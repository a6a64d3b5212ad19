/**
 * What the address of a request says about its network (CONTRACT C6.1):
 * the organisation from the shipped ASN ranges, its class, and for a
 * business the confidence that it is one company's own network. Kept on the
 * visitor (visitors.network); a business above the threshold names a company.
 */
import { lookupNetwork } from './asn-ranges.js';
import { classifyNetwork, COMPANY_MATCH_THRESHOLD, type NetworkClass } from './classify-network.js';

export interface VisitorNetwork {
  class: NetworkClass;
  asn: number;
  organization: string;
  confidence: number;
  /** the company a business network names, once linked */
  company_id?: string;
}

export function networkOf(address: string | undefined): VisitorNetwork | null {
  if (address === undefined || address === '') return null;
  const network = lookupNetwork(address);
  if (network === undefined || network.organization === '') return null;
  const verdict = classifyNetwork(network);
  return { class: verdict.class, asn: network.asn, organization: network.organization, confidence: verdict.confidence };
}

export function namesCompany(network: VisitorNetwork | null): network is VisitorNetwork {
  return network !== null && network.class === 'business' && network.confidence >= COMPANY_MATCH_THRESHOLD;
}
