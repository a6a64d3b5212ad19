/**
 * A workspace's company rules (CONTRACT C6.8; docs/intelligence.md,
 * "Company rules"): create, list, read, delete. A rule maps an AS number, a
 * CIDR range or a domain to one of the workspace's companies (another
 * workspace's is 403, C3.7), or marks it as no company's; one rule per
 * match (a second is 409: delete the first). Ingestion applies rules to
 * events received after them: this process at once, others within their
 * cache's 10 seconds.
 */
import { canonicalCidr, canonicalDomain, MAX_ASN, type RuleMatch } from '../../intelligence/company-rules.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { CompanyRuleKind, CompanyRuleRow } from '../../repositories/tenant/company-rules.repository.js';
import { now } from '../../schemas/instants.js';
import { ForbiddenReferenceError, InvalidRequestError, NotFoundError, ServiceError } from '../errors.js';
import { isUuid } from '../../schemas/fields.js';
import { newId, pathId } from '../ids.js';

export interface CompanyRule {
  id: string;
  match: RuleMatch;
  company_id: string | null;
  not_a_company: boolean;
  created_at: string;
}

export interface CompanyRuleInput {
  match: { asn?: number; cidr?: string; domain?: string };
  company_id?: string;
  not_a_company?: boolean;
}

function shown(row: CompanyRuleRow): CompanyRule {
  const match: RuleMatch =
    row.match_kind === 'asn' ? { asn: Number(row.match_value) } : row.match_kind === 'cidr' ? { cidr: row.match_value } : { domain: row.match_value };
  return { id: row.id, match, company_id: row.company_id, not_a_company: row.not_a_company, created_at: row.created_at };
}

const invalid = (field: string, problem: string) => new InvalidRequestError(`${field} ${problem}`, { fields: { [field]: problem } });

/** The rule's match as stored (kind and normalised value); 400 naming the field when it is not one. */
function readMatch(match: CompanyRuleInput['match']): { kind: CompanyRuleKind; value: string } {
  const given = (['asn', 'cidr', 'domain'] as const).filter((key) => match[key] !== undefined);
  if (given.length !== 1) throw invalid('match', 'must hold exactly one of asn, cidr or domain');
  if (match.asn !== undefined) {
    if (!Number.isInteger(match.asn) || match.asn < 1 || match.asn > MAX_ASN) throw invalid('match.asn', `must be an AS number from 1 to ${MAX_ASN}`);
    return { kind: 'asn', value: String(match.asn) };
  }
  if (match.cidr !== undefined) {
    const cidr = canonicalCidr(match.cidr);
    if (cidr === undefined) throw invalid('match.cidr', 'must be an IPv4 or IPv6 range such as 203.0.113.0/24 or 2001:db8::/32');
    return { kind: 'cidr', value: cidr };
  }
  const domain = canonicalDomain(match.domain ?? '');
  if (domain === undefined) throw invalid('match.domain', 'must be a domain name under a public suffix, such as acme.com');
  return { kind: 'domain', value: domain };
}

export class CompanyRulesService {
  constructor(
    private readonly store: WorkspaceStore,
    /** told after a rule is made or deleted (ingestion's cache forgets the workspace's rules) */
    private readonly changed: () => void = () => undefined,
  ) {}

  async create(input: CompanyRuleInput): Promise<CompanyRule> {
    const { kind, value } = readMatch(input.match);
    const notACompany = input.not_a_company === true;
    if (notACompany === (input.company_id !== undefined)) {
      throw new InvalidRequestError('give company_id, or not_a_company: true, but not both', {
        fields: input.company_id === undefined ? { company_id: 'required unless not_a_company is true' } : { not_a_company: 'must be absent or false with company_id' },
      });
    }
    const companyId = input.company_id === undefined ? null : input.company_id.toLowerCase();
    if (companyId !== null && !isUuid(companyId)) throw new ForbiddenReferenceError('company_id');
    const created = await this.store.transaction(async (repos) => {
      if (companyId !== null && !(await repos.companies.exists(companyId))) throw new ForbiddenReferenceError('company_id');
      const existing = (await repos.companyRules.all()).find((rule) => rule.match_kind === kind && rule.match_value === value);
      if (existing !== undefined) {
        throw new ServiceError('conflict', `a rule for ${kind} ${value} exists already; delete it first`, {
          conflict: 'rule_exists',
          fields: { [`match.${kind}`]: 'has a rule already' },
          existing_id: existing.id,
        });
      }
      return repos.companyRules.insert({ id: newId(), match_kind: kind, match_value: value, company_id: companyId, not_a_company: notACompany, created_at: now() });
    });
    this.changed();
    return shown(created);
  }

  async list(page: Page): Promise<PageResult<CompanyRule>> {
    const result = await this.store.repos.companyRules.list(page);
    return { items: result.items.map(shown), total: result.total };
  }

  async get(id: string): Promise<CompanyRule> {
    const row = await this.store.repos.companyRules.findById(pathId(id, 'company_rule'));
    if (row === undefined) throw new NotFoundError('company_rule');
    return shown(row);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.store.repos.companyRules.delete(pathId(id, 'company_rule')))) throw new NotFoundError('company_rule');
    this.changed();
  }
}
