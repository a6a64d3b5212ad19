/**
 * What a company's home page says about it (CONTRACT C6.7; docs/intelligence.md,
 * "Enrichment"), read with htmlparser2's streaming parser (no regular
 * expressions over HTML): `name` from `og:site_name`, else the JSON-LD
 * `Organization`'s `name`, else the `<title>` without its tagline;
 * `description` from `og:description`, else `<meta name="description">`;
 * `employees` from the JSON-LD `Organization`'s `numberOfEmployees`. Pure:
 * the same page gives the same facts.
 */
import { Parser } from 'htmlparser2';
import { parse as parseDomain } from 'tldts';
import { employeesLabel, type CompanyFacts } from './fields.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;
/** how deep a JSON-LD document is searched for an organisation */
const MAX_JSON_DEPTH = 8;
/** schema.org types that describe an organisation (besides those ending in Organization or Business) */
const ORGANIZATION_TYPES = new Set(['corporation', 'ngo', 'airline', 'consortium', 'store', 'onlinestore', 'professionalservice', 'financialservice']);
/** what separates a title from its tagline: " | ", " - ", " – ", " — ", " · ", ": " */
const TAGLINE_SEPARATOR = /\s+[|\-–—·]\s+|:\s+/;

type JsonObject = Record<string, unknown>;

/** Whitespace collapsed, trimmed and cut to `max` characters; undefined when nothing is left. */
export function cleanText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return text.length <= max ? text : text.slice(0, max).trimEnd();
}

function isOrganization(node: JsonObject): boolean {
  const type = node['@type'];
  const types = Array.isArray(type) ? type : [type];
  return types.some((entry) => {
    if (typeof entry !== 'string') return false;
    const name = entry.replace(/^.*[/:#]/, '').toLowerCase();
    return name.endsWith('organization') || name.endsWith('business') || ORGANIZATION_TYPES.has(name);
  });
}

/** Every organisation in a JSON-LD document (arrays, `@graph` and nested objects searched), in document order. */
function organizations(node: unknown, depth = 0, into: JsonObject[] = []): JsonObject[] {
  if (depth > MAX_JSON_DEPTH || node === null || typeof node !== 'object') return into;
  if (Array.isArray(node)) {
    for (const item of node) organizations(item, depth + 1, into);
    return into;
  }
  const object = node as JsonObject;
  if (isOrganization(object)) into.push(object);
  for (const value of Object.values(object)) organizations(value, depth + 1, into);
  return into;
}

function registrable(host: string): string {
  const parsed = parseDomain(host);
  return (parsed.domain ?? host).toLowerCase();
}

/** The organisation that is the site's own: the first whose `url` is on the site's domain, else the first. */
function ownOrganization(all: JsonObject[], domain: string): JsonObject | undefined {
  const home = registrable(domain);
  const own = all.find((organization) => {
    if (typeof organization.url !== 'string') return false;
    try {
      return registrable(new URL(organization.url).hostname) === home;
    } catch {
      return false;
    }
  });
  return own ?? all[0];
}

function employeesOf(organization: JsonObject | undefined): string | undefined {
  let value = organization?.numberOfEmployees;
  if (Array.isArray(value)) value = value[0];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') {
    const quantity = value as JsonObject;
    return employeesLabel({ min: quantity.minValue, max: quantity.maxValue, value: quantity.value });
  }
  return employeesLabel({ value });
}

/** The part of a title that names the site: the segment that holds the domain's name, else the first. */
export function titleName(title: string, domain: string): string | undefined {
  const segments = title
    .split(TAGLINE_SEPARATOR)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '');
  if (segments.length === 0) return undefined;
  const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const label = squash(parseDomain(domain).domainWithoutSuffix ?? domain);
  const named =
    label.length >= 3
      ? segments.find((segment) => {
          const squashed = squash(segment);
          return squashed.length >= 3 && (squashed.includes(label) || label.includes(squashed));
        })
      : undefined;
  return cleanText(named ?? segments[0], MAX_NAME_LENGTH);
}

/** The facts a page's HTML gives about the company of `domain`. */
export function readWebsiteFacts(html: string, domain: string): CompanyFacts {
  const metas = new Map<string, string>();
  const jsonLd: string[] = [];
  let title: string | undefined;
  let capturing: 'title' | 'json' | undefined;
  let text = '';
  let svgDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'svg') svgDepth += 1;
        if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
          const content = attributes.content;
          if (key !== '' && content !== undefined && !metas.has(key) && content.trim() !== '') metas.set(key, content);
        } else if (name === 'title' && title === undefined && svgDepth === 0 && capturing === undefined) {
          capturing = 'title';
          text = '';
        } else if (name === 'script' && (attributes.type ?? '').trim().toLowerCase() === 'application/ld+json' && capturing === undefined) {
          capturing = 'json';
          text = '';
        }
      },
      ontext(data) {
        if (capturing !== undefined) text += data;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth -= 1;
        if (capturing === 'title' && name === 'title') {
          title = text;
          capturing = undefined;
        } else if (capturing === 'json' && name === 'script') {
          jsonLd.push(text);
          capturing = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const found: JsonObject[] = [];
  for (const block of jsonLd) {
    try {
      organizations(JSON.parse(block.trim()), 0, found);
    } catch {
      // a block that is not JSON says nothing
    }
  }
  const organization = ownOrganization(found, domain);
  const facts: CompanyFacts = {};
  const name =
    cleanText(metas.get('og:site_name'), MAX_NAME_LENGTH) ??
    cleanText(organization?.name, MAX_NAME_LENGTH) ??
    (title === undefined ? undefined : titleName(title, domain));
  if (name !== undefined) facts.name = name;
  const description = cleanText(metas.get('og:description'), MAX_DESCRIPTION_LENGTH) ?? cleanText(metas.get('description'), MAX_DESCRIPTION_LENGTH);
  if (description !== undefined) facts.description = description;
  const employees = employeesOf(organization?.numberOfEmployees === undefined ? found.find((one) => one.numberOfEmployees !== undefined) : organization);
  if (employees !== undefined) facts.employees = employees;
  return facts;
}
