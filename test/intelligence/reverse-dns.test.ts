/**
 * Reverse DNS over real HTTP on both stores (CONTRACT C6.6): a visitor
 * whose network names no company (here Comcast's, an access network) is
 * looked up by the worker, never on the request's path, through a DNS
 * server on loopback (test/helpers/dns-server.ts), never the internet.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { SystemPtrResolver } from '../../src/services/intelligence/reverse-dns.js';
import { CACHE_MS, ReverseDnsWorker } from '../../src/services/intelligence/reverse-dns-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;
/** addresses of Comcast (AS7922): an access network, so its visitors are looked up */
const line = (last: number) => `73.158.64.${last}`;

describe.each(storeKinds())('reverse DNS on %s (C6.6)', (kind) => {
  let t: TestApp;
  let dns: DnsServer;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;
  let worker: ReverseDnsWorker;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Reverse DNS');
    key = (await createSiteKey(t, workspace)).key;
    worker = new ReverseDnsWorker(new Store(t.db.database), new SystemPtrResolver([dns.server]));
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const send = async (events: Event[], address: string) => {
    const answer = await postEvents(base, key, events, { 'x-forwarded-for': address });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor);
  const companies = async () => all(base, workspace, '/companies');

  it('C6.6: a business PTR name names the company of its domain (made as C6.1) on the visitor and its leads, after the 202', async () => {
    dns.answers.set(line(10), ['mail.globex-robotics.com.']);
    const visitor = randomUUID();
    await send([pageView(visitor, '/pricing'), conversion(visitor, 'Requested demo')], line(10));
    // the 202 came before any lookup
    expect(dns.asked.get(line(10)) ?? 0).toBe(0);
    const [before] = await leadsOf(visitor);
    expect(before!.company_id).toBeNull();

    expect(await worker.runWorkspace(workspace.id)).toBe(1);
    expect(dns.asked.get(line(10))).toBe(1);
    const named = (await companies()).filter((company) => company.domain === 'globex-robotics.com');
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ name: 'Globex Robotics', description: '', employees: '' });
    const match = { source: 'reverse_dns', name: 'mail.globex-robotics.com', domain: 'globex-robotics.com', confidence: 0.7 };
    const [lead] = await leadsOf(visitor);
    expect(lead!.company_id).toBe(named[0]!.id);
    expect((lead!.properties as Item).company_match).toEqual(match);

    // the visitor's next conversion carries it at once
    await send([conversion(visitor, 'Started trial')], line(10));
    const later = (await leadsOf(visitor)).find((item) => item.id !== lead!.id)!;
    expect(later.company_id).toBe(named[0]!.id);
    expect((later.properties as Item).company_match).toEqual(match);
  });

  it('C6.6: generic customer-line names and providers\' zones name no company', async () => {
    const names = [
      'c-73-158-64-11.hsd1.ca.comcast.net.',
      'dynamic-pool-7.customer.acme-line.de.',
      'static.broadband.globalco.com.',
      'host-9f40a0b.dsl.kleinfirma.de.',
      'gw.rr.com.',
    ];
    const before = (await companies()).length;
    for (const [index, name] of names.entries()) {
      const address = line(11 + index);
      dns.answers.set(address, [name]);
      const visitor = randomUUID();
      await send([pageView(visitor, '/'), conversion(visitor, 'Subscribed')], address);
      await worker.runWorkspace(workspace.id);
      expect(dns.asked.get(address), name).toBe(1);
      const [lead] = await leadsOf(visitor);
      expect(lead!.company_id, name).toBeNull();
    }
    expect((await companies()).length).toBe(before);
  });

  it('C6.6: a resolver that never answers changes nothing, and the address is not asked again before 24 hours', async () => {
    const address = line(30);
    dns.answers.set(address, 'silent');
    const first = randomUUID();
    await send([pageView(first, '/'), conversion(first, 'Subscribed')], address);
    const now = Date.now();
    await worker.runWorkspace(workspace.id, now);
    expect(dns.asked.get(address)).toBe(1);
    expect((await leadsOf(first))[0]!.company_id).toBeNull();

    // the server would answer now; another visitor from the address within the day is not looked up again
    dns.answers.set(address, ['mail.initech-systeme.de.']);
    const second = randomUUID();
    await send([pageView(second, '/'), conversion(second, 'Subscribed')], address);
    await worker.runWorkspace(workspace.id, now + CACHE_MS - 1000);
    expect(dns.asked.get(address)).toBe(1);
    expect((await leadsOf(second))[0]!.company_id).toBeNull();

    // a day after the failed lookup it is asked again
    const third = randomUUID();
    await send([pageView(third, '/'), conversion(third, 'Subscribed')], address);
    await worker.runWorkspace(workspace.id, now + CACHE_MS + 1000);
    expect(dns.asked.get(address)).toBe(2);
    expect((await leadsOf(third))[0]!.company_id).not.toBeNull();
  });

  it('C6.6: the 202 does not wait for a slow resolver', async () => {
    const address = line(40);
    dns.answers.set(address, ['mail.umbrella-pharma.com.']);
    dns.delayMs = 2_500;
    try {
      const first = randomUUID();
      await send([pageView(first, '/')], address);
      let finished = false;
      const round = worker.runWorkspace(workspace.id).then(() => (finished = true));
      // wait until the worker's question reached the server, then send while its answer is held back
      const deadline = Date.now() + 10_000;
      while ((dns.asked.get(address) ?? 0) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(dns.asked.get(address)).toBe(1);
      const second = randomUUID();
      await send([pageView(second, '/'), conversion(second, 'Subscribed')], address);
      expect(finished).toBe(false);
      await round;
    } finally {
      dns.delayMs = 0;
    }
  });
});

describe.each(storeKinds())('REVERSE_DNS=off on %s (C6.6)', (kind) => {
  it('C6.6: nothing is queued and nothing is asked', async () => {
    const dns = await startDnsServer();
    const t = await createTestApp(kind, { trustProxy: true, intelligence: { reverseDns: false } });
    try {
      const base = await t.listen();
      const workspace = await t.createWorkspace('No reverse DNS');
      const { key } = await createSiteKey(t, workspace);
      dns.answers.set(line(50), ['mail.globex-robotics.com.']);
      const visitor = randomUUID();
      const answer = await postEvents(base, key, [pageView(visitor, '/'), conversion(visitor, 'Subscribed')], { 'x-forwarded-for': line(50) });
      expect(answer.status).toBe(202);
      const store = new Store(t.db.database);
      expect(await store.forWorkspace(workspace.id).repos.reverseDnsDue.count()).toBe(0);
      expect(await new ReverseDnsWorker(store, new SystemPtrResolver([dns.server])).runWorkspace(workspace.id)).toBe(0);
      expect(dns.asked.size).toBe(0);
      const [lead] = (await all(base, workspace, '/leads')).filter((item) => item.visitor_id === visitor);
      expect(lead!.company_id).toBeNull();
    } finally {
      await t.close();
      await dns.close();
    }
  });
});
