/**
 * The intelligence models on crafted visitors, against the formulas of
 * docs/intelligence.md (CONTRACT C6.1–C6.4): each expected figure below is
 * worked out from the documented weights, caps, decay and thresholds, so a
 * change to a model that the document does not follow fails here.
 */
import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { addEvent, emptyAggregates, type IntelligenceEvent, type VisitorAggregates } from '../../src/intelligence/aggregates.js';
import { classifyEmail, nameFromDomain } from '../../src/intelligence/email-domain.js';
import { lookupNetwork } from '../../src/intelligence/networks/asn-ranges.js';
import { classifyNetwork, COMPANY_MATCH_THRESHOLD } from '../../src/intelligence/networks/classify-network.js';
import { PageClassifier } from '../../src/intelligence/page-kinds.js';
import { entryDue, readPersonality } from '../../src/intelligence/personality.js';
import { scoreLead, type FitProfile, type IdealCustomer } from '../../src/intelligence/scoring.js';
import { evaluateRule, type SegmentSubject } from '../../src/intelligence/segments/evaluate.js';
import { ruleProblems, SegmentRuleSchema, type SegmentRule } from '../../src/intelligence/segments/rule.js';

const NOW = '2026-06-15T12:00:00.000Z';
const pages = new PageClassifier();
const NO_IDEAL: IdealCustomer = { industries: [], employeeRanges: [], countries: [] };
const ANONYMOUS: FitProfile = { emailKind: null, emailDomain: null, company: null, country: null };

function visit(events: (Omit<IntelligenceEvent, 'session_id'> & { session?: string })[]): VisitorAggregates {
  return events.reduce(
    (aggregates, { session, ...event }) => addEvent(aggregates, { ...event, session_id: session ?? 's1' }, pages, NOW),
    emptyAggregates(),
  );
}
const at = (daysAgo: number, hour = 10, minute = 0) =>
  new Date(Date.parse('2026-06-15T00:00:00.000Z') - daysAgo * 86_400_000 + hour * 3_600_000 + minute * 60_000).toISOString();
const page = (path: string, daysAgo: number, minute = 0, session = 's1') => ({ type: 'page' as const, ts: at(daysAgo, 10, minute), path, session });

describe('C6.1: company signals', () => {
  it('reduces an email to its registrable domain and tells business, free-mail and disposable apart', () => {
    expect(classifyEmail('alice@acme-robotics.com')).toEqual({ kind: 'business', domain: 'acme-robotics.com' });
    expect(classifyEmail('Alice@Mail.ACME.co.uk')).toEqual({ kind: 'business', domain: 'acme.co.uk' });
    expect(classifyEmail('bob@gmail.com')).toEqual({ kind: 'free', domain: 'gmail.com' });
    expect(classifyEmail('carol@googlemail.com').kind).toBe('free');
    expect(classifyEmail('dave@mailinator.com').kind).toBe('disposable');
    expect(classifyEmail('eve@localhost').kind).toBe('unknown');
    expect(classifyEmail('eve@[192.0.2.1]').kind).toBe('unknown');
    expect(nameFromDomain('acme-robotics.co.uk')).toBe('Acme Robotics');
  });

  it('classifies networks from the shipped ranges: hosting, access providers, education, and businesses with a confidence', () => {
    const of = (address: string) => classifyNetwork(lookupNetwork(address)!);
    expect(lookupNetwork('8.8.8.8')).toMatchObject({ asn: 15169 });
    expect(of('8.8.8.8').class).toBe('hosting');
    expect(of('144.76.1.1').class).toBe('hosting');
    expect(of('2001:4860:4860::8888').class).toBe('hosting');
    expect(of('62.157.140.133').class).toBe('isp');
    expect(of('73.158.64.1').class).toBe('isp');
    expect(of('128.32.0.1').class).toBe('education');
    // C6.5: a content network (X, formerly Twitter) and a /8 are no company's
    expect(of('104.244.42.1').class).toBe('hosting');
    expect(of('17.253.144.10').class).toBe('isp');
    // a bank's own network: legal form and industry
    const business = of('129.35.230.10');
    expect(business).toEqual({ class: 'business', confidence: 0.95 });
    expect(business.confidence).toBeGreaterThanOrEqual(COMPANY_MATCH_THRESHOLD);
    // a plain name (Nestle USA) and a company form with IPv6 ranges as operators have (Plus.line AG, a colocation provider): not sure enough
    expect(of('165.131.42.10')).toEqual({ class: 'business', confidence: 0.5 });
    expect(of('193.99.144.80')).toEqual({ class: 'business', confidence: 0.5 });
    expect(lookupNetwork('192.168.1.1')).toBeUndefined();
    expect(lookupNetwork('not an address')).toBeUndefined();
  });
});

