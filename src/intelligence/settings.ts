/**
 * A workspace's settings of lead intelligence (docs/intelligence.md): its
 * ideal customer (industries, employee ranges, countries: fit points of the
 * score) and its page-kind patterns (which paths count as pricing, docs…).
 * A JSON Schema (TypeBox) checks what the CLI and the dashboard write; what
 * is absent takes the defaults.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_PAGE_PATTERNS, PAGE_KINDS, type PagePatterns } from './page-kinds.js';
import type { IdealCustomer } from './scoring.js';

const Names = (description: string, maxLength = 100) =>
  Type.Array(Type.String({ minLength: 1, maxLength }), { maxItems: 100, uniqueItems: true, description });

export const IntelligenceSettingsSchema = Type.Object(
  {
    ideal_customer: Type.Optional(
      Type.Object(
        {
          industries: Type.Optional(Names('industries, compared case-insensitively with a company main_industry')),
          employee_ranges: Type.Optional(Names('employee ranges such as 51-200, compared with a company employees')),
          countries: Type.Optional(
            Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { maxItems: 250, uniqueItems: true, description: 'ISO 3166 alpha-2 codes' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    page_kinds: Type.Optional(
      Type.Object(
        Object.fromEntries(PAGE_KINDS.map((kind) => [kind, Type.Optional(Names(`path patterns of ${kind} pages (* for any run)`, 500))])),
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type IntelligenceSettingsInput = Static<typeof IntelligenceSettingsSchema>;

/** The settings with every default filled in. */
export interface IntelligenceSettings {
  ideal: IdealCustomer;
  pages: Required<PagePatterns>;
}

export function resolveSettings(input: IntelligenceSettingsInput | null | undefined): IntelligenceSettings {
  const ideal = input?.ideal_customer ?? {};
  const pages = (input?.page_kinds ?? {}) as PagePatterns;
  return {
    ideal: { industries: ideal.industries ?? [], employeeRanges: ideal.employee_ranges ?? [], countries: (ideal.countries ?? []).map((c) => c.toUpperCase()) },
    pages: Object.fromEntries(PAGE_KINDS.map((kind) => [kind, pages[kind] ?? DEFAULT_PAGE_PATTERNS[kind]])) as Required<PagePatterns>,
  };
}

/** The settings as the CLI shows them: every value, defaults included. */
export function settingsView(settings: IntelligenceSettings): IntelligenceSettingsInput {
  return {
    ideal_customer: { industries: settings.ideal.industries, employee_ranges: settings.ideal.employeeRanges, countries: settings.ideal.countries },
    page_kinds: settings.pages,
  };
}
