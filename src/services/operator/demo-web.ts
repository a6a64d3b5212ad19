/**
 * The demo's stand-in for the web (CONTRACT C6.7, C5.8): the home pages of
 * the demo's companies and a data provider, answered in process, so that
 * the demo's companies get their names, descriptions, sizes and industries
 * through the same enrichment as any company (the same redirects, size
 * limit, HTML parsing and merge rules), without a request leaving the
 * machine. Each company's page is written in one of a few styles real sites
 * use (Open Graph, JSON-LD Organization, a title with a tagline, a
 * redirect to www), and the provider answers its industry.
 */
import type { SourceSettings } from '../enrichment/sources.js';
import type { GetResponse, HttpGet } from '../enrichment/http-get.js';

/** What the demo knows about one of its companies: what its website and the provider will say. */
export interface DemoSite {
  name: string;
  domain: string;
  description: string;
  /** a size range, `<min>-<max>` */
  employees: string;
  industry: string;
}

const PROVIDER = 'https://data.leadlight-demo.example/v1/companies/';

/** The demo's enrichment settings: the websites at their usual address, and the demo's provider. */
export const DEMO_ENRICHMENT: SourceSettings = {
  websiteUrl: 'https://{domain}/',
  providerUrl: `${PROVIDER}{domain}`,
  providerToken: undefined,
  allowPrivate: false,
  timeoutMs: 5_000,
};

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function organization(site: DemoSite, graph: boolean): string {
  const [min, max] = site.employees.split('-').map(Number);
  const org = {
    '@type': 'Organization',
    name: site.name,
    url: `https://www.${site.domain}/`,
    numberOfEmployees: { '@type': 'QuantitativeValue', minValue: min, maxValue: max },
  };
  const document = graph
    ? { '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: `${site.name} website`, url: `https://www.${site.domain}/` }, org] }
    : { '@context': 'https://schema.org', ...org };
  return `<script type="application/ld+json">${JSON.stringify(document).replace(/</g, '\\u003c')}</script>`;
}

/** The home page of a demo company, in the style its index picks. */
export function demoPage(site: DemoSite, style: number): string {
  const head: string[] = ['<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">'];
  switch (style % 3) {
    case 0:
      head.push(
        `<title>${escape(site.name)} | ${escape(site.description)}</title>`,
        `<meta property="og:site_name" content="${escape(site.name)}">`,
        `<meta property="og:description" content="${escape(site.description)}">`,
        organization(site, false),
      );
      break;
    case 1:
      head.push(`<title>Home | ${escape(site.name)}</title>`, `<meta name="description" content="${escape(site.description)}">`, organization(site, true));
      break;
    default:
      head.push(
        `<title>${escape(site.name)}</title>`,
        `<meta name="description" content="${escape(site.description)}">`,
        `<meta property="og:site_name" content="${escape(site.name)}">`,
        organization(site, false),
      );
  }
  return `<!doctype html><html lang="en"><head>${head.join('')}</head><body><header><a href="/">${escape(site.name)}</a></header><main><h1>${escape(site.description)}</h1></main></body></html>`;
}

const answer = (status: number, body: string, contentType: string | null, location: string | null = null): GetResponse => ({
  status,
  location,
  contentType,
  body: Buffer.from(body),
  truncated: false,
});

/**
 * The demo's web: `https://<domain>/` of every other company redirects to
 * its `www.` host; the pages answer as demoPage writes them; the provider
 * answers each company's industry; anything else is not found.
 */
export function demoWeb(sites: readonly DemoSite[]): HttpGet {
  const byDomain = new Map(sites.map((site, index) => [site.domain, { site, index }]));
  return async (request) => {
    const url = new URL(request.url);
    if (request.url.startsWith(PROVIDER)) {
      const known = byDomain.get(decodeURIComponent(url.pathname.slice(new URL(PROVIDER).pathname.length)));
      return known === undefined ? answer(404, '{}', 'application/json') : answer(200, JSON.stringify({ main_industry: known.site.industry }), 'application/json');
    }
    const host = url.hostname;
    const apex = byDomain.get(host);
    if (apex !== undefined && apex.index % 2 === 1) return answer(301, '', 'text/html', `https://www.${host}/`);
    const known = apex ?? (host.startsWith('www.') ? byDomain.get(host.slice(4)) : undefined);
    if (known === undefined || url.pathname !== '/') return answer(404, '<!doctype html><title>Not found</title>', 'text/html');
    return answer(200, demoPage(known.site, known.index), 'text/html; charset=utf-8');
  };
}
