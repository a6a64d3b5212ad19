/**
 * What an enrichment writes into a company (CONTRACT C6.7; docs/intelligence.md,
 * "Enrichment"), from what its website and the provider said. Pure.
 *
 * For each field, the provider's value wins over the website's. A value is
 * written when the field is empty, or when an automatic source of the same
 * or a lower rank wrote it (a name made from the domain, an earlier
 * website's or provider's value: a refresh brings them up to date). A field
 * a person or a client wrote (not empty, no automatic source) is never
 * written.
 */
import { ENRICHED_FIELDS, SOURCE_RANK, type AutoFields, type CompanyFacts, type EnrichedField, type FieldSource } from './fields.js';

export type CompanyFields = Record<EnrichedField, string | null>;

export interface EnrichmentPlan {
  /** the fields to write, with their new values */
  changes: Partial<Record<EnrichedField, string>>;
  /** auto_fields after the write */
  auto: AutoFields;
}

const empty = (value: string | null) => value === null || value.trim() === '';

export function planEnrichment(company: CompanyFields, auto: AutoFields, found: { website?: CompanyFacts; provider?: CompanyFacts }): EnrichmentPlan {
  const changes: EnrichmentPlan['changes'] = {};
  const next: AutoFields = { ...auto };
  for (const field of ENRICHED_FIELDS) {
    const candidates: [FieldSource, string | undefined][] = [
      ['provider', found.provider?.[field]],
      ['website', found.website?.[field]],
    ];
    const chosen = candidates.find(([, value]) => value !== undefined && value.trim() !== '');
    if (chosen === undefined) continue;
    const [source, value] = chosen as [FieldSource, string];
    const current = company[field];
    const writer = auto[field];
    const writable = empty(current) || (writer !== undefined && SOURCE_RANK[writer] <= SOURCE_RANK[source]);
    if (!writable) continue;
    if (current !== value) changes[field] = value;
    if (current !== value || writer !== undefined) next[field] = source;
  }
  return { changes, auto: next };
}
