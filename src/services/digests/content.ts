/**
 * What one digest tells (CONTRACT C10.4), read for its period through the
 * workspace's repositories: the new qualified leads, the most engaged
 * companies (scored as accounts at the period's end, as the engagement
 * endpoint scores them: services/intelligence/accounts.ts) and the people
 * who came back.
 */
import { resolveSettings, type IntelligenceSettingsInput } from '../../intelligence/settings.js';
import type { TenantRepositories } from '../../repositories/index.js';
import type { DigestLead, DigestPerson } from '../../repositories/tenant/digest-content.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { accountScoreOf } from '../intelligence/accounts.js';
import type { DigestPeriod } from './period.js';

/** rows shown per section */
export const DIGEST_ROWS = 10;
export const DIGEST_COMPANIES = 5;
/** companies scored to find the most engaged (by their stored account score) */
const COMPANY_CANDIDATES = 20;
const REASONS_SHOWN = 2;

export interface DigestCompany {
  id: string;
  name: string;
  domain: string | null;
  score: number;
  reasons: string[];
}

export interface DigestContent {
  workspace: string;
  timeZone: string;
  period: DigestPeriod;
  leads: { items: DigestLead[]; total: number };
  companies: DigestCompany[];
  people: DigestPerson[];
}

export const isEmptyDigest = (content: DigestContent) => content.leads.total === 0 && content.companies.length === 0 && content.people.length === 0;

export async function digestContent(repos: TenantRepositories, period: DigestPeriod, workspace: string, timeZone: string): Promise<DigestContent> {
  const from = formatInstant(period.from);
  const to = formatInstant(period.sendAt);
  const leads = await repos.digestContent.qualifiedLeads(from, to, DIGEST_ROWS);
  const settings = resolveSettings((await repos.settings.intelligence()) as IntelligenceSettingsInput | null);
  const companies: DigestCompany[] = [];
  for (const id of await repos.digestContent.engagedCandidates(from, COMPANY_CANDIDATES)) {
    const company = await repos.companies.findById(id);
    if (company === undefined) continue;
    const account = await accountScoreOf(repos, company, settings.ideal, to);
    if (account.score > 0) companies.push({ id, name: company.name, domain: company.domain, score: account.score, reasons: account.reasons.slice(0, REASONS_SHOWN) });
  }
  companies.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  const people = await repos.digestContent.returningPeople(from, to, DIGEST_ROWS);
  return { workspace, timeZone, period, leads, companies: companies.slice(0, DIGEST_COMPANIES), people };
}
