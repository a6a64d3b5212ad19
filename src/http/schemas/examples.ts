/**
 * Examples of the OpenAPI document (CONTRACT C8.1: every operation shows an
 * example): one of each resource, consistent with each other (the lead's
 * identity is the identity shown, and so on), and `withExample`, which puts
 * an example on a request or response schema (@fastify/swagger moves it onto
 * the media type). Annotations only: nothing here changes what is validated
 * or serialized. Redocly's lint checks each example against its schema.
 */
import type { TSchema } from '@sinclair/typebox';

export const EXAMPLE_IDS = {
  workspace: '0190f6a2-5b1e-7c3d-9a4f-2e8b1c7d6a50',
  lead: '0190f6a2-7d21-7e4a-8b3c-5f9d2a1e4c61',
  visitor: '0190f6a2-6c10-7b2f-a1d4-3e7c9b8a5d72',
  session: '0190f6a2-6c11-7b2f-a1d4-3e7c9b8a5d83',
  identity: '0190f6a2-6e33-7f5b-9c2d-4a8e1b3c7d94',
  company: '0190f6a2-6f44-7a6c-8d3e-5b9f2c4d8ea5',
  list: '0190f6a2-7055-7b7d-9e4f-6c0a3d5e9fb6',
  user: '0190f6a2-7166-7c8e-af50-7d1b4e6f0ac7',
  activity: '0190f6a2-7277-7d9f-b061-8e2c5f7a1bd8',
  personality: '0190f6a2-7388-7ea0-8172-9f3d6a8b2ce9',
  event: '0190f6a2-7499-7fb1-9283-a04e7b9c3dfa',
  webhook: '0190f6a2-75aa-70c2-a394-b15f8cad4e0b',
  delivery: '0190f6a2-76bb-71d3-b4a5-c26a9dbe5f1c',
  companyRule: '0190f6a2-9e43-7a1b-8c2d-4f6e8a0b2c94',
  note: '0190f6a2-9f54-7b2c-9d3e-5a7f9b1c3da5',
  apiKey: '0190f6a2-a065-7c3d-8e4f-6b8a0c2d4eb6',
} as const;

const CREATED = '2026-03-02T09:14:07.512Z';
const UPDATED = '2026-03-03T16:40:12.087Z';

export const LEAD_EXAMPLE = {
  id: EXAMPLE_IDS.lead,
  visitor_id: EXAMPLE_IDS.visitor,
  workspace_id: EXAMPLE_IDS.workspace,
  code: 'demo-request',
  source: 'campaign',
  created_at: CREATED,
  updated_at: UPDATED,
  properties: { plan: 'team', utm_source: 'newsletter', landing_page: '/pricing' },
  location: { city: 'Lyon', country: 'FR' },
  identity_id: EXAMPLE_IDS.identity,
  session_id: EXAMPLE_IDS.session,
  summary: { score: 72, status: 'qualified', score_reasons: ['business email', 'visited pricing 3 times'] },
  company_id: EXAMPLE_IDS.company,
};

export const LEAD_CREATE_EXAMPLE = {
  code: 'demo-request',
  source: 'campaign',
  properties: { plan: 'team', utm_source: 'newsletter' },
  location: { city: 'Lyon', country: 'FR' },
  identity_id: EXAMPLE_IDS.identity,
};

export const LEAD_UPDATE_EXAMPLE = {
  summary: { status: 'qualified', owner: 'sales@acme.example' },
  company_id: EXAMPLE_IDS.company,
};

export const IDENTITY_EXAMPLE = {
  id: EXAMPLE_IDS.identity,
  workspace_id: EXAMPLE_IDS.workspace,
  visitor_id: EXAMPLE_IDS.visitor,
  email: 'ada@acme.example',
  name: 'Ada Lovelace',
  traits: { plan: 'team', role: 'CTO' },
  first_seen: '2026-02-27T08:01:44.210Z',
  last_seen: UPDATED,
  ip: '203.0.113.24',
  city: 'Lyon',
  country: 'FR',
  is_favorite: false,
  created_at: CREATED,
};

export const IDENTITY_CREATE_EXAMPLE = { email: 'ada@acme.example', name: 'Ada Lovelace', traits: { plan: 'team' } };
export const IDENTITY_UPDATE_EXAMPLE = { is_favorite: true, traits: { role: 'CTO' } };

export const ACTIVITY_EXAMPLE = {
  id: EXAMPLE_IDS.activity,
  type: 'page_view',
  who: 'Ada Lovelace',
  what: 'Viewed Pricing',
  source: 'web',
  created_at: UPDATED,
};

export const PERSONALITY_EXAMPLE = {
  id: EXAMPLE_IDS.personality,
  visitor_id: EXAMPLE_IDS.visitor,
  score: 0.81,
  personality: { type: 'evaluator', traits: ['compares plans', 'reads documentation'] },
  features: { pages_per_session: 6.5, pricing_share: 0.3, return_visits: 3 },
  learning_percentage: 0.75,
  created_at: UPDATED,
};

export const COMPANY_EXAMPLE = {
  id: EXAMPLE_IDS.company,
  name: 'Acme',
  domain: 'acme.example',
  description: 'Industrial supplies',
  employees: '51-200',
  main_industry: 'Manufacturing',
  created_at: CREATED,
};

