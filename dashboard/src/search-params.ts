/**
 * The search parameters of the list pages, as the router validates them and
 * the pages read them: kept apart from the router so that a page can name
 * them without importing the router that imports the page (C9.10).
 */
export const LEAD_SORTS = ['-created_at', 'created_at', '-score', 'score'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export interface LeadSearch {
  source?: string;
  code?: string;
  created_after?: string;
  created_before?: string;
  offset?: number;
  /** the order (C9.3); absent is newest first */
  sort?: LeadSort;
}

export interface IdentitySearch {
  email?: string;
  favorite?: 'true' | 'false';
  offset?: number;
}

/** the orders of the companies list (C9.4): newest, latest visit or highest account score first */
export const COMPANY_SORTS = ['-created_at', '-last_seen', '-account_score'] as const;
export type CompanySort = (typeof COMPANY_SORTS)[number];

export interface CompanySearch {
  name?: string;
  domain?: string;
  offset?: number;
  /** the order (C9.4); absent is newest first */
  sort?: CompanySort;
}

/** the overview's period presets (C9.5); absent is the last 30 days */
export const OVERVIEW_RANGES = ['today', '7d', '30d', '90d', 'custom'] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

export interface OverviewSearch {
  range?: OverviewRange;
  /** a custom range's days (YYYY-MM-DD, UTC), with range=custom */
  from?: string;
  to?: string;
  /** a site (host) to limit the figures to */
  site?: string;
}