describe('page kinds', () => {
  it('classify paths by the default patterns, first match wins, case-insensitively', () => {
    expect(['/pricing', '/Pricing/teams', '/de/pricing', '/docs/api', '/blog/x', '/careers', '/security', '/acme-vs-rival', '/'].map((path) => pages.kindOf(path))).toEqual([
      'pricing',
      'pricing',
      'pricing',
      'docs',
      'blog',
      'careers',
      'security',
      'comparison',
      'other',
    ]);
    expect(new PageClassifier({ pricing: ['/preise*'] }).kindOf('/preise')).toBe('pricing');
  });
});

describe('C6.2: lead score', () => {
  it('a cold visitor: two pages a fortnight ago, nothing known', () => {
    // points = 2 × 1 × 0.5^(14/7) = 0.5; engagement = round(50 × 0.5 / 20.5) = 1
    const cold = scoreLead(visit([page('/', 14), page('/about', 14, 1)]), ANONYMOUS, NO_IDEAL, NOW);
    expect(cold).toEqual({ score: 1, fit: 0, engagement: 1, status: 'new', reasons: ['viewed 2 pages this month'] });
  });

  it('a hot visitor: pricing beyond the daily cap, docs on two days, a conversion, a business email at an ideal company', () => {
    const aggregates = visit([
      page('/pricing', 0, 0),
      page('/pricing', 0, 1),
      page('/pricing', 0, 2),
      page('/pricing', 0, 3),
      page('/docs/start', 0, 4),
      page('/docs/api', 7, 0, 's0'),
      { type: 'conversion', ts: at(0, 10, 5), name: 'sign-up', session: 's1' },
    ]);
    // today: pricing min(4,3)×5 = 15, docs 1×2 = 2, conversion 1×10 = 10; 7 days ago: docs 1×2×0.5 = 1
    // points = 28; engagement = round(50 × 28 / 48) = 29
    const profile: FitProfile = {
      emailKind: 'business',
      emailDomain: 'acme.com',
      company: { name: 'Acme', domain: 'acme.com', employees: '51-200', main_industry: 'Software' },
      country: 'DE',
    };
    const ideal: IdealCustomer = { industries: ['software'], employeeRanges: ['51-200'], countries: ['DE'] };
    const hot = scoreLead(aggregates, profile, ideal, NOW);
    expect(hot.engagement).toBe(29);
    expect(hot.fit).toBe(50);
    expect(hot.score).toBe(79);
    expect(hot.status).toBe('qualified');
    expect(hot.reasons).toEqual([
      'business email at a 51-200 company',
      'visited pricing 4 times this week',
      'an ideal company size (51-200)',
      'converted: sign-up',
      'in an ideal industry (Software)',
    ]);
  });

  it('decays with a half-life of a week and forgets after 30 days', () => {
    const once = (daysAgo: number) => scoreLead(visit([{ type: 'conversion', ts: at(daysAgo), name: 'x', session: 's' }]), ANONYMOUS, NO_IDEAL, NOW);
    // 10 points today → round(50×10/30) = 17; a week ago 5 → round(50×5/25) = 10; 30 days ago: nothing
    expect([once(0).engagement, once(7).engagement, once(31).engagement]).toEqual([17, 10, 0]);
  });
});

describe('C6.3: personalities', () => {
  it('reads each crafted behaviour as its type, with rising learning that never goes down', () => {
    const docsReader = visit([
      page('/docs/a', 0, 0),
      page('/docs/b', 0, 5),
      page('/compare/rival', 0, 9),
      page('/docs/c', 0, 14),
      page('/docs/d', 0, 20),
    ]);
    expect(readPersonality(docsReader).type).toBe('Analytical');

    const decisive = visit([page('/pricing', 0, 0), page('/pricing', 0, 1), { type: 'conversion', ts: at(0, 10, 2), name: 'buy', session: 's1' }]);
    expect(readPersonality(decisive).type).toBe('Decisive');

    const explorer = visit(Array.from({ length: 12 }, (_, index) => page(`/blog/post-${index}`, 0, index)));
    expect(readPersonality(explorer).type).toBe('Explorer');

    const cautious = visit(
      Array.from({ length: 6 }, (_, day) => page(day % 2 === 0 ? '/security' : '/terms', day * 2, 0, `s${day}`)),
    );
    const reading = readPersonality(cautious);
    expect(reading.type).toBe('Cautious');
    expect(reading.traits).toEqual(['risk-aware', 'returns often', 'checks the fine print']);
    // (6 page views + 5 × 6 sessions) / 50 = 0.72
    expect(reading.learning).toBe(0.72);
    expect(readPersonality(cautious, 0.9).learning).toBe(0.9);
    expect(entryDue(reading, null)).toBe(true);
    expect(entryDue(reading, { type: 'Cautious', learning: 0.6 })).toBe(false);
    expect(entryDue(reading, { type: 'Cautious', learning: 0.45 })).toBe(true);
    expect(entryDue(reading, { type: 'Explorer', learning: 0.72 })).toBe(true);
  });
});