export const ENGAGEMENT_EXAMPLE = {
  visitors: 7,
  identities: 2,
  sessions: 12,
  page_views: 41,
  last_seen: UPDATED,
  top_pages: [
    { path: '/pricing', views: 9 },
    { path: '/docs/api', views: 6 },
  ],
  score: 68,
  score_reasons: ['visited pricing 9 times this week', 'business email at a 51-200 company', '7 people visited in the last 30 days', 'an ideal company size (51-200)'],
};

export const LIST_EXAMPLE = {
  id: EXAMPLE_IDS.list,
  name: 'Evaluating pricing',
  description: 'Visitors who read the pricing page this week',
  color: '#3B82F6',
  created_at: CREATED,
};

export const LIST_RULE_EXAMPLE = {
  all: [
    { field: 'company.domain', op: 'exists', value: true },
    { events: { kind: 'pricing', at_least: 2, within_days: 7 } },
  ],
};
export const LIST_CREATE_EXAMPLE = { name: 'Evaluating pricing', description: 'Visitors who read the pricing page this week', color: '#3B82F6', rule: LIST_RULE_EXAMPLE };
export const LIST_UPDATE_EXAMPLE = { name: 'Evaluating pricing (EU)' };
export const LIST_MEMBERS_EXAMPLE = { identity_ids: [EXAMPLE_IDS.identity] };

export const USER_EXAMPLE = {
  id: EXAMPLE_IDS.user,
  email: 'grace@leadlight.example',
  name: 'Grace Hopper',
  avatar: 'https://leadlight.example/avatars/grace.png',
  username: 'grace',
  language: 'en',
  created_at: '2026-01-05T10:00:00.000Z',
  workspace_role: 'admin',
  joined_at: '2026-01-05T10:02:31.000Z',
};

export const EVENTS_EXAMPLE = {
  key: 'll_site_4kQ9nR2xT7bW1mZ8cV3yL6pD',
  events: [
    {
      id: EXAMPLE_IDS.event,
      type: 'page',
      visitor_id: EXAMPLE_IDS.visitor,
      ts: '2026-03-03T16:39:58.001Z',
      url: 'https://www.acme.example/pricing?utm_source=newsletter',
      title: 'Pricing',
      referrer: 'https://news.example/',
    },
    {
      id: '0190f6a2-74aa-7fb1-9283-a04e7b9c3e0b',
      type: 'conversion',
      visitor_id: EXAMPLE_IDS.visitor,
      name: 'demo_request',
      code: 'demo-request',
      properties: { plan: 'team' },
    },
  ],
};

/** A page of one item, as a list answers it. */
export const page = <T>(item: T) => ({ data: [item], pagination: { limit: 50, offset: 0, total: 1 } });

/**
 * `schema` with `example` shown in the document (on the media type of the
 * body or response), and the description of a response.
 */
export function withExample<T extends TSchema>(schema: T, example: unknown, description?: string): T {
  return { ...schema, examples: [example], ...(description === undefined ? {} : { description }) };
}

const WEBHOOK_BASE = {
  id: EXAMPLE_IDS.webhook,
  url: 'https://crm.acme.example/hooks/leadlight',
  events: ['lead.created', 'identity.identified'],
  description: 'CRM sync',
  enabled: true,
  status: 'active',
  created_at: CREATED,
  updated_at: CREATED,
};

export const WEBHOOK_EXAMPLE = WEBHOOK_BASE;
export const WEBHOOK_CREATED_EXAMPLE = { ...WEBHOOK_BASE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
export const WEBHOOK_CREATE_EXAMPLE = { url: WEBHOOK_BASE.url, events: WEBHOOK_BASE.events, description: 'CRM sync' };
export const WEBHOOK_UPDATE_EXAMPLE = { events: ['lead.created', 'lead.updated'], enabled: true };

export const DELIVERY_EXAMPLE = {
  id: EXAMPLE_IDS.delivery,
  webhook_id: EXAMPLE_IDS.webhook,
  message_id: 'msg_2bKq9Xv4Lw8Tz1Nc',
  event_type: 'lead.created',
  status: 'delivered',
  attempts: 2,
  next_attempt_at: null,
  last_response_code: 200,
  last_duration_ms: 84,
  last_error: null,
  created_at: UPDATED,
  delivered_at: '2026-03-03T16:40:19.311Z',
  log: [
    { attempt: 1, at: UPDATED, response_code: 503, duration_ms: 41, error: null },
    { attempt: 2, at: '2026-03-03T16:40:19.227Z', response_code: 200, duration_ms: 84, error: null },
  ],
};

const COMPANY_RULE_BASE = {
  id: EXAMPLE_IDS.companyRule,
  match: { asn: 64500 },
  company_id: EXAMPLE_IDS.company,
  not_a_company: false,
  created_at: '2026-01-15T09:30:00.000Z',
};

export const COMPANY_RULE_EXAMPLE = COMPANY_RULE_BASE;
export const COMPANY_RULE_CREATE_EXAMPLE = { match: { asn: 64500 }, company_id: EXAMPLE_IDS.company };
export const COMPANY_RULE_NONE_EXAMPLE = { match: { domain: 'coworking-space.com' }, not_a_company: true };

/** a note on a lead (C9.3) */
export const NOTE_EXAMPLE = {
  id: EXAMPLE_IDS.note,
  body: 'Called Ada: trial ends Friday, wants the team plan. Follow up Thursday.',
  author: { type: 'user', id: EXAMPLE_IDS.user, name: 'Grace Hopper' },
  created_at: UPDATED,
};
export const NOTE_CREATE_EXAMPLE = { body: NOTE_EXAMPLE.body };
