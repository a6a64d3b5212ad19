/**
/**
 * Companies recognised from what ingestion sees (CONTRACT C6.1, C6.5, C6.6,
 * C6.8; docs/intelligence.md, "Companies"): the company of a business
 * email's domain, of a business network, of a reverse DNS name or of a
 * workspace's rule, found in the workspace (by domain or name, lower-case)
 * or created with what is known and "" for the rest, and the
 * `company_match` a lead carries. Every company these sources make is made
 * here (companyByDomain, companyOfNetwork), so whatever follows a new
 * company follows each of them alike: it is announced (`company.created`,
 * C10.2) and, when it has a domain, scheduled for enrichment (C6.7), in the
 * transaction that makes it; its name is marked as made from the domain
 * (or the network), so enrichment may replace it. Also the company a
 * visitor's visits name (C6.9): its identity's, else its network's. Runs
 * inside the caller's transaction.
 */
import type { TenantRepositories } from '../../repositories/index.js';
import type { NewCompany } from '../../repositories/tenant/companies.repository.js';
import { NO_RULES, type CompanyRule, type RuleSet } from '../../intelligence/company-rules.js';
import { classifyEmail, nameFromDomain } from '../../intelligence/email-domain.js';
import type { VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import type { JsonObject } from '../../schemas/json.js';
import { newId } from '../ids.js';
import { emitEvent } from '../webhooks/events.js';

export interface CompanyLink {
  companyId: string;
  /** what a lead keeps in properties.company_match */
  match: JsonObject;
}

/** The confidence of each source in properties.company_match (docs/intelligence.md, "Companies"). */
export const MATCH_CONFIDENCE = { email: 1, rule: 1, reverse_dns: 0.7 } as const;

/**
 * Writes a company an automatic source found, announces it and, when it has
 * a domain, schedules its enrichment at `at` (C6.7).
 */
export async function createFoundCompany(repos: TenantRepositories, company: NewCompany, at: string): Promise<void> {
  await repos.companies.insertMany([company]);
  const { auto_fields: _sources, ...resource } = company;
  await emitEvent(repos, 'company.created', resource, at);
  if (company.domain !== null && company.domain !== '') await repos.enrichmentQueue.schedule([company.id], at);
}

/** The workspace's company with `domain`, created (as C6.1) when absent. */
export async function companyByDomain(repos: TenantRepositories, domain: string, at: string): Promise<string> {
  const found = await repos.companies.findByDomain(domain);
  if (found !== undefined) return found.id;
  const id = newId();
  await createFoundCompany(
    repos,
    { id, name: nameFromDomain(domain), domain, description: '', employees: '', main_industry: '', created_at: at, auto_fields: { name: 'domain' } },
    at,
  );
  return id;
}

/** A rule's link: its company with `source: "rule"`; undefined for a rule that says "not a company". */
export function ruleLink(rule: CompanyRule, what: JsonObject): CompanyLink | undefined {
  if (rule.not_a_company || rule.company_id === null) return undefined;
  return { companyId: rule.company_id, match: { source: 'rule', rule_id: rule.id, ...what, confidence: MATCH_CONFIDENCE.rule } };
}

/**
 * The company of a business email, created when absent, unless a domain
 * rule says otherwise; undefined for free-mail, disposable and unknown
 * domains and for domains a rule marks as no company.
 */
export async function companyOfEmail(repos: TenantRepositories, email: string, at: string, rules: RuleSet = NO_RULES): Promise<CompanyLink | undefined> {
  const { kind, domain } = classifyEmail(email);
  if (kind !== 'business' || domain === null) return undefined;
  const rule = rules.forDomain(domain);
  if (rule !== undefined) return ruleLink(rule, { domain });
  return { companyId: await companyByDomain(repos, domain, at), match: { source: 'email', domain, confidence: MATCH_CONFIDENCE.email } };
}

/** The company a business network names (by organisation name), created when absent. */
export async function companyOfNetwork(repos: TenantRepositories, network: VisitorNetwork, at: string): Promise<string> {
  const found = await repos.companies.findByName(network.organization);
  if (found !== undefined) return found.id;
  const id = newId();
  await createFoundCompany(
    repos,
    { id, name: network.organization, domain: '', description: '', employees: '', main_industry: '', created_at: at, auto_fields: { name: 'network' } },
    at,
  );
  return id;
}

/** The company_match of a visitor's network company: the match it was linked with (rule, reverse DNS), else the network's own. */
export function networkMatch(network: VisitorNetwork): JsonObject {
  return network.match ?? { source: 'network', asn: network.asn, organization: network.organization, confidence: network.confidence };
}

/** Links an identity to a company (C6.1), and with it every visitor of the identity (C6.9). */
export async function setIdentityCompany(repos: TenantRepositories, identityId: string, companyId: string): Promise<void> {
  await repos.identities.setCompany(identityId, companyId);
  await repos.visitors.setCompanyOfIdentity(identityId, companyId);
}
