/**
 * What enrichment knows about a company's fields (CONTRACT C6.7;
 * docs/intelligence.md, "Enrichment"): the fields it may write, the
 * automatic sources a field can come from, and how they rank. A field's
 * source is kept beside the company (`companies.auto_fields`); a field that
 * is not empty and has no automatic source was written by a person or a
 * client, and no source ever overwrites it.
 */

export const ENRICHED_FIELDS = ['name', 'description', 'employees', 'main_industry'] as const;
export type EnrichedField = (typeof ENRICHED_FIELDS)[number];

/**
 * Where an automatic value came from: the company's domain or its network's
 * organisation (a name made when the company was created), its website, or
 * the provider.
 */
export type FieldSource = 'domain' | 'network' | 'website' | 'provider';

/** Which fields an automatic source wrote; a field not named here was written by a person or a client (or is empty). */
export type AutoFields = Partial<Record<EnrichedField, FieldSource>>;

/** What one source says about a company: only fields it found, never empty strings. */
export type CompanyFacts = Partial<Record<EnrichedField, string>>;

/** A source may replace what a source of the same or a lower rank wrote: the provider wins over the website, which wins over a name made from the domain. */
export const SOURCE_RANK: Record<FieldSource, number> = { domain: 0, network: 0, website: 1, provider: 2 };

const SOURCES = new Set<string>(Object.keys(SOURCE_RANK));

/** The auto_fields column as stored (JSON text or null), read defensively. */
export function readAutoFields(value: unknown): AutoFields {
  if (value === null || value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : value;
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const fields: AutoFields = {};
  for (const field of ENRICHED_FIELDS) {
    const source = (parsed as Record<string, unknown>)[field];
    if (typeof source === 'string' && SOURCES.has(source)) fields[field] = source as FieldSource;
  }
  return fields;
}

/** The common size ranges a single head count falls into (LinkedIn's), for sources that give one number. */
const SIZE_RANGES: readonly [number, number][] = [
  [1, 10],
  [11, 50],
  [51, 200],
  [201, 500],
  [501, 1000],
  [1001, 5000],
  [5001, 10000],
];

/** A positive whole head count, or undefined. */
function count(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/**
 * A head count as a size label (docs/intelligence.md, "Enrichment"):
 * `<min>-<max>` for a range, `<min>+` for a lower bound alone, `1-<max>`
 * for an upper bound alone, and for a single number the common range it
 * falls in (`1-10`, `11-50`, `51-200`, `201-500`, `501-1000`, `1001-5000`,
 * `5001-10000`, `10001+`). Undefined when nothing is a positive count.
 */
export function employeesLabel(range: { min?: unknown; max?: unknown; value?: unknown }): string | undefined {
  const min = count(range.min);
  const max = count(range.max);
  let single = count(range.value);
  if (min !== undefined && max !== undefined) {
    if (min < max) return `${min}-${max}`;
    if (min > max) return undefined;
    single = min;
  } else if (single === undefined) {
    if (min !== undefined) return `${min}+`;
    if (max !== undefined) return `1-${max}`;
    return undefined;
  }
  const heads = single;
  const bucket = SIZE_RANGES.find(([low, high]) => heads >= low && heads <= high);
  return bucket === undefined ? `${SIZE_RANGES[SIZE_RANGES.length - 1]![1] + 1}+` : `${bucket[0]}-${bucket[1]}`;
}
