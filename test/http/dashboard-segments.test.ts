/**
 * C9.6 over real HTTP on both stores: the segment builder's draft count is
 * the membership the worker gives the saved rule; a bad draft is a 400
 * naming the place in the rule; the count's bound (EVENT_DETAIL_LIMIT
 * people for rules that read recent events) is met at its exact edge and
 * said in the answer; suggestions are the most frequent values, at most
 * twenty; lists carry their member counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { EVENT_DETAIL_LIMIT, SUGGESTION_LIMIT } from '../../src/services/tenant/segment-draft.service.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { eventually } from '../helpers/tracking.js';

describe.each(storeKinds())('C9.6: the segment builder on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let viewer: DashboardSession;
  let editor: DashboardSession;

  const rule = {
    all: [
      { field: 'trait.plan', op: 'eq', value: 'pro' },
      { any: [{ field: 'company.main_industry', op: 'eq', value: 'Software' }, { field: 'country', op: 'eq', value: 'NO' }] },
    ],
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Segments');
    viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
    editor = await signIn(base, await member(t, workspace.id, 'member'));
    const [software, retail] = await importRows(t, workspace.id, 'companies', [
      { name: 'Initech', domain: 'initech.test', main_industry: 'Software' },
      { name: 'Shopco', domain: 'shopco.test', main_industry: 'Retail' },
    ]);
    // through the API: pro at a software company (2), pro in Norway at a shop (1), pro at a shop (1), free at a software company (2)
    const people: { email: string; plan: string; company: string; country?: string }[] = [
      { email: 'a@initech.test', plan: 'pro', company: software! },
      { email: 'b@initech.test', plan: 'pro', company: software! },
      { email: 'c@shopco.test', plan: 'pro', company: retail!, country: 'NO' },
      { email: 'd@shopco.test', plan: 'pro', company: retail! },
      { email: 'e@initech.test', plan: 'free', company: software! },
      { email: 'f@initech.test', plan: 'free', company: software! },
    ];
    const repos = new Store(t.db.database).forWorkspace(workspace.id).repos;
    for (const person of people) {
      let id: string;
      if (person.country === undefined) {
        const created = await t.as(workspace, { method: 'POST', url: '/api/v1/identities', payload: { email: person.email, traits: { plan: person.plan } } });
        expect(created.statusCode).toBe(201);
        id = (created.json().data as { id: string }).id;
      } else {
        // a country comes from events or the import, never the API's body
        [id] = (await importRows(t, workspace.id, 'identities', [{ email: person.email, country: person.country, traits: { plan: person.plan } }])) as [string];
      }
      await repos.identities.setCompany(id, person.company);
    }
  });
  afterAll(async () => {
    await t?.services.intelligence.stop();
    await t?.close();
  });

  const count = async (session: DashboardSession, draft: unknown) => dashboard(base, session, 'POST', '/segments/count', { rule: draft });

  it('C9.6: a viewer sees the draft count; a member saves it, and the saved segment fills with exactly that many, shown as its member count', async () => {
    const draft = await count(viewer, rule);
    expect(draft.status).toBe(200);
    expect(draft.body).toEqual({ data: { count: 3, examined: 6, complete: true } });

    const saved = await dashboard(base, editor, 'POST', '/lists', { name: 'Pro software or Norway', rule });
    expect(saved.status).toBe(201);
    const id = (saved.body.data as { id: string }).id;
    t.services.intelligence.start(50, () => {});
    const detail = await eventually(
      () => dashboard(base, viewer, 'GET', `/lists/${id}`),
      (answer) => (answer.body.data as { members: number }).members === 3,
      30_000,
    );
    expect(detail.body.data).toMatchObject({ id, rule, members: 3 });
    const lists = await dashboard(base, viewer, 'GET', '/lists');
    expect((lists.body.data as { id: string; members: number }[]).find((list) => list.id === id)?.members).toBe(3);

    // edited by the builder: one condition changed, the count follows
    const edited = { all: [{ field: 'trait.plan', op: 'eq', value: 'free' }, rule.all[1]] };
    expect((await count(viewer, edited)).body).toEqual({ data: { count: 2, examined: 6, complete: true } });
    expect((await dashboard(base, editor, 'PATCH', `/lists/${id}`, { rule: edited })).status).toBe(200);
    await eventually(
      () => dashboard(base, viewer, 'GET', `/lists/${id}`),
      (answer) => (answer.body.data as { members: number }).members === 2,
      30_000,
    );
  });

  it('C9.6, C3.5: a bad draft is a 400 naming the place in the rule, and a viewer cannot save one', async () => {
    const bad = await count(viewer, { all: [{ field: 'trait.plan', op: 'eq', value: 'pro' }, { field: 'score', op: 'gt', value: 'high' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request', details: { fields: { 'rule.all[1].value': expect.stringContaining('number') } } });
    const unknownField = await count(viewer, { any: [{ field: 'salary', op: 'eq', value: 1 }] });
    expect(unknownField.status).toBe(400);
    expect(Object.keys((unknownField.body.details as { fields: Record<string, string> }).fields)).toEqual(['rule.any[0].field']);
    expect((await count(viewer, 'everyone')).status).toBe(400);
    expect((await dashboard(base, viewer, 'POST', '/lists', { name: 'Not mine to save', rule })).status).toBe(403);
  });

  it('C9.6: suggestions are the most frequent values first, at most twenty', async () => {
    const suggest = async (of: string) => {
      const answer = await dashboard(base, viewer, 'GET', `/segments/suggestions?of=${encodeURIComponent(of)}`);
      expect(answer.status).toBe(200);
      return answer.body.data as { value: string; count: number }[];
    };
    expect(await suggest('traits')).toEqual([{ value: 'plan', count: 6 }]);
    expect(await suggest('trait.plan')).toEqual([
      { value: 'pro', count: 4 },
      { value: 'free', count: 2 },
    ]);
    expect(await suggest('company.main_industry')).toEqual([
      { value: 'Retail', count: 1 },
      { value: 'Software', count: 1 },
    ]);
    const crowd = await t.createWorkspace('Crowd');
    await importRows(t, crowd.id, 'identities', Array.from({ length: SUGGESTION_LIMIT + 1 }, (_, index) => ({ email: `p${index}@crowd.test`, city: `City ${index}` })));
    const session = await signIn(base, await member(t, crowd.id, 'viewer'));
    const cities = await dashboard(base, session, 'GET', '/segments/suggestions?of=city');
    expect((cities.body.data as unknown[]).length).toBe(SUGGESTION_LIMIT);
    expect((await dashboard(base, viewer, 'GET', '/segments/suggestions?of=salary')).status).toBe(400);
  });

  it(`C9.6: a rule that reads recent events looks at ${EVENT_DETAIL_LIMIT} people at most, and says when it stopped short`, async () => {
    const bulk = await t.createWorkspace('Bulk');
    const session = await signIn(base, await member(t, bulk.id, 'viewer'));
    const people = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => ({ email: `p${from + index}@bulk.test` }));
    await importRows(t, bulk.id, 'identities', people(0, EVENT_DETAIL_LIMIT));
    const detailed = { any: [{ events: { kind: 'page_view', path: '/pricing*', at_least: 1, within_days: 7 } }, { field: 'email', op: 'ends_with', value: '@bulk.test' }] };
    expect((await count(session, detailed)).body).toEqual({ data: { count: EVENT_DETAIL_LIMIT, examined: EVENT_DETAIL_LIMIT, complete: true } });
    await importRows(t, bulk.id, 'identities', people(EVENT_DETAIL_LIMIT, EVENT_DETAIL_LIMIT + 1));
    expect((await count(session, detailed)).body).toEqual({ data: { count: EVENT_DETAIL_LIMIT, examined: EVENT_DETAIL_LIMIT, complete: false } });
    // without event details the same people are all looked at
    expect((await count(session, { all: [detailed.any[1]] })).body).toEqual({ data: { count: EVENT_DETAIL_LIMIT + 1, examined: EVENT_DETAIL_LIMIT + 1, complete: true } });
  });
});
