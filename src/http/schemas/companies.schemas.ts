/**
 * Request and response schemas of the company routes.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Ref, Timestamp } from '../../schemas/fields.js';
import { ActivitySchema, CompanySchema, IdentitySchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const CompanyListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'case-insensitive substring of the name; % and _ are literal' })),
    domain: Type.Optional(Type.String({ description: 'exact domain, case-insensitive' })),
  },
  { additionalProperties: true },
);

export const CompanyEnvelope = DataEnvelope(Ref(CompanySchema));
export const CompanyListEnvelope = ListEnvelope(Ref(CompanySchema));
export const CompanyIdentitiesQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
export const CompanyIdentitiesEnvelope = ListEnvelope(Ref(IdentitySchema));

export const MAX_ENGAGEMENT_DAYS = 365;
export const DEFAULT_ENGAGEMENT_DAYS = 30;

export const CompanyEngagementQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ENGAGEMENT_DAYS,
        description: `the window: the last N UTC days, today included; 1 to ${MAX_ENGAGEMENT_DAYS}, default ${DEFAULT_ENGAGEMENT_DAYS}`,
      }),
    ),
  },
  { additionalProperties: true },
);

const EngagementFields = {
  visitors: Type.Integer({ minimum: 0, description: 'visitors whose visits name the company, identified or not, seen in the window' }),
  identities: Type.Integer({ minimum: 0, description: 'how many of them are identified (distinct identities)' }),
  sessions: Type.Integer({ minimum: 0, description: 'sessions of those visitors that started in the window' }),
  page_views: Type.Integer({ minimum: 0, description: 'page views of those visitors in the window' }),
  last_seen: Nullable(Timestamp({ description: 'the latest visit of any of its visitors, ever; null when none' })),
  top_pages: Type.Array(
    Type.Object({ path: Type.String(), views: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    { description: 'its most viewed paths in the window, at most 10, most views first' },
  ),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'the account score now: the best fit of its people (0–50) plus the engagement of all of them over 30 days (0–50)' }),
  score_reasons: Type.Array(Type.String(), { description: 'what gave the most points, at most five, strongest first' }),
};

export const CompanyEngagementSchema = Type.Object(EngagementFields, { additionalProperties: false });
export const CompanyEngagementEnvelope = DataEnvelope(CompanyEngagementSchema);

/** An anonymous visitor of a company, as the dashboard's company page lists them (C9.4). */
const AnonymousVisitorSchema = Type.Object(
  {
    visitor_id: Type.String({ format: 'uuid' }),
    first_seen: Timestamp(),
    last_seen: Timestamp(),
    city: Nullable(Type.String()),
    country: Nullable(Type.String()),
    page_views: Type.Integer({ minimum: 0 }),
    sessions: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/**
 * The dashboard's engagement: the same, with sessions per day (the company
 * page's visits per day) and its anonymous visitors of the window (C9.4).
 */
export const DashboardEngagementEnvelope = DataEnvelope(
  Type.Object(
    {
      ...EngagementFields,
      days: Type.Array(
        Type.Object({ day: Type.String({ description: 'YYYY-MM-DD (UTC)' }), sessions: Type.Integer(), page_views: Type.Integer() }, { additionalProperties: false }),
        { description: 'each day of the window with sessions: those started that day and their page views' },
      ),
      anonymous: Type.Object(
        {
          visitors: Type.Integer({ minimum: 0, description: 'its visitors without an identity seen in the window' }),
          recent: Type.Array(AnonymousVisitorSchema, { description: 'the latest seen of them, at most 10, latest first' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
);

export const CompanyActivityQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
export const CompanyActivityEnvelope = ListEnvelope(Ref(ActivitySchema));
/** The dashboard's page of a company's leads (C9.4). */
export const CompanyLeadsQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });

/** The dashboard's list of accounts (C9.4). */
export const AccountListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'case-insensitive substring of the name; % and _ are literal' })),
    domain: Type.Optional(Type.String({ description: 'exact domain, case-insensitive' })),
    sort: Type.Optional(
      Type.Union([Type.Literal('-created_at'), Type.Literal('-last_seen'), Type.Literal('-account_score')], {
        description: 'newest first (default), latest visit first, or highest account score first; never-seen or unscored companies last',
      }),
    ),
  },
  { additionalProperties: true },
);

export const AccountListEnvelope = ListEnvelope(
  Type.Object(
    {
      ...CompanySchema.properties,
      last_seen: Nullable(Timestamp({ description: 'the latest visit of any of its visitors (to the minute)' })),
      account_score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'its account score, kept by the intelligence worker; null before the first' })),
      people: Type.Integer({ minimum: 0, description: 'identities linked to it' }),
      visitors: Type.Integer({ minimum: 0, description: 'visitors whose visits name it, identified or not' }),
    },
    { additionalProperties: false },
  ),
);
