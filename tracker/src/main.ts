/**
 * The Leadlight tracker (CONTRACT C5.2), installed with
 * `<script defer src="https://leadlight.example.com/t.js" data-key="ll_site_…"></script>`.
 * It records a page view on load and on every history navigation that
 * changes the URL (replaceState that keeps it is not one; the fragment only
 * counts with `data-hash`), exposes window.leadlight.identify, .track,
 * .conversion and .page, replays calls queued by the loader snippet before
 * it arrived, and sends everything to the origin it was loaded from. It
 * defines nothing but window.leadlight and never throws into the page.
 */
import { createSender, type TrackedEvent } from './sender';
import { uuid } from './uuid';
import { visitorId } from './visitor';

type Call = [string, unknown[]];
interface Api {
  v: number;
  page(): void;
  identify(traits: unknown): void;
  track(name: unknown, properties?: unknown): void;
  conversion(name: unknown, options?: unknown): void;
}

declare global {
  interface Window {
    leadlight?: Partial<Api> & { q?: Call[] };
  }
}

(() => {
  const w = window;
  const d = document;
  const loaded = w.leadlight;
  if (loaded?.v) return;
  const script = (d.currentScript ?? d.querySelector('script[data-key]')) as HTMLScriptElement | null;
  const key = script?.getAttribute('data-key');
  if (!script || !key) return;
  const has = (name: string) => script.hasAttribute(name);
  const hashRoutes = has('data-hash');
  const sender = createSender(new URL(EVENTS_PATH, script.src).href, key);
  const visitor = visitorId(has('data-cookieless'));
  let lastPage: string | undefined;
  /** events of one millisecond still get distinct, ordered times */
  let lastTime = 0;

  const text = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined);
  const object = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? value : undefined);
  const route = (url = '') => (hashRoutes ? url : url.split('#')[0]);

  function record(type: string, fields: TrackedEvent): void {
    lastTime = Math.max(Date.now(), lastTime + 1);
    const event: TrackedEvent = { id: uuid(), type, visitor_id: visitor, ts: new Date(lastTime).toISOString(), url: location.href.slice(0, 2000), ...fields };
    try {
      // properties that cannot be sent (a cycle, a BigInt) drop the event here, not the batch later
      JSON.stringify(event);
      sender.push(event);
    } catch {
      // nothing to tell the page
    }
  }

  function page(): void {
    record('page', { title: text(d.title, 500), referrer: text(lastPage ?? d.referrer, 2000) });
    lastPage = location.href;
  }

  function navigated(): void {
    setTimeout(() => {
      if (route(location.href) !== route(lastPage)) page();
    });
  }

  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      navigated();
      return result;
    };
  }
  w.addEventListener('popstate', navigated);
  if (hashRoutes) w.addEventListener('hashchange', navigated);
  d.addEventListener('visibilitychange', () => {
    if (d.visibilityState === 'hidden') sender.flush(true);
  });
  w.addEventListener('pagehide', () => sender.flush(true));

  const api: Api = {
    v: 1,
    page,
    identify(traits) {
      if (object(traits)) record('identify', { traits });
    },
    track(name, properties) {
      if (text(name, 100)) record('track', { name: text(name, 100), properties: object(properties) });
    },
    conversion(name, options) {
      const given = (object(options) ?? {}) as { code?: unknown; properties?: unknown };
      if (text(name, 100)) record('conversion', { name: text(name, 100), code: text(given.code, 255), properties: object(given.properties) });
    },
  };
  w.leadlight = api;
  page();
  for (const [method, args] of loaded?.q ?? []) {
    try {
      (api[method as keyof Api] as (...values: unknown[]) => void)(...args);
    } catch {
      // a call the stub queued that is not one of ours
    }
  }
})();
