/**
 * The origins a site key allows (CONTRACT C5.1): `https://shop.example.com`,
 * or one leading wildcard label, `https://*.example.com`, which matches any
 * subdomain of example.com at any depth (not example.com itself). Origins are
 * compared as browsers send them: scheme, host and port, lower case, the
 * default port left out.
 */

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const WILDCARD = '*.';
/** stands for the wildcard label while the URL parser checks the rest */
const PLACEHOLDER = 'leadlight-wildcard-label';

/** The canonical form of an origin (one trailing slash tolerated), or undefined when it is not an http(s) origin. */
export function canonicalOrigin(text: string): string | undefined {
  const trimmed = text.trim().replace(/\/$/, '');
  if (/[/?#\\@\s]/.test(trimmed.slice(trimmed.indexOf('://') + 3))) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!(url.protocol in DEFAULT_PORTS) || url.hostname === '') return undefined;
  const port = url.port === '' || url.port === DEFAULT_PORTS[url.protocol] ? '' : `:${url.port}`;
  return `${url.protocol}//${url.hostname}${port}`;
}

/**
 * The canonical form of an allowed-origin pattern, or undefined when it is
 * neither an origin nor an origin whose host starts with one `*.` label
 * followed by at least two labels.
 */
export function canonicalPattern(text: string): string | undefined {
  const trimmed = text.trim();
  const schemeEnd = trimmed.indexOf('://');
  if (schemeEnd > 0 && trimmed.startsWith(WILDCARD, schemeEnd + 3)) {
    const rest = trimmed.slice(schemeEnd + 3 + WILDCARD.length);
    const canonical = canonicalOrigin(`${trimmed.slice(0, schemeEnd + 3)}${PLACEHOLDER}.${rest}`);
    if (canonical === undefined) return undefined;
    const host = new URL(canonical).hostname.slice(PLACEHOLDER.length + 1);
    if (!host.includes('.') || host.includes('*') || /^[\d.]+$/.test(host)) return undefined;
    return canonical.replace(PLACEHOLDER, '*');
  }
  if (trimmed.includes('*')) return undefined;
  return canonicalOrigin(trimmed);
}

/** Whether `origin` (the request's Origin header) is allowed by `patterns` (canonical; empty allows any). */
export function originAllowed(patterns: readonly string[], origin: string | undefined): boolean {
  if (patterns.length === 0 || origin === undefined) return true;
  const canonical = canonicalOrigin(origin);
  if (canonical === undefined) return false;
  for (const pattern of patterns) {
    if (pattern === canonical) return true;
    const star = pattern.indexOf('://*.');
    if (star === -1) continue;
    const scheme = pattern.slice(0, star + 3);
    // ".example.com" (with the port, if the pattern has one)
    const suffix = pattern.slice(star + 4);
    const host = canonical.slice(scheme.length);
    if (canonical.startsWith(scheme) && host.endsWith(suffix) && host.length > suffix.length) {
      if (!host.slice(0, -suffix.length).includes(':')) return true;
    }
  }
  return false;
}
