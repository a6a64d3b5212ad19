/**
 * One tracker batch of a simulated visitor, shared by the ingest benchmarks
 * (ingest-client.ts over HTTP, ingest-cpu.ts in-process): page views over the
 * site's paths 20 ms apart, an identify in about a third of a visitor's later
 * batches until it is identified, a conversion in one batch of eight.
 */
import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

const PATHS = ['/', '/pricing', '/features', '/docs/getting-started', '/docs/api', '/blog/lead-scoring-101', '/customers', '/careers'];

export interface BenchVisitor {
  id: string;
  number: number;
  batches: number;
  identified: boolean;
  /** the last event's instant, in ms */
  last: number;
}

export function benchVisitors(count: number, firstNumber = 0): BenchVisitor[] {
  return Array.from({ length: count }, (_, index) => ({ id: randomUUID(), number: firstNumber + index, batches: 0, identified: false, last: 0 }));
}

export interface VisitorBatch {
  body: string;
  identifies: number;
  conversions: number;
}

/** The next batch of a visitor picked at random, as the tracker's JSON body for site key `key`. */
export function visitorBatch(visitors: BenchVisitor[], key: string, eventsPerBatch: number): VisitorBatch {
  const visitor = visitors[Math.floor(Math.random() * visitors.length)]!;
  const start = Math.max(Date.now() - 1000, visitor.last + 1);
  const identifyAt = !visitor.identified && visitor.batches > 0 && Math.random() < 0.35 ? 25 : -1;
  const convertAt = Math.random() < 0.125 ? 40 : -1;
  const events: object[] = [];
  for (let index = 0; index < eventsPerBatch; index += 1) {
    const ts = new Date(start + index * 20).toISOString();
    const url = `https://www.bench.example${PATHS[(visitor.batches + index) % PATHS.length]}`;
    if (index === identifyAt) {
      events.push({ id: v7(), type: 'identify', visitor_id: visitor.id, ts, url, traits: { email: `visitor-${visitor.number}@bench.example`, name: `Visitor ${visitor.number}`, plan: 'trial' } });
    } else if (index === convertAt) {
      events.push({ id: v7(), type: 'conversion', visitor_id: visitor.id, ts, url, name: 'Started a trial', code: 'trial', properties: { seats: 3 } });
    } else {
      events.push({ id: v7(), type: 'page', visitor_id: visitor.id, ts, url, title: 'Bench page', ...(index === 0 ? { referrer: 'https://news.example/' } : {}) });
    }
  }
  visitor.last = start + eventsPerBatch * 20;
  visitor.batches += 1;
  if (identifyAt >= 0) visitor.identified = true;
  return { body: JSON.stringify({ key, events }), identifies: identifyAt >= 0 ? 1 : 0, conversions: convertAt >= 0 ? 1 : 0 };
}