describe('C6.4: segment rules', () => {
  const subject = (aggregates: VisitorAggregates, extra: Partial<SegmentSubject> = {}): SegmentSubject => ({
    identity: { email: 'alice@acme.com', name: 'Alice', city: 'Berlin', country: 'DE', is_favorite: false, traits: { plan: 'Pro' } },
    company: { name: 'Acme', domain: 'acme.com', employees: '51-200', main_industry: 'Software' },
    score: 42,
    status: 'engaged',
    aggregates,
    countEvents: () => 0,
    now: NOW,
    ...extra,
  });

  it('validates the grammar and its limits', () => {
    const good: SegmentRule = {
      all: [
        { field: 'country', op: 'in', value: ['DE', 'AT'] },
        { any: [{ field: 'trait.plan', op: 'eq', value: 'pro' }, { events: { kind: 'pricing', at_least: 2, within_days: 7 } }] },
      ],
    };
    expect(Value.Check(SegmentRuleSchema, good)).toBe(true);
    expect(ruleProblems(good)).toEqual([]);
    expect(Value.Check(SegmentRuleSchema, { all: [] })).toBe(false);
    expect(Value.Check(SegmentRuleSchema, { all: [{ field: 'password', op: 'eq', value: 'x' }] })).toBe(false);
    expect(Value.Check(SegmentRuleSchema, { some: [] })).toBe(false);
    expect(Value.Check(SegmentRuleSchema, { all: [{ events: { kind: 'pricing', at_least: 1, within_days: 90 } }] })).toBe(false);
    expect(ruleProblems({ all: [{ field: 'score', op: 'gt', value: 'high' }] })).toEqual(['rule.all[0].value must be a number for "gt"']);
    let deep: SegmentRule = { all: [{ field: 'name', op: 'exists', value: true }] };
    for (let level = 0; level < 5; level += 1) deep = { all: [deep] };
    expect(ruleProblems(deep)).toEqual(['rule.all[0].all[0].all[0].all[0].all[0] nests deeper than 5 levels']);
  });

  it('evaluates field tests case-insensitively and event tests within their window', () => {
    const aggregates = visit([page('/pricing', 1), page('/pricing', 3, 1), page('/pricing', 10, 2)]);
    const rule = (condition: SegmentRule) => evaluateRule(condition, subject(aggregates));
    expect(rule({ all: [{ field: 'trait.plan', op: 'eq', value: 'pro' }, { field: 'company.domain', op: 'ends_with', value: 'ACME.COM' }] })).toBe(true);
    expect(rule({ all: [{ field: 'score', op: 'gte', value: 50 }] })).toBe(false);
    expect(rule({ any: [{ field: 'score', op: 'gte', value: 50 }, { field: 'city', op: 'contains', value: 'erl' }] })).toBe(true);
    expect(rule({ all: [{ events: { kind: 'pricing', at_least: 2, within_days: 7 } }] })).toBe(true);
    expect(rule({ all: [{ events: { kind: 'pricing', at_least: 3, within_days: 7 } }] })).toBe(false);
    expect(rule({ all: [{ events: { kind: 'page_view', at_least: 3, within_days: 30 } }] })).toBe(true);
    expect(rule({ all: [{ field: 'trait.missing', op: 'exists', value: false }] })).toBe(true);
    const counted = evaluateRule(
      { all: [{ events: { kind: 'page_view', path: '/pricing*', at_least: 2, within_days: 7 } }] },
      subject(aggregates, { countEvents: (_test, matches) => [matches('/pricing', null), matches('/pricing/teams', null), matches('/docs', null)].filter(Boolean).length }),
    );
    expect(counted).toBe(true);
  });
});
