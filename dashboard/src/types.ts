/**
 * The shapes the dashboard reads: the API's resources (spec: Resources)
 * and the dashboard's own (session, keys, members, overview).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Role = 'viewer' | 'member' | 'admin';

export interface Session {
  user: { id: string; email: string; name: string | null };
  workspace: { id: string; name: string };
  role: Role;
  workspaces: { id: string; name: string; role: string }[];
  csrf_token: string;
  expires_at: string;
  features: { site_keys: boolean };
}

export interface Lead {
  id: string;
  visitor_id: string;
  workspace_id: string;
  code: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
  properties: JsonObject;
  location: JsonObject;
  identity_id: string | null;
  session_id: string | null;
  summary: JsonObject | null;
  company_id: string | null;
}

/** the people and companies a page of leads names, by id (C9.3) */
export interface LeadLabels {
  people: Record<string, { name: string | null; email: string | null }>;
  companies: Record<string, { name: string }>;
}

/** a note on a lead (C9.3) */
export interface LeadNote {
  id: string;
  body: string;
  author: { type: 'user' | 'api_key'; id: string; name: string };
  created_at: string;
}

export interface Identity {
  id: string;
  visitor_id: string;
  email: string | null;
  name: string | null;
  traits: JsonObject;
  first_seen: string;
  last_seen: string;
  ip: string | null;
  city: string | null;
  country: string | null;
  is_favorite: boolean;
  created_at: string;
}

export interface Activity {
  id: string;
  type: string;
  who: string | null;
  what: string | null;
  source: string | null;
  created_at: string;
}

export interface Personality {
  id: string;
  visitor_id: string;
  score: number;
  personality: { type: string; traits: string[] };
  features: JsonObject;
  learning_percentage: number;
  created_at: string;
}

export interface Company {
  id: string;
  name: string;
  domain: string | null;
  description: string | null;
  employees: string | null;
  main_industry: string | null;
  created_at: string;
}

export interface VisitorList {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  created_at: string;
}

export interface Member {
  id: string;
  email: string;
  name: string | null;
  avatar: string | null;
  workspace_role: string;
  joined_at: string;
  status: 'active' | 'invited';
}

export interface ApiKey {
  id: string;
  type: 'production' | 'development';
  name: string | null;
  hint: string;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedKey {
  id: string;
  type: 'production' | 'development';
  name: string | null;
  key: string;
  created_at: string;
  replaces?: string;
}

export interface WorkspaceSettings {
  id: string;
  name: string;
  created_at: string;
  prod_last_use: string | null;
  dev_last_use: string | null;
  /** the IANA time zone whose 08:00 sends digests (C10.4) */
  time_zone: string;
}

export interface IdealCustomer {
  industries: string[];
  employee_ranges: string[];
  countries: string[];
}

export interface SiteKey {
  id: string;
  name: string | null;
  key: string;
  origins: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  snippet: string;
}

export interface TopPage {
  host: string;
  path: string;
  views: number;
}

export interface Overview {
  days: { day: string; leads: number; by_source: Record<string, number>; identities: number }[];
  sources: string[];
  totals: { leads: number; identities: number };
  top_pages: TopPage[];
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  status: 'active' | 'failing';
  created_at: string;
  updated_at: string;
}

export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface WebhookEventType {
  type: string;
  summary: string;
  description: string;
}

export interface WebhookDelivery {
  id: string;
  message_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** a visit of the Live page (C9.2) */
export interface LiveVisit {
  visitor_id: string;
  session_id: string;
  started_at: string;
  last_at: string;
  person: { id: string; name: string | null; email: string | null } | null;
  company: { id: string; name: string } | null;
  country: string | null;
  current_page: string | null;
  pages: number;
  source: string | null;
}

export interface LiveSnapshot {
  active_visitors: number;
  visits: LiveVisit[];
}
