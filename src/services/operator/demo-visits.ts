/**
 * The simulated visits of the demo workspace (CONTRACT C1.2, C5.8): what a
 * company's website would see over 90 days. People land from a campaign
 * (utm_* on the landing page), from another site, or directly; read the home
 * page, pricing, features, docs and blog; some watch a video or copy a code
 * sample; and many end up on the sign-up page, where they identify and
 * convert. One of them comes back on a phone and signs in with the same
 * email (two visitors, one identity). Anonymous visitors browse and sometimes
 * subscribe to the newsletter without saying who they are. Each visit
 * becomes the batches the tracker would send, timed as it happened.
 */
import type { Faker } from '@faker-js/faker';
import type { TrackedEvent } from '../../schemas/tracked-events.js';
import type { DemoNetworks } from './demo-networks.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
export const DEMO_SITE = 'https://www.northwind-analytics.example';

const PAGES: Record<string, string> = {
  '/': 'Northwind Analytics: know who visits',
  '/pricing': 'Pricing',
  '/features': 'Features',
  '/customers': 'Customer stories',
  '/docs/getting-started': 'Docs: Getting started',
  '/docs/api': 'Docs: API reference',
  '/blog/lead-scoring-101': 'Lead scoring 101',
  '/blog/first-party-tracking': 'First-party tracking without the cookie banner',
  '/careers': 'Careers',
  '/contact': 'Contact sales',
  '/demo': 'Book a demo',
  '/signup': 'Start your free trial',
};
const BROWSING = ['/', '/pricing', '/pricing', '/features', '/customers', '/docs/getting-started', '/docs/api', '/blog/lead-scoring-101', '/blog/first-party-tracking', '/careers', '/contact'];
const CAMPAIGNS = [
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring-launch', landing: '/pricing' },
  { utm_source: 'linkedin', utm_medium: 'social', utm_campaign: 'webinar-q3', landing: '/' },
  { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'product-update', landing: '/features' },
  { utm_source: 'capterra', utm_medium: 'referral', utm_campaign: 'retargeting', landing: '/demo' },
];
const REFERRERS = [
  { referrer: 'https://news.ycombinator.com/item?id=41234567', landing: '/blog/first-party-tracking' },
  { referrer: 'https://www.google.com/', landing: '/' },
  { referrer: 'https://www.g2.com/products/northwind-analytics/reviews', landing: '/customers' },
  { referrer: 'https://www.linkedin.com/feed/', landing: '/blog/lead-scoring-101' },
];
const TRACKS = ['Watched product video', 'Copied code sample', 'Opened pricing calculator', 'Downloaded whitepaper'];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A person the demo's visitors may turn out to be. */
export interface DemoPerson {
  email: string;
  name: string;
  title: string;
  company: string;
  plan: string;
}

/** One batch as the tracker would send it, with the request it came in. */
export interface DemoBatch {
  receivedAt: number;
  address: string;
  userAgent: string;
  events: TrackedEvent[];
}

/** A visitor's batches, in the order they were sent. */
export type DemoVisitor = DemoBatch[];

interface Browser {
  faker: Faker;
  visitorId: string;
  address: string;
  userAgent: string;
}

/** The events of one visit starting at `start`, as the tracker sends them. */
function visit(browser: Browser, start: number, ending: ((at: number) => Partial<TrackedEvent>[]) | undefined): DemoBatch {
  const { faker } = browser;
  const events: TrackedEvent[] = [];
  let at = start;
  let previous: string | undefined;
  const page = (path: string, query = '', referrer?: string) => {
    const url = `${DEMO_SITE}${path}${query}`;
    events.push({
      id: faker.string.uuid(),
      type: 'page',
      visitor_id: browser.visitorId,
      ts: new Date(at).toISOString(),
      url,
      title: PAGES[path] ?? path,
      ...(referrer === undefined ? {} : { referrer }),
    });
    previous = url;
    at += faker.number.int({ min: 15_000, max: 3 * MINUTE_MS });
  };
  const entry = faker.number.int({ min: 1, max: 10 });
  if (entry <= 4) {
    const { landing, ...utm } = faker.helpers.arrayElement(CAMPAIGNS);
    page(landing, `?${new URLSearchParams(utm).toString()}`);
  } else if (entry <= 7) {
    const { landing, referrer } = faker.helpers.arrayElement(REFERRERS);
    page(landing, '', referrer);
  } else {
    page('/');
  }
  for (let count = faker.number.int({ min: 1, max: 5 }); count > 0; count -= 1) {
    page(faker.helpers.arrayElement(BROWSING), '', previous);
    if (faker.datatype.boolean({ probability: 0.15 })) {
      events.push({
        id: faker.string.uuid(),
        type: 'track',
        visitor_id: browser.visitorId,
        ts: new Date(at).toISOString(),
        url: previous,
        name: faker.helpers.arrayElement(TRACKS),
        properties: { plan_viewed: faker.helpers.arrayElement(['starter', 'growth', 'enterprise']) },
      });
      at += faker.number.int({ min: 5_000, max: 60_000 });
    }
  }
  if (ending !== undefined) {
    const path = faker.datatype.boolean({ probability: 0.7 }) ? '/signup' : '/demo';
    page(path, '', previous);
    for (const event of ending(at)) {
      events.push({ id: faker.string.uuid(), visitor_id: browser.visitorId, ts: new Date(at).toISOString(), url: previous, ...event } as TrackedEvent);
      at += faker.number.int({ min: 2_000, max: 20_000 });
    }
  }
  return { receivedAt: at, address: browser.address, userAgent: browser.userAgent, events };
}

