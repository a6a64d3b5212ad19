/**
 * The intelligence worker's queue on both stores (CONTRACT C5.x "also after
 * a crash", C6.3): a visitor claimed by a worker that died is refreshed by
 * another once the claim's lease ends; two workers running at once never
 * refresh one visitor twice (no duplicate personality entries); a visitor
 * with fewer than five page views gets its first entry when its first
 * session ends, not before.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { IntelligenceWorker } from '../../src/services/intelligence/worker.js';
import { SettingsCache } from '../../src/services/intelligence/settings-cache.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const MINUTE = 60_000;

describe.each(storeKinds())('the intelligence worker on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Worker');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[]) => expect((await postEvents(base, key, events)).status).toBe(202);
  const repos = () => new Store(t.db.database).forWorkspace(workspace.id).repos;
  const leadOf = async (visitor: string) => (await all(base, workspace, '/leads')).find((lead) => lead.visitor_id === visitor)!;

  it("a dead worker's claim ends with its lease, and another process refreshes the visitor", async () => {
    const visitor = randomUUID();
    await send([pageView(visitor, '/pricing'), conversion(visitor, 'Signed up')]);
    const now = Date.now();
    // a worker claims the visitor and dies before finishing (kill -9: nothing in memory survives)
    const claimed = await repos().intelligenceDue.claim(new Date(now).toISOString(), new Date(now + 30_000).toISOString(), 'dead-worker', 200);
    expect(claimed).toContain(visitor);
    expect(await t.services.intelligence.runWorkspace(workspace.id, now)).toBe(0);
    expect((await leadOf(visitor)).summary).toBeNull();
    // after the lease, any process takes it
    expect(await t.services.intelligence.runWorkspace(workspace.id, now + 31_000)).toBeGreaterThanOrEqual(1);
    expect((await leadOf(visitor)).summary).toMatchObject({ score: expect.any(Number), status: expect.any(String) });
    expect(await repos().intelligenceDue.countDue(new Date(now + 31_000).toISOString())).toBe(0);
  });

  it('two workers at once refresh each visitor once: one personality entry per visitor', async () => {
    const visitors = Array.from({ length: 12 }, () => randomUUID());
    for (const visitor of visitors) await send(['/docs/a', '/docs/b', '/docs/c', '/docs/d', '/docs/e'].map((path) => pageView(visitor, path)));
    const other = new IntelligenceWorker(new Store(t.db.database), new SettingsCache(new Store(t.db.database)), { batch: 3 });
    const mine = new IntelligenceWorker(new Store(t.db.database), new SettingsCache(new Store(t.db.database)), { batch: 3 });
    const [first, second] = await Promise.all([mine.runWorkspace(workspace.id), other.runWorkspace(workspace.id)]);
    expect(first + second).toBeGreaterThanOrEqual(visitors.length);
    for (const visitor of visitors) expect(await repos().personalities.listForVisitor(visitor, 10), visitor).toHaveLength(1);
  });

  it('C6.3: with fewer than five page views, the first personality entry comes when the first session ends', async () => {
    const visitor = randomUUID();
    const email = `short-${visitor.slice(0, 8)}@example.org`;
    await send([identify(visitor, { email }), pageView(visitor, '/pricing'), pageView(visitor, '/plans')]);
    const now = Date.now();
    await t.services.intelligence.runWorkspace(workspace.id, now);
    expect(await repos().personalities.listForVisitor(visitor, 10)).toEqual([]);
    // the worker marked it due for the end of the session, and not earlier
    await t.services.intelligence.runWorkspace(workspace.id, now + 10 * MINUTE);
    expect(await repos().personalities.listForVisitor(visitor, 10)).toEqual([]);
    await t.services.intelligence.runWorkspace(workspace.id, now + 31 * MINUTE);
    const entries = await repos().personalities.listForVisitor(visitor, 10);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.personality.type).toBe('Decisive');
  });
});
