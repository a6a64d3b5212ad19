/**
 * Webhook retries at their edges (CONTRACT C8.5; delivery-worker.ts):
 * - the delay before retry n is WEBHOOK_RETRY_BASE_MS × 2^(n−1), ±20 %, at
 *   most an hour: its bounds over many draws, its ends, its doubling and the
 *   cap at its exact edge;
 * - through delivery, on both stores, with a clock and a jitter the test
 *   holds (a real local receiver that always fails): a retry is due at its
 *   time, not 1 ms before; the delays double up to the hour; the endpoint
 *   is marked failing at its fifth failure in a row, not its fourth; a retry
 *   that falls exactly 25 hours after the event is still made, 1 ms later
 *   the delivery has failed; a delivery's log keeps its latest 50 attempts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOKS } from '../../src/config.js';
import { Store } from '../../src/repositories/index.js';
import { retryDelay, WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const HOUR = 3_600_000;
/** C8.5 / README: at most an hour between attempts */
const CAP = HOUR;
/** deliveries are tried until 25 hours after their event (README: "for more than 24 hours") */
const WINDOW = 25 * HOUR;

describe('the retry delay (C8.5)', () => {
  it('C8.5: base × 2^(n−1) ±20 %: every one of 20,000 draws within the bounds, and the draws reach near both ends', () => {
    for (const base of [5_000, 40, 225_000]) {
      for (let attempt = 1; attempt <= 14; attempt += 1) {
        const exact = Math.min(base * 2 ** (attempt - 1), CAP);
        let low = Infinity;
        let high = -Infinity;
        for (let draw = 0; draw < 20_000 / 14; draw += 1) {
          const delay = retryDelay(attempt, base);
          low = Math.min(low, delay);
          high = Math.max(high, delay);
        }
        expect({ base, attempt, low: low >= Math.floor(exact * 0.8), high: high <= Math.ceil(exact * 1.2) }).toEqual({ base, attempt, low: true, high: true });
        // the jitter is spread over the whole ±20 % (not a fixed delay, not a narrower band)
        expect({ base, attempt, low: low < exact * 0.85, high: high > exact * 1.15 }).toEqual({ base, attempt, low: true, high: true });
      }
    }
  });

  it('C8.5: the ends of the jitter, the doubling, and the cap of an hour at its exact edge', () => {
    const base = 5_000;
    expect(retryDelay(1, base, () => 0)).toBe(4_000);
    expect(retryDelay(1, base, () => 0.5)).toBe(5_000);
    expect(retryDelay(1, base, () => 1 - Number.EPSILON)).toBe(6_000);
    // C8.5: two failures are retried within 2 minutes
    expect(retryDelay(1, base, () => 1 - Number.EPSILON) + retryDelay(2, base, () => 1 - Number.EPSILON)).toBeLessThanOrEqual(120_000);
    for (let attempt = 1; attempt <= 10; attempt += 1) expect(retryDelay(attempt, base, () => 0.5)).toBe(base * 2 ** (attempt - 1));
    // 5 s × 2^10 is over the hour: capped
    expect(retryDelay(11, base, () => 0.5)).toBe(CAP);
    expect(retryDelay(30, base, () => 0.5)).toBe(CAP);
    // a base that reaches exactly the hour at the fifth retry, and one more doubling
    expect(retryDelay(5, CAP / 16, () => 0.5)).toBe(CAP);
    expect(retryDelay(6, CAP / 16, () => 0.5)).toBe(CAP);
    expect(retryDelay(6, CAP / 16, () => 0)).toBe(CAP * 0.8);
    expect(retryDelay(4, CAP / 16, () => 0.5)).toBe(CAP / 2);
    // a base of an hour and 1 ms is capped at once; an hour less 1 ms is not
    expect(retryDelay(1, CAP + 1, () => 0.5)).toBe(CAP);
    expect(retryDelay(1, CAP - 1, () => 0.5)).toBe(CAP - 1);
  });
});

interface Delivery {
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  log: { attempt: number }[];
}