/** Starting times of `count` visits between `from` and `to`, at least an hour apart, oldest first. */
function visitStarts(faker: Faker, count: number, from: number, to: number): number[] {
  const starts = Array.from({ length: count }, () => faker.number.int({ min: from, max: to })).sort((a, b) => a - b);
  for (let index = 1; index < starts.length; index += 1) starts[index] = Math.max(starts[index]!, starts[index - 1]! + 60 * MINUTE_MS);
  return starts;
}

const identify = (person: DemoPerson): Partial<TrackedEvent> => ({
  type: 'identify',
  traits: { email: person.email, name: person.name, title: person.title, company: person.company, plan: person.plan } as TrackedEvent['traits'],
});

/**
 * The visitors of the demo, each a list of batches in time order: one per
 * person (who identifies and converts on their last visit, and sometimes
 * upgrades later), one more for the person who comes back on a phone, and
 * anonymous visitors. People browse from home or from their company's
 * office line; anonymous visitors from home, from an office line of one of
 * the demo's companies (`domains`), or from a business's own network
 * (demo-networks.ts), so that companies are named the way a real site's are.
 */
export function demoVisitors(faker: Faker, people: readonly DemoPerson[], at: number, networks: DemoNetworks, domains: readonly string[]): DemoVisitor[] {
  const browser = (address: string, userAgent = faker.helpers.arrayElement(USER_AGENTS)): Browser => ({
    faker,
    visitorId: faker.string.uuid(),
    address,
    userAgent,
  });
  const visitors: DemoVisitor[] = [];
  for (const person of people) {
    const atWork = faker.datatype.boolean({ probability: 0.5 });
    const desktop = browser(atWork ? networks.office(person.email.slice(person.email.indexOf('@') + 1)) : networks.home());
    const starts = visitStarts(faker, faker.number.int({ min: 1, max: 4 }), at - 90 * DAY_MS, at - 2 * DAY_MS);
    const batches = starts.map((start, index) =>
      visit(desktop, start, index < starts.length - 1 ? undefined : () => [
        identify(person),
        faker.datatype.boolean({ probability: 0.7 })
          ? { type: 'conversion', name: 'Started a free trial', code: 'trial-signup', properties: { plan: person.plan } }
          : { type: 'conversion', name: 'Requested a demo', code: 'demo-request', properties: { team_size: faker.number.int({ min: 2, max: 200 }) } },
      ]),
    );
    const last = batches.at(-1)!.receivedAt;
    if (faker.datatype.boolean({ probability: 0.2 }) && last < at - DAY_MS) {
      const upgrade = faker.number.int({ min: last + 60 * MINUTE_MS, max: at - 60 * MINUTE_MS });
      batches.push(visit(desktop, upgrade, () => [{ type: 'conversion', name: 'Upgraded to a paid plan', code: 'upgrade', properties: { plan: 'growth' } }]));
    }
    visitors.push(batches);
  }
  const returning = people[0];
  if (returning !== undefined) {
    const phone = browser(networks.home(), PHONE);
    visitors.push([visit(phone, at - DAY_MS, () => [identify(returning)])]);
  }
  for (let count = people.length * 2; count > 0; count -= 1) {
    const where = faker.number.int({ min: 1, max: 20 });
    const anonymous = browser(where <= 7 ? networks.office(faker.helpers.arrayElement(domains)) : where <= 11 ? networks.business() : networks.home());
    const starts = visitStarts(faker, faker.number.int({ min: 1, max: 2 }), at - 60 * DAY_MS, at - 60 * MINUTE_MS);
    visitors.push(
      starts.map((start) =>
        visit(
          anonymous,
          start,
          faker.datatype.boolean({ probability: 0.12 })
            ? () => [{ type: 'conversion', name: 'Subscribed to the newsletter', code: 'newsletter', properties: {} }]
            : undefined,
        ),
      ),
    );
  }
  return visitors;
}
