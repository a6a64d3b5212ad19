/**
 * The parts of admission control that keep overload tails bounded (issue
 * 19), at their edges, with controlled clocks where time matters:
 * the fair gate grants at most `grantsPerTurn` slots per turn of the event
 * loop and lets a request wait only what is left of its time; the loop
 * watch tells how long a request read now may have waited unread; the
 * overload log writes what was refused at the end of an interval even when
 * nothing more is refused.
 */
import { describe, expect, it } from 'vitest';
import { FairGate, FairGateRefusal, type Release } from '../../src/http/fair-gate.js';
import { LoopWatch } from '../../src/http/loop-watch.js';
import { OverloadLog } from '../../src/http/overload-log.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the fair gate', () => {
  it('issue 19: grants at most grantsPerTurn slots in one turn of the event loop, the rest in the next turns', async () => {
    const gate = new FairGate({ maxInFlight: 100, maxQueued: 100, queueTimeoutMs: 10_000, grantsPerTurn: 3 });
    const slots = Array.from({ length: 7 }, (_, index) => gate.acquire(`tenant-${index}`));
    // exactly three at once, synchronously
    expect(slots.map((slot) => typeof slot)).toEqual(['function', 'function', 'function', 'object', 'object', 'object', 'object']);
    const granted: number[] = [];
    slots.forEach((slot, index) => {
      if (typeof slot !== 'function') void slot.then(() => granted.push(index));
    });
    await nextTurn();
    await Promise.resolve();
    expect(granted).toEqual([3, 4, 5]);
    await nextTurn();
    await Promise.resolve();
    expect(granted).toEqual([3, 4, 5, 6]);
    expect(gate.inFlight).toBe(7);
    expect(gate.queued).toBe(0);
  });

  it('issue 19: slots freed and granted again in one turn stop at the turn\'s grants', async () => {
    const gate = new FairGate({ maxInFlight: 1, maxQueued: 100, queueTimeoutMs: 10_000, grantsPerTurn: 2 });
    const first = gate.acquire('a') as Release;
    const waiting = [gate.acquire('b'), gate.acquire('c'), gate.acquire('d')] as Array<Promise<Release>>;
    const order: string[] = [];
    // each granted request answers at once and frees its slot, as a request on SQLite does
    waiting.forEach((slot, index) => void slot.then((release) => (order.push('bcd'[index] as string), release())));
    first();
    await Promise.resolve();
    await Promise.resolve();
    // this turn had two grants (a's, and b's when a freed its slot)
    expect(order).toEqual(['b']);
    await nextTurn();
    for (let index = 0; index < 5; index += 1) await Promise.resolve();
    expect(order).toEqual(['b', 'c', 'd']);
  });

  it('issue 19: a turn that accepted a connection is followed by a turn of one grant; then the turns have their grants again', async () => {
    const gate = new FairGate({ maxInFlight: 100, maxQueued: 100, queueTimeoutMs: 10_000, grantsPerTurn: 3 });
    gate.connectionAccepted();
    const slots = Array.from({ length: 8 }, (_, index) => gate.acquire(`tenant-${index}`));
    // this turn still has its three
    expect(slots.filter((slot) => typeof slot === 'function')).toHaveLength(3);
    const granted: number[] = [];
    slots.forEach((slot, index) => {
      if (typeof slot !== 'function') void slot.then(() => granted.push(index));
    });
    await nextTurn();
    await Promise.resolve();
    expect(granted).toEqual([3]);
    await nextTurn();
    await Promise.resolve();
    expect(granted).toEqual([3, 4, 5, 6]);
  });

  it('issue 19: a request waits only the time it has left, and none when it has none', async () => {
    const gate = new FairGate({ maxInFlight: 1, maxQueued: 10, queueTimeoutMs: 60_000 });
    const held = gate.acquire('a') as Release;
    const started = performance.now();
    await expect(gate.acquire('b', 50)).rejects.toEqual(new FairGateRefusal('queue_timeout'));
    expect(performance.now() - started).toBeLessThan(10_000);
    await expect(gate.acquire('b', 0)).rejects.toEqual(new FairGateRefusal('queue_timeout'));
    held();
    expect(gate.inFlight).toBe(0);
  });
});

describe('the loop watch', () => {
  function watch() {
    let now = 1_000;
    const loop = new LoopWatch({ periodMs: 20, now: () => now, every: () => () => undefined });
    return { loop, at: (ms: number) => (now = ms) };
  }

  it('issue 19: nothing was held before the watch starts, nor within a period of the last beat', () => {
    const { loop, at } = watch();
    at(50_000);
    expect(loop.heldFor()).toBe(0);
    loop.start();
    at(50_020);
    loop.beat();
    at(50_040);
    expect(loop.heldFor()).toBe(0);
    at(50_041);
    expect(loop.heldFor()).toBe(1);
  });

  it('issue 19: a beat later than two periods marks the rest of its turn: what is read in it may have waited since the beat before', async () => {
    const { loop, at } = watch();
    at(0);
    loop.start();
    at(40);
    // exactly two periods: on time
    loop.beat();
    at(41);
    expect(loop.heldFor()).toBe(0);
    at(1_541);
    // 1,501 ms after the last beat: the loop was held
    loop.beat();
    expect(loop.heldFor()).toBe(1_541 - 40 - 20);
    await nextTurn();
    // the turn that read what arrived meanwhile is over
    expect(loop.heldFor()).toBe(0);
  });

  it('issue 19: a beat on time followed by a held loop: what is read after it may have waited that long', () => {
    const { loop, at } = watch();
    at(0);
    loop.start();
    at(20);
    loop.beat();
    at(2_020);
    expect(loop.heldFor()).toBe(1_980);
    loop.stop();
    expect(loop.heldFor()).toBe(0);
  });
});

describe('the overload log', () => {
  it('issue 19: refusals after a line are written at the end of the interval even when nothing more is refused', async () => {
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const log = new OverloadLog({ warn: (fields, message) => lines.push({ fields, message }) }, { intervalMs: 50 });
    log.refused('queue_full');
    log.refused('queue_timeout');
    log.refused('queue_timeout');
    expect(lines).toHaveLength(1);
    const deadline = Date.now() + 10_000;
    while (lines.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lines[1]?.fields).toMatchObject({ refused: { queue_timeout: 2 }, total: 2 });
    log.close();
    expect(lines).toHaveLength(2);
  });
});
