/**
 * Where a session came from (CONTRACT C5.7): the utm_* parameters of its
 * landing page, its referrer, and the source they give its conversions'
 * leads: `campaign` when the landing page carries utm_source, utm_medium or
 * utm_campaign; `referral` when the referrer is another site (another host
 * name, `www.` aside); otherwise `website`.
 */
import { memoize } from './memo.js';

export type LeadSource = 'campaign' | 'referral' | 'website';

const CAMPAIGN_PARAMETERS = ['utm_source', 'utm_medium', 'utm_campaign'];

function parse(url: string | null | undefined): URL | undefined {
  if (url === null || url === undefined || url === '') return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The utm_* parameters of a URL (names lower-cased, the first value of each, empty ones left out). */
export function utmOf(url: string | null): Record<string, string> {
  const utm: Record<string, string> = {};
  for (const [name, value] of parse(url)?.searchParams ?? []) {
    const key = name.toLowerCase();
    if (key.startsWith('utm_') && value !== '' && !(key in utm)) utm[key] = value;
  }
  return utm;
}

const parsedPath = memoize((url) => parse(url)?.pathname ?? null, 5_000);

/** The path of a URL, null when it is not one (memoized: each event of a batch asks, memo.ts). */
export function pathOf(url: string | null | undefined): string | null {
  return url === null || url === undefined ? null : parsedPath(url);
}

const siteOf = (url: URL) => url.hostname.replace(/^www\./, '');

/** Whether `referrer` is a page of another site than `page`. */
export function isExternalReferrer(referrer: string | null, page: string | null): boolean {
  const from = parse(referrer);
  if (from === undefined) return false;
  const to = parse(page);
  return to === undefined || siteOf(from) !== siteOf(to);
}

export function sourceOf(utm: Record<string, string>, referrer: string | null, landingPage: string | null): LeadSource {
  if (CAMPAIGN_PARAMETERS.some((name) => utm[name] !== undefined)) return 'campaign';
  return isExternalReferrer(referrer, landingPage) ? 'referral' : 'website';
}
