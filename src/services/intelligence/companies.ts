/**
 * Companies recognised from what ingestion sees (CONTRACT C6.1;
 * docs/intelligence.md, "Companies"): the company of a business email's
 * domain or of a business network, found in the workspace (by domain or
 * name, lower-case) or created with what is known and "" for the rest, and
 * the `company_match` a lead carries. Runs inside the ingest transaction.
 */
import type { TenantRepositories } from '../../repositories/index.js';
import { classifyEmail, nameFromDomain } from '../../intelligence/email-domain.js';
import type { VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import type { JsonObject } from '../../schemas/json.js';
import { newId } from '../ids.js';

export interface CompanyLink {
  companyId: string;
  /** what a lead keeps in properties.company_match */
  match: JsonObject;
}

async function companyByDomain(repos: TenantRepositories, domain: string, at: string): Promise<string> {
  const found = await repos.companies.findByDomain(domain);
  if (found !== undefined) return found.id;
  const id = newId();
  await repos.companies.insertMany([
    { id, name: nameFromDomain(domain), domain, description: '', employees: '', main_industry: '', created_at: at },
  ]);
  return id;
}

/** The company of a business email, created when absent; undefined for free-mail, disposable and unknown domains. */
export async function companyOfEmail(repos: TenantRepositories, email: string, at: string): Promise<CompanyLink | undefined> {
  const { kind, domain } = classifyEmail(email);
  if (kind !== 'business' || domain === null) return undefined;
  return { companyId: await companyByDomain(repos, domain, at), match: { source: 'email', domain, confidence: 1 } };
}

/** The company a business network names (by organisation name), created when absent. */
export async function companyOfNetwork(repos: TenantRepositories, network: VisitorNetwork, at: string): Promise<string> {
  const found = await repos.companies.findByName(network.organization);
  if (found !== undefined) return found.id;
  const id = newId();
  await repos.companies.insertMany([
    { id, name: network.organization, domain: '', description: '', employees: '', main_industry: '', created_at: at },
  ]);
  return id;
}

export function networkMatch(network: VisitorNetwork): JsonObject {
  return { source: 'network', asn: network.asn, organization: network.organization, confidence: network.confidence };
}
