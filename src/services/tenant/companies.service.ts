/**
 * Companies of a workspace: read-only through the API, written by import,
 * seed, lead intelligence (C6.1) and enrichment (C6.7), with the identities
 * linked to each, and each company as an account (C6.9): its engagement
 * over a window, its activity, and the dashboard's list of accounts
 * sorted by last visit or account score, and its page's leads and
 * anonymous visitors (C9.4).
 */
import { resolveSettings, type IntelligenceSettingsInput } from '../../intelligence/settings.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { CompanyDay, TopPath } from '../../repositories/tenant/account-activity.repository.js';
import type { AccountItem, AccountOrder, CompanyFilters } from '../../repositories/tenant/companies.repository.js';
import type { AnonymousVisitor } from '../../repositories/tenant/visitors.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import type { Activity, Company, Identity, Lead } from '../../schemas/resources.js';
import { NotFoundError } from '../errors.js';
import { pathId } from '../ids.js';
import { accountScoreOf } from '../intelligence/accounts.js';

const DAY_MS = 86_400_000;
/** how many of a company's most viewed pages its engagement shows */
export const TOP_PAGES = 10;
/** how many of its anonymous visitors, the latest seen, the dashboard's company page shows */
export const RECENT_ANONYMOUS = 10;

/** The first instant of a window of `days` UTC days ending today (today included). */
function windowStart(days: number, at: number): string {
  return formatInstant(Date.parse(`${formatInstant(at).slice(0, 10)}T00:00:00.000Z`) - (days - 1) * DAY_MS);
}

/** A company's engagement over the last `days` days (C6.9), and for the dashboard its sessions per day. */
export interface Engagement {
  visitors: number;
  identities: number;
  sessions: number;
  page_views: number;
  last_seen: string | null;
  top_pages: TopPath[];
  score: number;
  score_reasons: string[];
  days: CompanyDay[];
}

export class CompaniesService {
  constructor(private readonly store: WorkspaceStore) {}

  list(filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.store.repos.companies.list(filters, page);
  }

  /** The dashboard's list of accounts (C9.4): companies with their people and visitors, newest, latest visit or best score first. */
  listAccounts(filters: CompanyFilters, order: AccountOrder, page: Page): Promise<PageResult<AccountItem>> {
    return this.store.repos.companies.listAccounts(filters, order, page);
  }

  /** The identities linked to a company (C6.1), newest first. */
  async identities(id: string, page: Page): Promise<PageResult<Identity>> {
    const company = await this.get(id);
    return this.store.repos.identities.listByCompany(company.id, page);
  }

  async get(id: string): Promise<Company> {
    const company = await this.store.repos.companies.findById(pathId(id, 'company'));
    if (company === undefined) throw new NotFoundError('company');
    return company;
  }

  /**
   * A company's engagement (C6.9) over the last `days` UTC days, today
   * included: every visitor whose visits name it, identified or not, seen in
   * the window; their sessions started and page views made in it; its
   * latest visit ever; and its account score now (always over 30 days).
   */
  async engagement(id: string, days: number, at: number = Date.now()): Promise<Engagement> {
    const company = await this.get(id);
    const since = windowStart(days, at);
    const repos = this.store.repos;
    const counts = await repos.visitors.countForCompany(company.id, since);
    const lastSeen = await repos.visitors.lastSeenOfCompany(company.id);
    const sessions = await repos.accountActivity.sessionsSince(company.id, since);
    const views = await repos.accountActivity.pageViewsSince(company.id, since, TOP_PAGES);
    const settings = resolveSettings((await repos.settings.intelligence()) as IntelligenceSettingsInput | null);
    const score = await accountScoreOf(repos, company, settings.ideal, formatInstant(at));
    return {
      visitors: counts.visitors,
      identities: counts.identities,
      sessions: sessions.sessions,
      page_views: views.total,
      last_seen: lastSeen,
      top_pages: views.top,
      score: score.score,
      score_reasons: score.reasons,
      days: sessions.days,
    };
  }

  /**
   * The dashboard's company page (C9.4): the engagement, plus its anonymous
   * visitors of the same window: how many, and the latest seen.
   */
  async accountView(id: string, days: number, at: number = Date.now()): Promise<Engagement & { anonymous: { visitors: number; recent: AnonymousVisitor[] } }> {
    const engagement = await this.engagement(id, days, at);
    const { count, recent } = await this.store.repos.visitors.anonymousOfCompany(pathId(id, 'company'), windowStart(days, at), RECENT_ANONYMOUS);
    return { ...engagement, anonymous: { visitors: count, recent } };
  }

  /** A company's leads (C9.4), newest first. */
  async leads(id: string, page: Page): Promise<PageResult<Lead>> {
    const company = await this.get(id);
    return this.store.repos.leads.listByCompany(company.id, page);
  }

  /** A company's activity (C6.9): its identities' activity and its anonymous visitors' page views, newest first. */
  async activity(id: string, page: Page): Promise<PageResult<Activity>> {
    const company = await this.get(id);
    return this.store.repos.accountActivity.activity(company.id, page);
  }
}
