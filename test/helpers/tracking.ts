/**
 * Tracking fixtures: site keys made through the service the CLI uses, events
 * as the tracker builds them, batches posted to the events endpoint over real
 * HTTP with a browser's User-Agent (a Node client's would be ignored as a
 * bot), and polling for what events derive.
 */
import { randomUUID } from 'node:crypto';
import type { TestApp, TestWorkspace } from './app.js';

/** A desktop Chrome, as the browser test's context claims to be. */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
export const SITE = 'https://shop.example.com';

export async function createSiteKey(t: TestApp, workspace: TestWorkspace, origins: string[] = []): Promise<{ id: string; key: string }> {
  const created = await t.services.siteKeys.create(workspace.id, 'test site', origins);
  return { id: created.id, key: created.key };
}

export type Event = Record<string, unknown>;

export function pageView(visitor: string | undefined, path: string, extra: Event = {}): Event {
  return { id: randomUUID(), type: 'page', ...(visitor === undefined ? {} : { visitor_id: visitor }), url: `${SITE}${path}`, title: `Title of ${path}`, ...extra };
}

export function identify(visitor: string | undefined, traits: Event, extra: Event = {}): Event {
  return { id: randomUUID(), type: 'identify', ...(visitor === undefined ? {} : { visitor_id: visitor }), traits, ...extra };
}

export function conversion(visitor: string | undefined, name: string, extra: Event = {}): Event {
  return { id: randomUUID(), type: 'conversion', ...(visitor === undefined ? {} : { visitor_id: visitor }), name, ...extra };
}

export function track(visitor: string | undefined, name: string, extra: Event = {}): Event {
  return { id: randomUUID(), type: 'track', ...(visitor === undefined ? {} : { visitor_id: visitor }), name, ...extra };
}

export interface Posted {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Posts a batch to the events endpoint as text/plain (what the tracker sends). */
export async function postEvents(
  base: string,
  key: string,
  events: Event[],
  headers: Record<string, string> = {},
  path = '/e',
): Promise<Posted> {
  return postBody(base, JSON.stringify({ key, events }), headers, path);
}

export async function postBody(base: string, body: string | Uint8Array, headers: Record<string, string> = {}, path = '/e'): Promise<Posted> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_UA, ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** GET under /api/v1 with the workspace's production key; answers the parsed body. */
export async function api(base: string, workspace: TestWorkspace, path: string): Promise<{ status: number; body: { data: unknown; pagination?: { total: number } } }> {
  const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${workspace.production.key}` } });
  return { status: response.status, body: (await response.json()) as { data: unknown; pagination?: { total: number } } };
}

/** Every item of a list under /api/v1, walked 100 at a time. */
export async function all<T = Record<string, unknown>>(base: string, workspace: TestWorkspace, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await api(base, workspace, `${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    if (status !== 200) throw new Error(`${path} answered ${status}`);
    items.push(...(body.data as T[]));
    if (items.length >= (body.pagination?.total ?? 0)) return items;
  }
}

/** Polls `read` until `done` holds of its answer, for at most `ms`; answers the last reading. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
