/**
 * What an alert is (CONTRACT C10.1, C10.2): its trigger, filters and
 * destination as the API takes and shows them, and the checks TypeBox
 * cannot make (which fields a trigger type needs, the page glob, the
 * country codes), each naming the field (C3.5). Pure: no store, no network.
 */
import { InvalidRequestError } from '../errors.js';

export const TRIGGER_TYPES = ['segment_entered', 'score_reached', 'page_viewed', 'company_returned', 'conversion'] as const;
export const DESTINATION_TYPES = ['slack', 'email', 'webhook'] as const;
export const DEFAULT_COOLDOWN_MINUTES = 1440;
export const MAX_COOLDOWN_MINUTES = 525_600;
export const MAX_EMAIL_RECIPIENTS = 20;

export type AlertTrigger =
  | { type: 'segment_entered'; list_id: string }
  | { type: 'score_reached'; score: number }
  | { type: 'page_viewed'; path: string }
  | { type: 'company_returned'; after_days: number }
  | { type: 'conversion' };

export interface AlertFilters {
  company_known?: boolean;
  countries?: string[];
  min_score?: number;
}

export type AlertDestination = { type: 'slack'; url: string } | { type: 'email'; to: string[] } | { type: 'webhook'; webhook_id: string };

/** The trigger as the body gives it: every type's fields optional (the service says which are missing). */
export interface TriggerInput {
  type: (typeof TRIGGER_TYPES)[number];
  list_id?: string;
  score?: number;
  path?: string;
  after_days?: number;
}

export interface DestinationInput {
  type: (typeof DESTINATION_TYPES)[number];
  url?: string;
  to?: string[];
  webhook_id?: string;
}

const invalid = (field: string, problem: string) => new InvalidRequestError(`${field} ${problem}`, { fields: { [field]: problem } });

/** The fields a trigger type takes; anything else is refused, so a typo is seen. */
const TRIGGER_FIELDS: Record<TriggerInput['type'], readonly (keyof TriggerInput)[]> = {
  segment_entered: ['list_id'],
  score_reached: ['score'],
  page_viewed: ['path'],
  company_returned: ['after_days'],
  conversion: [],
};

function onlyFields<T extends { type: string }>(given: T, allowed: readonly string[], prefix: string): void {
  for (const key of Object.keys(given)) {
    if (key !== 'type' && !allowed.includes(key)) throw invalid(`${prefix}.${key}`, `is not a field of a ${given.type} ${prefix}`);
  }
  for (const key of allowed) {
    if ((given as Record<string, unknown>)[key] === undefined) throw invalid(`${prefix}.${key}`, `is required for a ${given.type} ${prefix}`);
  }
}

/** The trigger as stored; 400 naming the field when it is not one. */
export function readTrigger(input: TriggerInput): AlertTrigger {
  onlyFields(input, TRIGGER_FIELDS[input.type], 'trigger');
  switch (input.type) {
    case 'segment_entered':
      return { type: 'segment_entered', list_id: (input.list_id as string).toLowerCase() };
    case 'score_reached':
      return { type: 'score_reached', score: input.score as number };
    case 'page_viewed': {
      const path = input.path as string;
      if (!path.startsWith('/')) throw invalid('trigger.path', 'must be a path glob starting with /, such as /pricing*');
      return { type: 'page_viewed', path };
    }
    case 'company_returned':
      return { type: 'company_returned', after_days: input.after_days as number };
    case 'conversion':
      return { type: 'conversion' };
  }
}

export function readFilters(input: AlertFilters | undefined): AlertFilters {
  const filters: AlertFilters = {};
  if (input?.company_known !== undefined) filters.company_known = input.company_known;
  if (input?.countries !== undefined) {
    const bad = input.countries.find((code) => !/^[A-Za-z]{2}$/.test(code));
    if (bad !== undefined) throw invalid('filters.countries', `must hold ISO 3166-1 alpha-2 codes such as US; ${JSON.stringify(bad)} is not one`);
    filters.countries = [...new Set(input.countries.map((code) => code.toUpperCase()))];
  }
  if (input?.min_score !== undefined) filters.min_score = input.min_score;
  return filters;
}

const DESTINATION_FIELDS: Record<DestinationInput['type'], readonly (keyof DestinationInput)[]> = {
  slack: ['url'],
  email: ['to'],
  webhook: ['webhook_id'],
};

/** The destination's shape (address rules and references are the service's). */
export function readDestination(input: DestinationInput): AlertDestination {
  onlyFields(input, DESTINATION_FIELDS[input.type], 'destination');
  switch (input.type) {
    case 'slack':
      return { type: 'slack', url: input.url as string };
    case 'email': {
      const to = [...new Set((input.to as string[]).map((address) => address.trim().toLowerCase()))];
      if (to.length === 0) throw invalid('destination.to', 'must name at least one address');
      return { type: 'email', to };
    }
    case 'webhook':
      return { type: 'webhook', webhook_id: (input.webhook_id as string).toLowerCase() };
  }
}

/**
 * Whether a page path matches an alert's glob: `*` is any run of
 * characters (slashes included), `?` one character, the rest literal; the
 * whole path must match, its query string and fragment left out.
 */
export function pathMatches(glob: string, path: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 's').test(path);
}

/**
 * What an alert tells: the facts of one firing, written with the change
 * that caused it (the outbox row's payload) and the `data` of an
 * `alert.triggered` webhook event. Slack and email messages are made from it.
 */
export interface AlertFacts {
  alert: { id: string; name: string };
  trigger: AlertTrigger;
  /** who it fired for: identity:<id>, company:<id> or visitor:<id> */
  subject: string;
  /** one line: what happened ("viewed /pricing", "entered the segment Hot accounts") */
  summary: string;
  person: { id: string; name: string | null; email: string | null } | null;
  company: { id: string; name: string; domain: string | null } | null;
  visitor_id: string | null;
  country: string | null;
  score: number | null;
  reasons: string[];
  /** the latest pages viewed, newest first */
  pages: string[];
  /** the dashboard's page of the person or company (PUBLIC_URL), when the server knows its address */
  link: string | null;
  occurred_at: string;
  test: boolean;
}
