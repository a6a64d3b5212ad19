/**
 * A small multi-page website with the tracker installed (issue 10, item 7):
 * `npm run demo-site` serves it for people to click around in, and the
 * browser test drives it. Static pages linked to each other (home, pricing,
 * docs, blog), a single-page app that changes its URL with the history API
 * (and also calls replaceState without changing it), and a sign-up form that
 * identifies the visitor and records a conversion. Every page has the
 * loader snippet: a stub of window.leadlight that queues calls made before
 * the tracker arrives, then the tracker itself from the Leadlight server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUE_STUB } from '../../src/services/operator/install-snippet.js';

export interface DemoSiteOptions {
  /** where Leadlight serves /t.js, e.g. http://127.0.0.1:3000 */
  leadlightUrl: string;
  siteKey: string;
  /** the tracker's data-cookieless: nothing stored in the browser */
  cookieless?: boolean;
  host?: string;
  port?: number;
  scriptPath?: string;
}

export interface DemoSite {
  url: string;
  close(): Promise<void>;
}

/** The loader snippet of CONTRACT C5.2, with the pre-load queue (README: "Install the tracker"). */
export function snippet(leadlightUrl: string, siteKey: string, cookieless = false, scriptPath = '/t.js'): string {
  // the stub the dashboard's snippet carries (Settings, first run): the tracker's browser test drives this one
  return `${QUEUE_STUB}\n<script defer src="${leadlightUrl}${scriptPath}" data-key="${siteKey}"${cookieless ? ' data-cookieless' : ''}></script>`;
}

const NAV = '<nav><a href="/">Home</a> · <a href="/pricing">Pricing</a> · <a href="/docs">Docs</a> · <a href="/blog">Blog</a> · <a href="/app">App</a> · <a href="/signup">Sign up</a></nav>';

const PAGES: Record<string, { title: string; body: string; head?: string }> = {
  '/': {
    title: 'Northwind Analytics',
    body: '<h1>Know who visits</h1><p>Northwind shows you the people and companies behind your traffic.</p><p><a id="to-pricing" href="/pricing">See pricing</a></p>',
  },
  '/pricing': {
    title: 'Pricing',
    // runs before the deferred tracker: the stub queues the call and the tracker replays it
    head: "<script>leadlight.track('Compared plans', { currency: 'EUR' });</script>",
    body: '<h1>Pricing</h1><ul><li>Starter: free</li><li>Growth: 49 € a month</li><li>Enterprise: talk to us</li></ul><p><a id="to-app" href="/app">Try the app</a></p>',
  },
  '/docs': { title: 'Docs', body: '<h1>Docs</h1><p>Install the script, identify your users, record conversions.</p>' },
  '/blog': { title: 'Blog', body: '<h1>Blog</h1><p>First-party tracking without the cookie banner.</p>' },
  '/app': {
    title: 'App',
    body: `<h1 id="view">App: overview</h1>
<p><button id="reports">Reports</button> <button id="settings">Settings</button> <button id="noise">Save scroll position</button></p>
<script>
  function go(path, title) { history.pushState({ path: path }, '', path); document.title = title; document.getElementById('view').textContent = title; }
  document.getElementById('reports').onclick = function () { go('/app/reports', 'App: reports'); };
  document.getElementById('settings').onclick = function () { go('/app/settings', 'App: settings'); };
  // state that changes, a URL that does not: no page view
  document.getElementById('noise').onclick = function () { history.replaceState({ scroll: window.scrollY }, '', location.href); };
  window.addEventListener('popstate', function () { document.getElementById('view').textContent = document.title; });
</script>`,
  },
  '/signup': {
    title: 'Sign up',
    body: `<h1>Start your free trial</h1>
<form id="signup"><label>Email <input name="email" type="email" required></label> <label>Name <input name="name"></label>
<label>Company <input name="company"></label> <button type="submit">Sign up</button></form>
<p id="thanks" hidden>Thanks! Check your inbox.</p>
<script>
  document.getElementById('signup').addEventListener('submit', function (event) {
    event.preventDefault();
    var form = new FormData(event.target);
    leadlight.identify({ email: form.get('email'), name: form.get('name'), company: form.get('company') });
    leadlight.conversion('Signed up', { code: 'trial-signup', properties: { plan: 'growth' } });
    document.getElementById('thanks').hidden = false;
  });
</script>`,
  },
};

function page(path: string, options: DemoSiteOptions): string | undefined {
  const content = PAGES[path.startsWith('/app/') ? '/app' : path];
  if (content === undefined) return undefined;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${content.title}</title><link rel="icon" href="data:,">
${snippet(options.leadlightUrl, options.siteKey, options.cookieless, options.scriptPath)}
${content.head ?? ''}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}nav{margin-bottom:2rem}</style>
</head><body>${NAV}<main>${content.body}</main></body></html>`;
}

export async function startDemoSite(options: DemoSiteOptions): Promise<DemoSite> {
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const html = page(path, options);
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
