/**
 * The HTTP scenarios of the benchmark: what each one requests, which status
 * it expects, whether its path rotates over the lead ids, and whether its
 * latency is also measured at a fixed rate. `bulk-import` is measured by the
 * data loader, not here.
 */

export interface Scenario {
  id: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** the path; `{id}` is replaced by each lead id in turn */
  path: string;
  body?: string;
  /** 'bad' sends a well-formed key that no workspace has */
  key: 'good' | 'bad';
  expect: number;
  /** also measure p99 at half the saturation throughput (bench/fixed-rate.ts) */
  fixedRate: boolean;
}

const LEADS = '/api/v1/leads';

export const SCENARIOS: Scenario[] = [
  { id: 'get-lead', method: 'GET', path: `${LEADS}/{id}`, key: 'good', expect: 200, fixedRate: true },
  { id: 'list-default', method: 'GET', path: LEADS, key: 'good', expect: 200, fixedRate: true },
  { id: 'list-source', method: 'GET', path: `${LEADS}?source=referral`, key: 'good', expect: 200, fixedRate: true },
  {
    id: 'list-month',
    method: 'GET',
    path: `${LEADS}?created_after=2026-05-01&created_before=2026-06-01`,
    key: 'good',
    expect: 200,
    fixedRate: true,
  },
  {
    id: 'list-source-month',
    method: 'GET',
    path: `${LEADS}?source=referral&created_after=2026-05-01&created_before=2026-06-01`,
    key: 'good',
    expect: 200,
    fixedRate: true,
  },
  { id: 'list-offset', method: 'GET', path: `${LEADS}?offset=10000`, key: 'good', expect: 200, fixedRate: true },
  {
    id: 'post-lead',
    method: 'POST',
    path: LEADS,
    body: '{"code":"bench","source":"website","properties":{"a":1}}',
    key: 'good',
    expect: 201,
    fixedRate: true,
  },
  {
    id: 'patch-lead',
    method: 'PATCH',
    path: `${LEADS}/{id}`,
    body: '{"properties":{"bench":true}}',
    key: 'good',
    expect: 200,
    fixedRate: true,
  },
  { id: 'bad-key', method: 'GET', path: LEADS, key: 'bad', expect: 401, fixedRate: true },
];

export const BULK_IMPORT = 'bulk-import';
/** the events endpoint, on an empty store of its own (lib/ingest.ts) */
export const INGEST = 'ingest';
/** cursor walk, idempotent POSTs and webhook deliveries, on a store of their own (lib/integrations.ts) */
export const INTEGRATIONS = 'integrations';
/** the company classifier on the labelled evaluation set, no store (lib/companies.ts) */
export const COMPANIES = 'companies';
/** the overview of 90 days on counters of 10 million events, each store on an empty database of its own (lib/overview.ts) */
export const OVERVIEW = 'overview';
export const SCENARIO_IDS = [...SCENARIOS.map((scenario) => scenario.id), BULK_IMPORT, INGEST, INTEGRATIONS, COMPANIES, OVERVIEW];

/** Well-formed (ll_prod_ and 40 base62 characters) but belongs to no workspace. */
export const BAD_KEY = `ll_prod_${'0123456789abcdefghij'.repeat(2)}`;

export function requestHeaders(scenario: Scenario, goodKey: string): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${scenario.key === 'good' ? goodKey : BAD_KEY}`,
  };
  if (scenario.body !== undefined) headers['Content-Type'] = 'application/json';
  return headers;
}

export function firstPath(scenario: Scenario, ids: readonly string[]): string {
  return scenario.path.replace('{id}', ids[0] ?? '');
}
