/**
 * The shapes the dashboard reads, named: each is taken from the types
 * generated from the dashboard API's OpenAPI document
 * (generated/dashboard-api.ts, `npm run dashboard:types`, CONTRACT C9.10),
 * so a server schema that changes changes them, and none is a hand-kept copy.
 * Only the JSON value types below are the dashboard's own.
 */
import type { components, paths } from './generated/dashboard-api';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** a JSON object of the server's (properties, traits, summary): its values are whatever JSON was stored */
export type JsonObject = { [key: string]: unknown };

type Schemas = components['schemas'];
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** the JSON body of the first 2xx answer of an operation */
type Answer<O> = O extends { responses: infer R }
  ? R extends { 200: infer A }
    ? JsonBody<A>
    : R extends { 201: infer A }
      ? JsonBody<A>
      : never
  : never;
/** the `data` of an operation's answer */
type DataOf<O> = Answer<O> extends { data: infer D } ? D : never;
/** one item of an operation's `data` list */
type ItemOf<O> = DataOf<O> extends (infer I)[] ? I : never;
type Get<P extends keyof paths> = paths[P]['get'];
type Post<P extends keyof paths> = paths[P]['post'];

export type Session = NonNullable<DataOf<Get<'/dashboard/api/session'>>>;
export type Role = Session['role'];
export type Lead = Schemas['Lead'];
/** the people and companies a page of leads names, by id (C9.3) */
export type LeadLabels = Pick<Answer<Get<'/dashboard/api/leads'>>, 'people' | 'companies'>;
/** a note on a lead (C9.3) */
export type LeadNote = Schemas['LeadNote'];
export type Identity = Schemas['Identity'];
export type Activity = Schemas['Activity'];
export type Personality = Schemas['Personality'];
export type Company = Schemas['Company'];
export type VisitorList = Schemas['VisitorList'];
export type Member = ItemOf<Get<'/dashboard/api/members'>>;
export type ApiKey = ItemOf<Get<'/dashboard/api/keys'>>;
export type CreatedKey = DataOf<Post<'/dashboard/api/keys'>>;
export type WorkspaceSettings = DataOf<Get<'/dashboard/api/workspace'>>;
export type IdealCustomer = DataOf<Get<'/dashboard/api/ideal-customer'>>;
export type SiteKey = ItemOf<Get<'/dashboard/api/site-keys'>>;
export type WebhookEndpoint = ItemOf<Get<'/dashboard/api/webhooks'>>;
export type CreatedWebhookEndpoint = DataOf<Post<'/dashboard/api/webhooks'>>;
export type WebhookEventType = ItemOf<Get<'/dashboard/api/webhook-events'>>;
export type WebhookDelivery = ItemOf<Get<'/dashboard/api/webhooks/{id}/deliveries'>>;
export type CompanyRule = ItemOf<Get<'/dashboard/api/company-rules'>>;
export type Alert = ItemOf<Get<'/dashboard/api/alerts'>>;
export type AlertDelivery = ItemOf<Get<'/dashboard/api/alerts/{id}/deliveries'>>;
export type SearchHit = ItemOf<Get<'/dashboard/api/search'>>;
/** the Live page (C9.2) */
export type LiveSnapshot = DataOf<Get<'/dashboard/api/live'>>;
/** a visit of the Live page (C9.2) */
export type LiveVisit = LiveSnapshot['visits'][number];
export type TrackingStatus = DataOf<Get<'/dashboard/api/tracking-status'>>;
export type MemberInvite = DataOf<Post<'/dashboard/api/members'>>;
export type ResetLink = DataOf<Post<'/dashboard/api/members/{id}/reset-link'>>;
export type PasswordLink = DataOf<Post<'/dashboard/api/password-links/inspect'>>;
/** the dashboard's identity: with the company linked to it, named (C9.4) */
export type IdentityWithCompany = DataOf<Get<'/dashboard/api/identities/{id}'>>;
/** a company in the list of accounts (C9.4): what it is sorted by, its people and its visitors */
export type AccountItem = ItemOf<Get<'/dashboard/api/companies'>>;
/** a company as an account over a window of days (C6.9), as its page reads it (C9.4) */
export type CompanyEngagement = DataOf<Get<'/dashboard/api/companies/{id}/engagement'>>;
/** an anonymous visitor of a company (C9.4) */
export type AnonymousVisitor = CompanyEngagement['anonymous']['recent'][number];
/** a list as the dashboard's Lists page shows it, with its member count (C9.6) */
export type CountedList = ItemOf<Get<'/dashboard/api/lists'>>;
/** a list's page: its details, rule (null: a static list) and member count */
export type ListDetail = DataOf<Get<'/dashboard/api/lists/{id}'>>;
/** the segment rule grammar, from the server's own schema (C6.4) */
export type { Condition, EventTest, FieldTest, SegmentRule } from '../../src/intelligence/segments/rule';
/** how many people a draft rule matches (C9.6); `complete` false when the count stopped at its bound */
export type DraftCount = DataOf<Post<'/dashboard/api/segments/count'>>;
/** a value the segment builder suggests, with how many people or companies hold it */
export type Suggestion = ItemOf<Get<'/dashboard/api/segments/suggestions'>>;
/** the overview's traffic (C9.5): figures with their previous period, days, breakdowns and sites */
export type TrafficOverview = DataOf<Get<'/dashboard/api/overview/traffic'>>;
export type TrafficFigures = TrafficOverview['figures'];
/** one figure: its value in the period and in the previous one */
export type Figure = TrafficFigures[keyof TrafficFigures];
export type TrafficDayPoint = TrafficOverview['days'][number];
export type TrafficBreakdowns = TrafficOverview['breakdowns'];
/** a row of a breakdown by referrer, campaign, country, device or browser */
export type BreakdownRow = TrafficBreakdowns['referrers'][number];
