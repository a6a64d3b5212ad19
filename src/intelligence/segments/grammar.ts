/**
 * The words of the segment rule grammar (CONTRACT C6.4; docs/intelligence.md,
 * "Segments"): fields, operators, event kinds and limits, free of any
 * schema library, so that the rule's JSON Schema (rule.ts) and the
 * dashboard's segment builder (C9.6) offer exactly the same choices.
 */
export const MAX_RULE_DEPTH = 5;
export const MAX_RULE_CONDITIONS = 50;

/** identity fields, then company fields; `trait.<key>` names a trait */
export const IDENTITY_FIELDS = ['email', 'name', 'city', 'country', 'is_favorite', 'score', 'status'] as const;
export const COMPANY_FIELDS = ['company.name', 'company.domain', 'company.employees', 'company.main_industry'] as const;
export const RULE_FIELDS = [...IDENTITY_FIELDS, ...COMPANY_FIELDS] as const;
export const TRAIT_PREFIX = 'trait.';

export const TEXT_OPERATORS = ['eq', 'neq', 'contains', 'starts_with', 'ends_with'] as const;
export const NUMBER_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;

export const EVENT_KINDS = ['page_view', 'pricing', 'docs', 'blog', 'careers', 'security', 'comparison', 'track', 'identify', 'conversion'] as const;
/** an event test looks back at most this many days */
export const MAX_WITHIN_DAYS = 30;
export const MAX_AT_LEAST = 10_000;
/** the statuses the scorer writes (C6.2) */
export const SCORED_STATUSES = ['new', 'engaged', 'qualified'] as const;
