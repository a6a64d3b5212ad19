/**
 * The time and count thresholds of dashboard sessions at their exact edges,
 * over real HTTP on both stores, with a clock the test holds (CONTRACT C7.3):
 * - sign-in throttle: ten failures within exactly 15 minutes lock the
 *   account until 15 minutes after the tenth (refused up to the millisecond
 *   before, admitted at it); ten spread over 15 minutes and 1 ms, or nine,
 *   lock nothing;
 * - a session lasts 30 days from its last use: refused at its end, not a
 *   millisecond before; its end moves when it is used an hour or more after
 *   the last move, not a millisecond earlier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, signInAnswer, type Person } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
let addressCounter = 0;
/** a client address of its own (the app trusts X-Forwarded-For), so only the account's throttle is at play */
const fromAddress = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}` });

describe.each(storeKinds())('session and sign-in edges on %s (C7.3)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock, trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Session edges');
  });
  afterAll(async () => t?.close());

  /** Failed sign-ins of `person` at each of `times`, each from another address. */
  async function fail(person: Person, times: number[]) {
    for (const time of times) {
      clock = time;
      expect((await signInAnswer(base, person.email, 'wrong password', fromAddress())).status).toBe(401);
    }
  }
  const signInAt = async (person: Person, time: number) => {
    clock = time;
    return signInAnswer(base, person.email, person.password, fromAddress());
  };
  const spread = (first: number, span: number) => Array.from({ length: 10 }, (_, index) => (index === 9 ? first + span : first + index * MINUTE));

  it('C7.3: ten failures within exactly 15 minutes lock the account, for 15 minutes from the tenth', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const start = Date.now();
    await fail(person, spread(start, 15 * MINUTE));
    const tenth = start + 15 * MINUTE;
    const locked = await signInAt(person, tenth);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ error: 'rate_limit_exceeded' });
    expect(locked.headers.get('retry-after')).toBe(String(15 * 60));
    expect((await signInAt(person, tenth + 15 * MINUTE - 1)).status).toBe(429);
  });

  it('C7.3: a lock ends exactly 15 minutes after the tenth failure: refused a millisecond before, admitted then', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const start = Date.now();
    await fail(person, Array.from({ length: 10 }, (_, index) => start + index));
    const tenth = start + 9;
    const lastMs = await signInAt(person, tenth + 15 * MINUTE - 1);
    expect(lastMs.status).toBe(429);
    expect(lastMs.headers.get('retry-after')).toBe('1');
    expect((await signInAt(person, tenth + 15 * MINUTE)).status).toBe(200);
  });

  it('C7.3: ten failures over 15 minutes and 1 ms, or nine within a minute, lock nothing', async () => {
    const wide = await member(t, workspace.id, 'viewer');
    const start = Date.now();
    await fail(wide, spread(start, 15 * MINUTE + 1));
    expect((await signInAt(wide, start + 15 * MINUTE + 1)).status).toBe(200);

    const nine = await member(t, workspace.id, 'viewer');
    await fail(nine, Array.from({ length: 9 }, (_, index) => start + index));
    expect((await signInAt(nine, start + 9)).status).toBe(200);
  });

  it('C7.3: a session is refused exactly 30 days after its last use, not a millisecond before', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const start = Date.now();
    clock = start;
    const ending = await signIn(base, person, fromAddress());
    const kept = await signIn(base, person, fromAddress());
    clock = start + 30 * DAY - 1;
    expect((await dashboard(base, kept, 'GET', '/leads')).status).toBe(200);
    clock = start + 30 * DAY;
    const refused = await dashboard(base, ending, 'GET', '/leads');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    // the one used a millisecond before its end goes on: its end moved
    expect((await dashboard(base, kept, 'GET', '/leads')).status).toBe(200);
  });

  it('C7.3: using a session moves its end once an hour has passed since the last move, not a millisecond earlier', async () => {
    const person = await member(t, workspace.id, 'viewer');
    const start = Date.now();
    clock = start;
    const session = await signIn(base, person, fromAddress());
    clock = start + HOUR - 1;
    const early = await dashboard(base, session, 'GET', '/leads');
    expect(early.status).toBe(200);
    expect(early.headers.get('set-cookie')).toBeNull();
    clock = start + HOUR;
    const moved = await dashboard(base, session, 'GET', '/leads');
    expect(moved.status).toBe(200);
    expect(moved.headers.get('set-cookie')).toContain(session.cookie);
    expect(moved.headers.get('set-cookie')).toContain(new Date(start + HOUR + 30 * DAY).toUTCString());
    // past the first end, within the moved one
    clock = start + HOUR + 30 * DAY - 1;
    expect((await dashboard(base, session, 'GET', '/leads')).status).toBe(200);
  });
});