describe.each(storeKinds())('retries through delivery on %s (C8.5)', (kind) => {
  let t: TestApp | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    await t?.close();
  });

  /** An app whose deliveries always fail, one webhook on lead.created, and a worker on the test's clock and jitter. */
  async function setUp(retryBaseMs: number) {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true, retryBaseMs } });
    receiver = await startReceiver();
    receiver.respond = () => 500;
    const ws = await t.createWorkspace('Retries');
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}/hook`, events: ['lead.created'] } });
    expect(created.statusCode).toBe(201);
    const webhookId = (created.json() as { data: { id: string } }).data.id;
    const state = { clock: Date.now(), random: 0.5 };
    const worker = new WebhookDeliveryWorker(new Store(t.db.database), { ...DEFAULT_WEBHOOKS, allowPrivate: true, retryBaseMs }, () => state.clock, () => state.random);
    return { ws, webhookId, state, worker };
  }
  async function newLead(ws: TestWorkspace) {
    expect((await t!.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'retry' } })).statusCode).toBe(201);
  }
  async function deliveries(ws: TestWorkspace, webhookId: string): Promise<Delivery[]> {
    return ((await t!.as(ws, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries?limit=100` })).json() as { data: Delivery[] }).data;
  }
  async function endpointStatus(ws: TestWorkspace, webhookId: string): Promise<string> {
    return ((await t!.as(ws, { method: 'GET', url: `/api/v1/webhooks/${webhookId}` })).json() as { data: { status: string } }).data.status;
  }

  it('C8.5: each retry is due at its time, not 1 ms before; delays double (±20 %) up to the hour; failing from the fifth failure in a row', async () => {
    const base = 400_000;
    const { ws, webhookId, state, worker } = await setUp(base);
    await newLead(ws);
    let [delivery] = await deliveries(ws, webhookId);
    let due = Date.parse(delivery!.next_attempt_at!);
    expect(due).toBe(Date.parse(delivery!.created_at));
    // the jitter of each attempt, and the delay it must give (base × 2^(n−1), capped at an hour)
    const plan = [
      { random: 0, delay: 0.8 * base },
      { random: 0.5, delay: 2 * base },
      { random: 1 - Number.EPSILON, delay: 1.2 * 4 * base },
      { random: 0.5, delay: 8 * base },
      // 16 × base is over the hour: capped, then jittered
      { random: 0, delay: 0.8 * CAP },
      { random: 0.5, delay: CAP },
    ];
    for (const [index, step] of plan.entries()) {
      state.clock = due - 1;
      expect(await worker.runOnce(), `attempt ${index + 1}, 1 ms early`).toBe(0);
      state.clock = due;
      state.random = step.random;
      expect(await worker.runOnce(), `attempt ${index + 1}, on time`).toBe(1);
      [delivery] = await deliveries(ws, webhookId);
      expect(delivery).toMatchObject({ status: 'pending', attempts: index + 1 });
      expect(Date.parse(delivery!.next_attempt_at!) - due, `delay after attempt ${index + 1}`).toBe(step.delay);
      due = Date.parse(delivery!.next_attempt_at!);
      // FAILING_AFTER: the endpoint is failing from its fifth failure in a row
      expect(await endpointStatus(ws, webhookId), `after ${index + 1} failures`).toBe(index + 1 >= 5 ? 'failing' : 'active');
    }
    expect(receiver!.received).toHaveLength(plan.length);
  });

  it('C8.5: a retry that falls exactly 25 hours after the event is still made; 1 ms later, the delivery has failed', async () => {
    const base = 1_000_000;
    const { ws, webhookId, state, worker } = await setUp(base);
    await newLead(ws);
    const [first] = await deliveries(ws, webhookId);
    const created = Date.parse(first!.created_at);
    state.clock = created + WINDOW - base;
    state.random = 0.5;
    expect(await worker.runOnce()).toBe(1);
    const [pending] = await deliveries(ws, webhookId);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Date.parse(pending!.next_attempt_at!)).toBe(created + WINDOW);
    // the retry at the window's end: the one after it would fall outside, so the delivery fails
    state.clock = created + WINDOW;
    expect(await worker.runOnce()).toBe(1);
    expect((await deliveries(ws, webhookId))[0]).toMatchObject({ status: 'failed', attempts: 2 });

    // another event: its retry would fall 1 ms past the window (a jitter of +1 ms): failed at once
    await newLead(ws);
    const [second] = (await deliveries(ws, webhookId)).filter((delivery) => delivery.attempts === 0);
    const secondCreated = Date.parse(second!.created_at);
    state.clock = secondCreated + WINDOW - base;
    state.random = 0.5 + 1 / (0.4 * base);
    expect(retryDelay(1, base, () => state.random)).toBe(base + 1);
    expect(await worker.runOnce()).toBe(1);
    const all = await deliveries(ws, webhookId);
    expect(all.map((delivery) => delivery.status)).toEqual(['failed', 'failed']);
    state.clock += 10 * HOUR;
    expect(await worker.runOnce()).toBe(0);
  });

  it('C8.5: a delivery\'s log keeps its latest 50 attempts', async () => {
    const { ws, webhookId, state, worker } = await setUp(1);
    state.random = 0;
    await newLead(ws);
    for (let attempt = 1; attempt <= 51; attempt += 1) {
      const [delivery] = await deliveries(ws, webhookId);
      expect(delivery!.status).toBe('pending');
      state.clock = Date.parse(delivery!.next_attempt_at!);
      expect(await worker.runOnce()).toBe(1);
      const [after] = await deliveries(ws, webhookId);
      if (attempt === 50) expect(after!.log.map((entry) => entry.attempt)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    }
    const [delivery] = await deliveries(ws, webhookId);
    expect(delivery!.attempts).toBe(51);
    expect(delivery!.log.map((entry) => entry.attempt)).toEqual(Array.from({ length: 50 }, (_, index) => index + 2));
  });
});
