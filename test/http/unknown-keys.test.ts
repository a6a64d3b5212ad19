/**
 * The memory of unknown API keys at its edges (issue 14; unknown-keys.ts):
 * it holds 10,000 hashes, forgetting the oldest past that, and each for 10
 * seconds: until the millisecond before, the key is refused without a
 * lookup; from 10 seconds on it is looked up again. The size with the class
 * itself (and a clock the test holds); the time also through the gate over
 * HTTP on both stores, counted by the key lookups metric.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownKeys } from '../../src/services/operator/unknown-keys.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

const ENTRIES = 10_000;
const TTL_MS = 10_000;

describe('the unknown-key memory', () => {
  it('holds exactly 10,000 hashes: the 10,001st forgets the oldest, and only it', () => {
    const memory = new UnknownKeys(() => 1_000);
    for (let index = 0; index < ENTRIES; index += 1) memory.remember(`hash-${index}`);
    expect(memory.has('hash-0')).toBe(true);
    expect(memory.has(`hash-${ENTRIES - 1}`)).toBe(true);
    memory.remember('one-more');
    expect(memory.has('hash-0')).toBe(false);
    expect(memory.has('hash-1')).toBe(true);
    expect(memory.has('one-more')).toBe(true);
  });

  it('remembering a hash again makes it the newest: the oldest other one goes first', () => {
    const memory = new UnknownKeys(() => 1_000, 3);
    for (const hash of ['a', 'b']) memory.remember(hash);
    memory.remember('a');
    memory.remember('c');
    memory.remember('d');
    expect(['a', 'b', 'c', 'd'].map((hash) => memory.has(hash))).toEqual([true, false, true, true]);
    // full: remembering a hash it holds again forgets no other
    memory.remember('c');
    expect(['a', 'c', 'd'].map((hash) => memory.has(hash))).toEqual([true, true, true]);
    memory.remember('e');
    expect(['a', 'c', 'd', 'e'].map((hash) => memory.has(hash))).toEqual([false, true, true, true]);
  });

  it('holds each hash 10 seconds: known until the millisecond before, forgotten at 10 seconds', () => {
    let now = 5_000_000;
    const memory = new UnknownKeys(() => now);
    memory.remember('early');
    now += 1;
    memory.remember('later');
    now = 5_000_000 + TTL_MS - 1;
    expect(memory.has('early')).toBe(true);
    now = 5_000_000 + TTL_MS;
    expect(memory.has('early')).toBe(false);
    expect(memory.has('later')).toBe(true);
    now += 1;
    expect(memory.has('later')).toBe(false);
  });
});

describe.each(storeKinds())('the unknown-key memory through the gate on %s', (kind) => {
  let t: TestApp;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
  });
  afterAll(async () => t?.close());

  const lookups = async () => Number(/^leadlight_api_key_lookups_total (\d+)/m.exec((await t.app.inject({ url: '/metrics' })).body)?.[1]);
  const leadsWith = (key: string) => t.app.inject({ url: '/api/v1/leads', headers: { authorization: `Bearer ${key}` } });

  it('issue 14: an unknown key is refused without a lookup until 10 seconds after it was looked up, and looked up again at 10 seconds', async () => {
    const unknown = `ll_prod_${'Q'.repeat(40)}`;
    const start = clock;
    const before = await lookups();
    expect((await leadsWith(unknown)).statusCode).toBe(401);
    expect(await lookups()).toBe(before + 1);
    clock = start + TTL_MS - 1;
    expect((await leadsWith(unknown)).statusCode).toBe(401);
    expect(await lookups()).toBe(before + 1);
    clock = start + TTL_MS;
    expect((await leadsWith(unknown)).statusCode).toBe(401);
    expect(await lookups()).toBe(before + 2);
  });
});
