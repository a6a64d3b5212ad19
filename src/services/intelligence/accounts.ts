/**
 * Accounts (CONTRACT C6.9; docs/intelligence.md, "Accounts"): a company's
 * account score read from its visitors of the last 30 days and its people,
 * for the engagement endpoint (computed when asked) and for the companies
 * list (kept in `companies.account_score` by the intelligence worker, for
 * the companies of the visitors it refreshed).
 */
import { scoreAccount, type AccountScore } from '../../intelligence/account-score.js';
import { emptyAggregates, WINDOW_DAYS, type VisitorAggregates } from '../../intelligence/aggregates.js';
import { classifyEmail } from '../../intelligence/email-domain.js';
import type { FitProfile, IdealCustomer } from '../../intelligence/scoring.js';
import type { TenantRepositories } from '../../repositories/index.js';
import type { Company } from '../../schemas/resources.js';
import { formatInstant } from '../../schemas/instants.js';

const DAY_MS = 86_400_000;
/** at most this many of a company's visitors (the latest seen) count in its score */
const MAX_VISITORS = 5_000;
/** at most this many of its people (the newest) are looked at for the best fit */
const MAX_PEOPLE = 1_000;

/** The company's account score at `now`. */
export async function accountScoreOf(repos: TenantRepositories, company: Company, ideal: IdealCustomer, now: string): Promise<AccountScore> {
  const since = formatInstant(Date.parse(now) - WINDOW_DAYS * DAY_MS);
  const visitors = await repos.visitors.forCompany(company.id, since, MAX_VISITORS);
  const people = await repos.identities.peopleOfCompany(company.id, MAX_PEOPLE);
  const profiles: FitProfile[] = people.map((person) => {
    const email = person.email === null ? null : classifyEmail(person.email);
    return { emailKind: email?.kind ?? null, emailDomain: email?.domain ?? null, company, country: person.country };
  });
  for (const visitor of visitors) {
    if (visitor.identity_id === null) profiles.push({ emailKind: null, emailDomain: null, company, country: visitor.last_country });
  }
  const aggregates = visitors.map((visitor) => (visitor.aggregates === null ? emptyAggregates() : (JSON.parse(visitor.aggregates) as VisitorAggregates)));
  return scoreAccount(aggregates, profiles, ideal, now);
}

/** Brings a company's stored account score up to date (the companies list sorts by it). */
export async function refreshAccount(repos: TenantRepositories, companyId: string, ideal: IdealCustomer, now: string): Promise<void> {
  const company = await repos.companies.findById(companyId);
  if (company === undefined) return;
  const { score } = await accountScoreOf(repos, company, ideal, now);
  await repos.companies.setAccountScore(companyId, score);
}
