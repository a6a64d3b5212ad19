/**
 * Sign-in does the same work whether or not the email is known (CONTRACT
 * C7.3: nothing tells an unknown email from a wrong password, not even the
 * time): every failed sign-in, over real HTTP on both stores, verifies
 * exactly one argon2id hash with the parameters of a real account's, and a
 * locked key verifies none on either path. Counted by the passwords module
 * itself (deterministic), not timed: the medians are in the audit's report.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashParameters, verificationCounts } from '../../src/services/operator/passwords.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { member, signInAnswer, type Answer, type Person } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';

let addressCounter = 0;
const fromAddress = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}` });

/** The verifications one sign-in made, by hash parameters. */
async function verificationsOf(attempt: () => Promise<Answer>): Promise<{ answer: Answer; made: Record<string, number> }> {
  const before = verificationCounts();
  const answer = await attempt();
  const made: Record<string, number> = {};
  for (const [parameters, count] of verificationCounts()) {
    const delta = count - (before.get(parameters) ?? 0);
    if (delta !== 0) made[parameters] = delta;
  }
  return { answer, made };
}

describe.each(storeKinds())('sign-in work on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let person: Person;
  /** the parameters of a real account's hash, as stored */
  let realParameters: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Sign-in work');
    person = await member(t, workspace.id, 'admin');
    const row = await t.db.database.db.selectFrom('user_passwords').select('password_hash').where('user_id', '=', person.id).executeTakeFirstOrThrow();
    realParameters = hashParameters(row.password_hash);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('C7.3: a real account hash is argon2id at 19 MiB, 2 passes, one lane', () => {
    expect(realParameters).toBe('$argon2id$v=19$m=19456,t=2,p=1');
  });

  it('C7.3: an unknown email, a wrong password and an account without a password each verify one hash of the same cost', async () => {
    const pending = `pending.${randomUUID()}@example.com`;
    await t.services.accounts.invite(workspace.id, { email: pending, role: 'viewer' });
    const attempts = {
      unknown: () => signInAnswer(base, `nobody.${randomUUID()}@example.com`, 'some password 123', fromAddress()),
      'wrong password': () => signInAnswer(base, person.email, 'some password 123', fromAddress()),
      'no password yet': () => signInAnswer(base, pending, 'some password 123', fromAddress()),
      'right password': () => signInAnswer(base, person.email, person.password, fromAddress()),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const { answer, made } = await verificationsOf(attempt);
      expect(answer.status, name).toBe(name === 'right password' ? 200 : 401);
      expect(made, name).toEqual({ [realParameters]: 1 });
    }
  });

  it('C7.3: a locked account and a locked unknown email get the same answer after the same work (none)', async () => {
    const known = await member(t, workspace.id, 'viewer');
    const unknown = `stranger.${randomUUID()}@example.com`;
    const locked: Record<string, { answer: Answer; made: Record<string, number> }> = {};
    for (const email of [known.email, unknown]) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const { answer, made } = await verificationsOf(() => signInAnswer(base, email, 'wrong password', fromAddress()));
        expect(answer.status).toBe(401);
        expect(made).toEqual({ [realParameters]: 1 });
      }
      locked[email] = await verificationsOf(() => signInAnswer(base, email, 'wrong password', fromAddress()));
    }
    const [first, second] = [locked[known.email]!, locked[unknown]!];
    expect(first.answer.status).toBe(429);
    expect(second.answer.status).toBe(429);
    expect(second.answer.body).toEqual(first.answer.body);
    expect(first.made).toEqual({});
    expect(second.made).toEqual({});
  });
});
