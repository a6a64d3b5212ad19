/**
 * The two sources of company enrichment (CONTRACT C6.7; docs/intelligence.md,
 * "Enrichment"), each a GET that answers facts or says why it failed:
 *
 * - the website: ENRICHMENT_WEBSITE_URL with `{domain}` replaced, at most 3
 *   redirects, each to http(s) within the first URL's registrable domain,
 *   at most 1 MiB read (what was read is parsed), an HTML answer read by
 *   website-facts.ts;
 * - the provider: ENRICHMENT_PROVIDER_URL with `{domain}` replaced,
 *   ENRICHMENT_PROVIDER_TOKEN as a Bearer token, a JSON object
 *   `{name?, description?, employees?, main_industry?}`; 404 says it knows
 *   nothing of the domain; no redirect followed. The provider is the
 *   operator's own choice of service (an adapter on localhost is usual), so
 *   the address rules of websites do not apply to it.
 *
 * Each source has ENRICHMENT_TIMEOUT_MS (5 s) in all, redirects included.
 */
import { parse as parseDomain } from 'tldts';
import type { EnrichmentConfig } from '../../config.js';
import { employeesLabel, type CompanyFacts } from '../../intelligence/enrichment/fields.js';
import { cleanText, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, readWebsiteFacts } from '../../intelligence/enrichment/website-facts.js';
import type { GetResponse, HttpGet } from './http-get.js';

export const MAX_BYTES = 1024 * 1024;
export const MAX_REDIRECTS = 3;
const USER_AGENT = 'Mozilla/5.0 (compatible; Leadlight-Enrichment/1; +https://github.com/leadlight)';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_INDUSTRY_LENGTH = 200;
const MAX_EMPLOYEES_LENGTH = 50;

export type SourceOutcome = { ok: true; facts: CompanyFacts } | { ok: false; error: string };

export type SourceSettings = Pick<EnrichmentConfig, 'websiteUrl' | 'providerUrl' | 'providerToken' | 'allowPrivate' | 'timeoutMs'>;

/** The registrable domain of a host (an address, or a name without a public suffix, is its own). */
function registrableOf(host: string): string {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const parsed = parseDomain(bare);
  return (parsed.isIp === true ? bare : (parsed.domain ?? bare)).toLowerCase();
}

/** A domain that enrichment can read: a host name under a public suffix, nothing else. */
export function enrichableDomain(domain: string | null): string | undefined {
  if (domain === null) return undefined;
  const host = domain.trim().toLowerCase().replace(/\.$/, '');
  if (!/^[\p{L}\p{N}.-]+$/u.test(host)) return undefined;
  const parsed = parseDomain(host);
  return parsed.isIp !== true && parsed.domain !== null && parsed.isIcann === true ? host : undefined;
}

const failure = (error: string): SourceOutcome => ({ ok: false, error });

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return error instanceof Error && error.name === 'TargetRefused' ? `refused: ${text}` : text;
}

/** Runs `read` with its own deadline; an error or the deadline is the source's failure. */
async function withDeadline(timeoutMs: number, read: (signal: AbortSignal) => Promise<SourceOutcome>): Promise<SourceOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await Promise.race([
      read(controller.signal),
      new Promise<SourceOutcome>((resolve) => controller.signal.addEventListener('abort', () => resolve(failure(`no answer within ${timeoutMs / 1000} s`)))),
    ]);
  } catch (error) {
    return failure(controller.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : messageOf(error));
  } finally {
    clearTimeout(timer);
  }
}

function charsetOf(contentType: string | null): string {
  const match = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase() ?? 'utf-8';
}

function decode(response: GetResponse): string {
  try {
    return new TextDecoder(charsetOf(response.contentType)).decode(response.body);
  } catch {
    return new TextDecoder('utf-8').decode(response.body);
  }
}

const isHtml = (contentType: string | null) => contentType === null || /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);

/** The company's website, read and parsed. */
export function readWebsite(domain: string, settings: SourceSettings, get: HttpGet): Promise<SourceOutcome> {
  return withDeadline(settings.timeoutMs, async (signal) => {
    let url = new URL(settings.websiteUrl.replaceAll('{domain}', domain));
    const home = registrableOf(url.hostname);
    for (let redirects = 0; ; redirects += 1) {
      const response = await get({
        url: url.href,
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
        maxBytes: MAX_BYTES,
        signal,
        allowPrivate: settings.allowPrivate,
      });
      if (REDIRECTS.has(response.status) && response.location !== null) {
        if (redirects === MAX_REDIRECTS) return failure(`more than ${MAX_REDIRECTS} redirects`);
        let next: URL;
        try {
          next = new URL(response.location, url);
        } catch {
          return failure(`redirected to an invalid URL`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return failure(`redirected to a ${next.protocol} URL`);
        if (registrableOf(next.hostname) !== home) return failure(`redirected outside ${home}, to ${next.hostname}`);
        url = next;
        continue;
      }
      if (response.status < 200 || response.status >= 300) return failure(`answered ${response.status}`);
      if (!isHtml(response.contentType)) return failure(`answered ${response.contentType ?? 'no content type'}, not HTML`);
      return { ok: true, facts: readWebsiteFacts(decode(response), domain) };
    }
  });
}

/** What a provider's answer holds, each field checked; anything else in it is ignored. */
export function providerFacts(answer: unknown): CompanyFacts | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined;
  const body = answer as Record<string, unknown>;
  const facts: CompanyFacts = {};
  const name = cleanText(body.name, MAX_NAME_LENGTH);
  if (name !== undefined) facts.name = name;
  const description = cleanText(body.description, MAX_DESCRIPTION_LENGTH);
  if (description !== undefined) facts.description = description;
  const employees = typeof body.employees === 'number' ? employeesLabel({ value: body.employees }) : cleanText(body.employees, MAX_EMPLOYEES_LENGTH);
  if (employees !== undefined) facts.employees = employees;
  const industry = cleanText(body.main_industry, MAX_INDUSTRY_LENGTH);
  if (industry !== undefined) facts.main_industry = industry;
  return facts;
}

/** The provider's answer about the domain; undefined when no provider is set. */
export function readProvider(domain: string, settings: SourceSettings, get: HttpGet): Promise<SourceOutcome> | undefined {
  const template = settings.providerUrl;
  if (template === undefined) return undefined;
  return withDeadline(settings.timeoutMs, async (signal) => {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
    if (settings.providerToken !== undefined) headers.authorization = `Bearer ${settings.providerToken}`;
    const response = await get({ url: template.replaceAll('{domain}', encodeURIComponent(domain)), headers, maxBytes: MAX_BYTES, signal, allowPrivate: true });
    if (response.status === 404) return { ok: true, facts: {} };
    if (response.status < 200 || response.status >= 300) return failure(`the provider answered ${response.status}`);
    if (response.truncated) return failure('the provider answered more than 1 MiB');
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body.toString('utf8'));
    } catch {
      return failure('the provider answered something that is not JSON');
    }
    const facts = providerFacts(parsed);
    return facts === undefined ? failure('the provider answered something that is not a JSON object') : { ok: true, facts };
  });
}
