/**
 * The dashboard's overview on both stores: leads per UTC day by source over
 * the last 30 or 90 days, read from the per-day counters (lead_counts), and
 * new identities per day; one point per day, zeros included, today last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

const DAY_MS = 86_400_000;

interface Overview {
  days: { day: string; leads: number; by_source: Record<string, number>; identities: number }[];
  sources: string[];
  totals: { leads: number; identities: number };
}

describe.each(storeKinds())('the dashboard overview on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let session: DashboardSession;
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const dayAgo = (days: number) => new Date(now - days * DAY_MS).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    const workspace = await t.createWorkspace('Overview');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    await importRows(t, workspace.id, 'leads', [
      { source: 'website', created_at: dayAgo(0) },
      { source: 'website', created_at: dayAgo(0) },
      { source: 'referral', created_at: dayAgo(3) },
      { created_at: dayAgo(3) },
      { source: 'campaign', created_at: dayAgo(45) },
      { source: 'website', created_at: dayAgo(120) },
    ]);
    await importRows(t, workspace.id, 'identities', [{ created_at: dayAgo(1) }, { created_at: dayAgo(1) }, { created_at: dayAgo(60) }]);
    const other = await t.createWorkspace('Elsewhere');
    await importRows(t, other.id, 'leads', [{ source: 'website', created_at: dayAgo(0) }]);
  });
  afterAll(async () => t?.close());

  const overview = async (days?: number) => {
    const answer = await dashboard(base, session, 'GET', days === undefined ? '/overview' : `/overview?days=${days}`);
    expect(answer.status).toBe(200);
    return answer.body.data as Overview;
  };

  it('30 days by default: one point per day ending today, leads by source from the counters, new identities', async () => {
    const data = await overview();
    expect(data.days).toHaveLength(30);
    expect(data.days.at(-1)?.day).toBe(today);
    expect(data.days[0]?.day).toBe(dayAgo(29).slice(0, 10));
    expect(data.days.at(-1)).toEqual({ day: today, leads: 2, by_source: { website: 2, referral: 0 }, identities: 0 });
    // a lead without a source counts in the day's leads, in no source
    expect(data.days.at(-4)).toEqual({ day: dayAgo(3).slice(0, 10), leads: 2, by_source: { website: 0, referral: 1 }, identities: 0 });
    expect(data.days.at(-2)?.identities).toBe(2);
    expect(data.sources).toEqual(['website', 'referral']);
    expect(data.totals).toEqual({ leads: 4, identities: 2 });
  });

  it('90 days reaches further back; older leads stay out', async () => {
    const data = await overview(90);
    expect(data.days).toHaveLength(90);
    expect(data.totals).toEqual({ leads: 5, identities: 3 });
    expect(data.sources).toEqual(['website', 'campaign', 'referral']);
  });

  it('a period that is not a whole number of days from 1 to 366 is 400', async () => {
    for (const days of ['0', '367', 'ten', '1.5']) {
      const answer = await dashboard(base, session, 'GET', `/overview?days=${days}`);
      expect(answer.status, days).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request', details: { parameters: { days: expect.any(String) } } });
    }
  });
});
