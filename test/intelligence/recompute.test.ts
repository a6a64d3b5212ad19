/**
 * `leadlight recompute` and `leadlight workspace settings` through the CLI,
 * on the store an API instance serves, on both stores (docs/intelligence.md):
 * recompute rebuilds from the log exactly what the incremental path derived
 * (aggregates, scores, personalities, segments, companies), repairs derived
 * data that was lost, and changes nothing when run again; the ideal customer
 * set by the CLI gives fit points.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { emptyAggregates } from '../../src/intelligence/aggregates.js';
import { Store } from '../../src/repositories/index.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, identify, pageView, postEvents, track, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;

async function cli(argv: string[], databaseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await run(argv, {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    stdin: Readable.from([]),
    env: { DATABASE_URL: databaseUrl, LEADLIGHT_DEMO: 'false' },
  });
  return { code, stdout, stderr };
}

describe.each(storeKinds())('recompute and settings on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Recompute');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[]) => expect((await postEvents(base, key, events, { 'x-forwarded-for': '24.48.0.1' })).status).toBe(202);
  const repos = () => new Store(t.db.database).forWorkspace(workspace.id).repos;

  /** Everything intelligence derived in the workspace, as the API and the store show it. */
  async function derived(visitors: string[]) {
    const leads = (await all(base, workspace, '/leads')).map((lead) => ({ id: lead.id, summary: lead.summary, company_id: lead.company_id, match: (lead.properties as Item).company_match }));
    const identities = await all(base, workspace, '/identities');
    const personalities: Record<string, unknown> = {};
    for (const identity of identities) {
      personalities[identity.email as string] = (await all(base, workspace, `/identities/${String(identity.id)}/personalities`)).map((entry) => ({
        type: (entry.personality as Item).type,
        learning: entry.learning_percentage,
        id: entry.id,
      }));
    }
    const lists: Record<string, unknown> = {};
    for (const list of await all(base, workspace, '/lists')) {
      lists[list.name as string] = (await all(base, workspace, `/lists/${String(list.id)}/identities`)).map((identity) => identity.email);
    }
    const aggregates: Record<string, unknown> = {};
    for (const visitor of visitors) aggregates[visitor] = JSON.parse((await repos().visitors.find(visitor))!.aggregates as string);
    const companies = (await all(base, workspace, '/companies')).map((company) => company.domain);
    return { leads, personalities, lists, aggregates, companies };
  }

  it('recompute gives the same results as the incremental path, restores what was lost, and is idempotent', async () => {
    const created = await t.as(workspace, {
      method: 'POST',
      url: '/api/v1/lists',
      payload: { name: 'Pricing readers', rule: { all: [{ events: { kind: 'pricing', at_least: 2, within_days: 30 } }] } },
    });
    expect(created.statusCode).toBe(201);
    const visitors = [randomUUID(), randomUUID(), randomUUID()];
    const start = Date.now() - 20 * 60_000;
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    await send([pageView(visitors[0], '/pricing', { ts: at(0) }), pageView(visitors[0], '/docs/a', { ts: at(1) }), pageView(visitors[0], '/pricing/team', { ts: at(2) })]);
    await send([identify(visitors[0], { email: 'rita@recompute-robotics.com' }, { ts: at(3) }), conversion(visitors[0], 'Signed up', { ts: at(4) })]);
    await send(['/blog/a', '/blog/b', '/blog/c', '/blog/d', '/blog/e', '/about'].map((path, index) => pageView(visitors[1], path, { ts: at(5 + index) })));
    await send([identify(visitors[1], { email: 'sam@gmail.com' }, { ts: at(12) }), track(visitors[1], 'Opened chat', { ts: at(13) }), conversion(visitors[1], 'Newsletter', { ts: at(14) })]);
    await send([pageView(visitors[2], '/security', { ts: at(15) }), conversion(visitors[2], 'Contact', { ts: at(16) })]);
    await t.services.intelligence.runWorkspace(workspace.id);
    const incremental = await derived(visitors);
    expect(incremental.lists['Pricing readers']).toEqual(['rita@recompute-robotics.com']);
    expect(incremental.leads.every((lead) => (lead.summary as Item | null)?.score !== undefined)).toBe(true);

    // derived data lost: a visitor's aggregates, a lead's score, a segment's members
    await repos().visitors.setAggregates(visitors[0]!, JSON.stringify(emptyAggregates()), null);
    const lead = incremental.leads.find((entry) => entry.match !== undefined)!;
    await t.as(workspace, { method: 'PATCH', url: `/api/v1/leads/${String(lead.id)}`, payload: { summary: null } });
    await repos().listMembers.removeAll(String((created.json().data as Item).id));
    expect(await derived(visitors)).not.toEqual(incremental);

    const first = await cli(['recompute', '--workspace', workspace.id, '--json'], t.db.url);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ workspace_id: workspace.id, visitors: 3, identities: 2 });
    const recomputed = await derived(visitors);
    expect(recomputed).toEqual(incremental);

    const again = await cli(['recompute', '--workspace', workspace.id, '--what', 'scores', '--what', 'segments', '--json'], t.db.url);
    expect(again.code, again.stderr).toBe(0);
    expect(await derived(visitors)).toEqual(incremental);
  });

  it('workspace settings: the ideal customer set by the CLI gives fit points; bad settings are refused and change nothing', async () => {
    const shown = await cli(['workspace', 'settings', '--workspace', workspace.id], t.db.url);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ideal_customer: { industries: [], employee_ranges: [], countries: [] }, page_kinds: { pricing: expect.arrayContaining(['/pricing*']) } });
    const visitor = randomUUID();
    await send([pageView(visitor, '/'), conversion(visitor, 'Signed up')]);
    await t.services.intelligence.runWorkspace(workspace.id);
    const scoreOf = async () => ((await all(base, workspace, '/leads')).find((lead) => lead.visitor_id === visitor)!.summary as Item).score as number;
    const before = await scoreOf();

    const bad = await cli(['workspace', 'settings', '--workspace', workspace.id, '--set', '{"ideal_customer":{"countries":["Canada"]}}'], t.db.url);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^leadlight: /);
    const set = await cli(['workspace', 'settings', '--workspace', workspace.id, '--set', '{"ideal_customer":{"countries":["CA"]}}'], t.db.url);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).ideal_customer.countries).toEqual(['CA']);
    // the address (24.48.0.1) is in Canada: 5 fit points, once the settings reach the worker
    const recomputed = await cli(['recompute', '--workspace', workspace.id, '--what', 'scores', '--json'], t.db.url);
    expect(recomputed.code, recomputed.stderr).toBe(0);
    expect(await scoreOf()).toBe(before + 5);
    const reasons = ((await all(base, workspace, '/leads')).find((lead) => lead.visitor_id === visitor)!.summary as Item).score_reasons;
    expect(reasons).toContain('from an ideal country (CA)');
  });
});
