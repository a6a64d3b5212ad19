/**
 * Deterministic benchmark data as NDJSON, for `leadlight import`: workspace A
 * with N leads (skewed sources, two years of created_at, more recent days
 * busier), 20,000 identities and 1,000 companies that some leads point to;
 * workspace B with M leads; workspace C with up to 200,000 leads. Every line
 * carries its own id, as an export from another system does. The same
 * arguments always give the same bytes.
 *
 *   npx tsx bench/generate.ts --leads 1000000 --leads-b 100000 --out .bench/data
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const DATA_END_MS = Date.UTC(2026, 10, 1);
export const DATA_SPAN_MS = 2 * 365 * 86_400_000;

/** Sources and their weights: a handful dominate, a long tail of 50 share the rest. */
export const SOURCES: [string, number][] = [
  ['website', 45],
  ['referral', 18],
  ['campaign', 15],
  ['partner', 8],
  ['event', 6],
  ['organic', 4],
  ...Array.from({ length: 50 }, (_, index) => [`affiliate-${index}`, 4 / 50] as [string, number]),
];

const CITIES = [
  ['Berlin', 'DE'],
  ['Paris', 'FR'],
  ['London', 'GB'],
  ['New York', 'US'],
  ['Austin', 'US'],
  ['Toronto', 'CA'],
  ['Madrid', 'ES'],
  ['Tokyo', 'JP'],
  ['Sydney', 'AU'],
  ['São Paulo', 'BR'],
];
const STATUSES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'];
const CAMPAIGNS = ['spring-launch', 'webinar-q3', 'retargeting', 'newsletter', null];

/** mulberry32: a small, fast, seedable PRNG */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function uuid(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function weighted(next: () => number, table: [string, number][]): string {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let point = next() * total;
  for (const [value, weight] of table) {
    point -= weight;
    if (point < 0) return value;
  }
  return table[table.length - 1]![0];
}

/** More recent instants are more likely (density grows linearly over the span). */
function createdAt(next: () => number): string {
  return new Date(DATA_END_MS - DATA_SPAN_MS * (1 - Math.sqrt(next()))).toISOString();
}

async function write(file: string, count: number, line: (index: number) => string): Promise<void> {
  const out = fs.createWriteStream(file);
  let chunk = '';
  for (let index = 0; index < count; index += 1) {
    chunk += `${line(index)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve) => out.once('finish', () => resolve()));
}

/** leads of workspace C: imported into a workspace that already holds leads, so every id is looked up */
export const LEADS_C = 200_000;

export interface GenerateOptions {
  leads: number;
  leadsB: number;
  identities: number;
  companies: number;
  out: string;
}

export async function generate(options: GenerateOptions): Promise<Record<string, string>> {
  fs.mkdirSync(options.out, { recursive: true });
  const next = random(20_261_122);
  const companyIds = Array.from({ length: options.companies }, () => uuid(next));
  const identityIds = Array.from({ length: options.identities }, () => uuid(next));
  const files = {
    companies: path.join(options.out, 'companies-a.ndjson'),
    identities: path.join(options.out, 'identities-a.ndjson'),
    leadsA: path.join(options.out, 'leads-a.ndjson'),
    leadsB: path.join(options.out, 'leads-b.ndjson'),
    leadsC: path.join(options.out, 'leads-c.ndjson'),
    leadC0: path.join(options.out, 'lead-c0.ndjson'),
  };
  await write(files.companies, options.companies, (index) =>
    JSON.stringify({
      id: companyIds[index],
      name: `Company ${index}`,
      domain: `company-${index}.example`,
      employees: pick(next, ['1-10', '11-50', '51-200', '201-500', '501-1000']),
      main_industry: pick(next, ['Software', 'Retail', 'Healthcare', 'Finance']),
      created_at: createdAt(next),
    }),
  );
  await write(files.identities, options.identities, (index) =>
    JSON.stringify({
      id: identityIds[index],
      email: `visitor${index}@example.com`,
      name: `Visitor ${index}`,
      traits: { plan: pick(next, ['free', 'pro', 'enterprise']) },
      created_at: createdAt(next),
    }),
  );
  const lead = (prefix: string, linked: boolean) => (index: number) => {
    const [city, country] = pick(next, CITIES);
    const identity = linked && next() < 0.3 ? pick(next, identityIds) : undefined;
    const company = linked && next() < 0.2 ? pick(next, companyIds) : undefined;
    return JSON.stringify({
      id: uuid(next),
      code: `${prefix}-${index}`,
      source: weighted(next, SOURCES),
      created_at: createdAt(next),
      properties: { status: pick(next, STATUSES), score: Math.floor(next() * 100), utm_campaign: pick(next, CAMPAIGNS) },
      location: { city, country },
      ...(identity === undefined ? {} : { identity_id: identity }),
      ...(company === undefined ? {} : { company_id: company }),
    });
  };
  await write(files.leadsA, options.leads, lead('A', true));
  await write(files.leadsB, options.leadsB, lead('B', false));
  await write(files.leadC0, 1, lead('C0', false));
  await write(files.leadsC, Math.min(LEADS_C, options.leads), lead('C', false));
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      leads: { type: 'string', default: '1000000' },
      'leads-b': { type: 'string', default: '100000' },
      identities: { type: 'string', default: '20000' },
      companies: { type: 'string', default: '1000' },
      out: { type: 'string', default: '.bench/data' },
    },
  });
  const files = await generate({
    leads: Number(values.leads),
    leadsB: Number(values['leads-b']),
    identities: Number(values.identities),
    companies: Number(values.companies),
    out: values.out,
  });
  process.stdout.write(`${JSON.stringify(files)}\n`);
}
