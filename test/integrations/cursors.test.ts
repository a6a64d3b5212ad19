/**
 * Cursor pagination (CONTRACT C8.3) on both stores: walking every list under
 * /api/v1 by its Link rel="next" returns every item once, also while other
 * writes arrive; pagination stays {limit, offset, total}; a cursor of another
 * workspace, endpoint or filter set, an altered one, or one with an offset is 400.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

interface ListAnswer {
  data: { id: string }[];
  pagination: { limit: number; offset: number; total: number };
}

const instant = (index: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 3) * 3_600_000).toISOString();

describe.each(storeKinds())('cursors on %s (C8.3)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const seeded: Record<string, Set<string>> = {};
  let identityId = '';

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Cursors A');
    other = await t.createWorkspace('Cursors B');
    // three items share each created_at, so the id breaks ties
    const leads = Array.from({ length: 23 }, (_, index) => ({
      code: `cursor-${index}`,
      source: index % 2 === 0 ? 'even' : 'odd',
      created_at: instant(index),
    }));
    seeded.leads = new Set(await importRows(t, ws.id, 'leads', leads));
    seeded['leads?source=even'] = new Set([...seeded.leads].filter((_, index) => index % 2 === 0));
    seeded.identities = new Set(
      await importRows(
        t,
        ws.id,
        'identities',
        Array.from({ length: 17 }, (_, index) => ({ email: `cursor${index}@example.com`, created_at: instant(index) })),
      ),
    );
    identityId = [...seeded.identities][0] as string;
    seeded[`identities/${identityId}/activity`] = new Set(
      await importRows(
        t,
        ws.id,
        'activity',
        Array.from({ length: 12 }, (_, index) => ({
          identity_id: identityId,
          type: 'event',
          what: `did ${index}`,
          source: 'web',
          created_at: instant(index),
        })),
      ),
    );
    seeded.companies = new Set(
      await importRows(
        t,
        ws.id,
        'companies',
        Array.from({ length: 11 }, (_, index) => ({ name: `Company ${index}`, domain: `c${index}.example`, created_at: instant(index) })),
      ),
    );
    seeded.lists = new Set(
      await importRows(t, ws.id, 'lists', Array.from({ length: 9 }, (_, index) => ({ name: `List ${index}`, created_at: instant(index) }))),
    );
    seeded.users = new Set(
      await importRows(
        t,
        ws.id,
        'users',
        Array.from({ length: 10 }, (_, index) => ({
          email: `cursor.user${index}@example.com`,
          name: `User ${index}`,
          workspace_role: 'member',
          joined_at: instant(index),
        })),
      ),
    );
    await importRows(t, other.id, 'leads', [{ code: 'other-1' }, { code: 'other-2' }, { code: 'other-3' }]);
  });
  afterAll(async () => t?.close());

  const get = (url: string, workspace = ws) => t.as(workspace, { method: 'GET', url });
  const nextOf = (link: string | string[] | undefined): string | undefined => {
    if (link === undefined) return undefined;
    const match = /^<([^>]+)>; rel="next"$/.exec(String(link));
    expect(match, `Link header ${String(link)}`).not.toBeNull();
    const url = new URL((match as RegExpExecArray)[1] as string);
    return `${url.pathname}${url.search}`;
  };

  /** Walks a list by its Link headers; `during` runs after each page (writes arriving meanwhile). */
  async function walk(first: string, during?: () => Promise<void>): Promise<{ ids: string[]; pages: ListAnswer[] }> {
    const ids: string[] = [];
    const pages: ListAnswer[] = [];
    let url: string | undefined = first;
    while (url !== undefined) {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as ListAnswer;
      pages.push(body);
      ids.push(...body.data.map((item) => item.id));
      url = nextOf(response.headers.link);
      if (pages.length > 1) expect(body.pagination.offset).toBe(0);
      expect(pages.length).toBeLessThan(50);
      await during?.();
    }
    return { ids, pages };
  }

  const paths = () => ['leads', 'leads?source=even', 'identities', `identities/${identityId}/activity`, 'companies', 'lists', 'users'];

  it('C8.3: walking every list by its Link rel="next" returns every item exactly once, with {limit, offset, total}', async () => {
    for (const path of paths()) {
      const separator = path.includes('?') ? '&' : '?';
      const { ids, pages } = await walk(`/api/v1/${path}${separator}limit=4`);
      const expected = seeded[path] as Set<string>;
      // users: the workspace has no other members
      expect(new Set(ids).size, path).toBe(ids.length);
      expect(new Set(ids), path).toEqual(expected);
      expect(pages.length, path).toBe(Math.ceil(expected.size / 4));
      for (const page of pages) {
        expect(Object.keys(page.pagination).sort()).toEqual(['limit', 'offset', 'total']);
        expect(page.pagination.limit).toBe(4);
        expect(page.pagination.total, path).toBe(expected.size);
      }
    }
  });

  it('C8.3: a walk returns every item once while other writes arrive (new leads and identities are newer: they come before the walk)', async () => {
    let written = 0;
    const write = async () => {
      written += 1;
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: `during-${written}`, source: 'even' } })).statusCode).toBe(201);
      expect((await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email: `during${written}@example.com` } })).statusCode).toBe(201);
    };
    const before = { leads: new Set(seeded.leads), identities: new Set(seeded.identities) };
    const leads = await walk('/api/v1/leads?limit=5', write);
    const identities = await walk('/api/v1/identities?limit=5', write);
    for (const [ids, expected] of [
      [leads.ids, before.leads],
      [identities.ids, before.identities],
    ] as const) {
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of expected) expect(ids).toContain(id);
    }
    // the totals count what matches when each page is read
    expect(leads.pages.at(-1)?.pagination.total).toBeGreaterThan(before.leads.size);
  });

  it('C8.3: the last page carries no Link; a page that ends the list exactly carries none either', async () => {
    const all = await get('/api/v1/lists?limit=100');
    expect(all.headers.link).toBeUndefined();
    const exact = await get('/api/v1/lists?limit=9');
    expect((exact.json() as ListAnswer).data).toHaveLength(9);
    expect(exact.headers.link).toBeUndefined();
    const short = await get('/api/v1/lists?limit=8');
    expect(short.headers.link).toMatch(/rel="next"$/);
  });

  /** the cursor with one character of its signature changed (a fixed replacement could equal what it replaces, and the last character of base64url carries padding bits) */
  const altered = (cursor: string) => {
    const at = cursor.indexOf('.') + 3;
    return `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
  };

  it('C8.3: a cursor of another workspace, endpoint or filter set, an altered one, or one with offset is 400', async () => {
    const first = await get('/api/v1/leads?limit=2&source=even');
    const next = nextOf(first.headers.link) as string;
    const cursor = new URL(`http://x${next}`).searchParams.get('cursor') as string;
    expect((await get(next)).statusCode).toBe(200);
    const refused = [
      await get(next, other),
      await get(`/api/v1/leads?limit=2&cursor=${encodeURIComponent(cursor)}`),
      await get(`/api/v1/leads?limit=2&source=odd&cursor=${encodeURIComponent(cursor)}`),
      await get(`/api/v1/identities?limit=2&cursor=${encodeURIComponent(cursor)}`),
      await get(`/api/v1/companies?cursor=${encodeURIComponent(cursor)}`),
      await get(`/api/v1/leads?limit=2&source=even&offset=2&cursor=${encodeURIComponent(cursor)}`),
      await get(`/api/v1/leads?limit=2&source=even&cursor=${encodeURIComponent(altered(cursor))}`),
      await get(`/api/v1/leads?limit=2&source=even&cursor=${encodeURIComponent(`${Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', randomUUID()])).toString('base64url')}.${cursor.split('.')[1]}`)}`),
      await get('/api/v1/leads?cursor=garbage'),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('C8.3: the activity cursor of one identity does not continue another identity', async () => {
    const path = `/api/v1/identities/${identityId}/activity?limit=2`;
    const next = nextOf((await get(path)).headers.link) as string;
    const cursor = new URL(`http://x${next}`).searchParams.get('cursor') as string;
    const otherIdentity = [...(seeded.identities as Set<string>)][1] as string;
    const response = await get(`/api/v1/identities/${otherIdentity}/activity?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(response.statusCode).toBe(400);
  });
});
