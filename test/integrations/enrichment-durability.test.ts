/**
 * Company enrichment across real server processes (CONTRACT C6.7, C2.4):
 * the queue lives in the database, so a `serve` process killed with SIGKILL
 * while it reads a company's website loses nothing (the next process takes
 * the company once the claim's lease ends), two processes draining one
 * queue read each website once, every company is enriched within 60
 * seconds of being made with the default poll, and ENRICHMENT=off reads
 * nothing. A local HTTP server stands in for the websites
 * (ENRICHMENT_WEBSITE_URL points at it, ENRICHMENT_ALLOW_PRIVATE=1).
 */
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../helpers/stores.js';
import { identify, postEvents } from '../helpers/tracking.js';
import { startWebsites, type Websites } from '../helpers/websites.js';

const page = (name: string) =>
  `<!doctype html><html><head><title>${name} | Home</title><meta property="og:site_name" content="${name}"><meta property="og:description" content="${name} makes things"></head></html>`;

async function until<T>(read: () => Promise<T | undefined>, what: string, deadlineMs = 60_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(storeKinds())('company enrichment across processes on %s (C6.7)', (kind) => {
  let db: TestDatabase;
  let services: Services;
  let sites: Websites;
  let workspaceId: WorkspaceId;
  let siteKey: string;
  const running: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    services = createServices(new Store(db.database));
    sites = await startWebsites();
    const workspace = await services.workspaces.create('Enrichment across processes');
    workspaceId = workspace.id;
    siteKey = (await services.siteKeys.create(workspace.id)).key;
  });
  // each test's processes end with it: a process left running would drain the next test's queue
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop();
  });
  afterAll(async () => {
    await sites?.close();
    await db?.destroy();
  });

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: db.url,
    ENRICHMENT: 'on',
    ENRICHMENT_ALLOW_PRIVATE: '1',
    ENRICHMENT_WEBSITE_URL: `http://127.0.0.1:${sites.port}/sites/{domain}/`,
    ...extra,
  });
  const start = async (extra: Record<string, string> = {}) => {
    const server = await startServerProcess(env(extra));
    running.push(server);
    return server;
  };
  const path = (domain: string) => `/sites/${domain}/`;
  const repos = () => new Store(db.database).forWorkspace(workspaceId).repos;
  /** someone at the domain identifies, through the process's events endpoint: C6.1 makes the company */
  const makeCompany = async (server: ServerProcess, domain: string) => {
    const answer = await postEvents(server.url, siteKey, [identify(randomUUID(), { email: `someone@${domain}` })]);
    expect(answer.status).toBe(202);
    const company = await repos().companies.findByDomain(domain);
    expect(company, domain).toBeDefined();
    return company!;
  };
  const enriched = (id: string) =>
    until(async () => {
      const entry = await repos().enrichmentQueue.find(id);
      return entry?.enriched_at === null || entry === undefined ? undefined : entry;
    }, `the enrichment of ${id}`);

  it('C6.7, C2.4: a process killed while it reads a website loses nothing: the next one reads it once the claim ends', async () => {
    const domain = `killed-${randomUUID().slice(0, 8)}.com`;
    const held: http.ServerResponse[] = [];
    let answer = false;
    sites.route('127.0.0.1', path(domain), (_request, response) => {
      if (answer) response.writeHead(200, { 'content-type': 'text/html' }).end(page('Survivor Corp'));
      else held.push(response);
    });
    // a short timeout makes a short lease (twice the timeout and 10 s)
    const first = await start({ ENRICHMENT_POLL_MS: '50', ENRICHMENT_TIMEOUT_MS: '250' });
    const company = await makeCompany(first, domain);
    await until(async () => (held.length > 0 ? true : undefined), 'the first process to read the website');
    expect(await repos().enrichmentQueue.find(company.id)).toMatchObject({ claim: expect.any(String), enriched_at: null });
    await first.stop('SIGKILL');
    for (const response of held) response.destroy();
    expect(await repos().companies.findById(company.id)).toEqual(company);

    answer = true;
    await start({ ENRICHMENT_POLL_MS: '50', ENRICHMENT_TIMEOUT_MS: '250' });
    await enriched(company.id);
    expect(await repos().companies.findById(company.id)).toMatchObject({ name: 'Survivor Corp', description: 'Survivor Corp makes things' });
    expect(sites.hits('127.0.0.1', path(domain))).toBe(2);
  }, 120_000);

  it('C6.7, C2.4: companies acknowledged by a process killed before it read anything are enriched by the next one', async () => {
    const domains = Array.from({ length: 3 }, () => `queued-${randomUUID().slice(0, 8)}.com`);
    for (const domain of domains) sites.page('127.0.0.1', path(domain), page(`Queued ${domain.slice(7, 11)}`));
    const first = await start({ ENRICHMENT: 'off' });
    const companies = [];
    for (const domain of domains) companies.push(await makeCompany(first, domain));
    await first.stop('SIGKILL');
    expect(domains.map((domain) => sites.hits('127.0.0.1', path(domain)))).toEqual([0, 0, 0]);
    await start({ ENRICHMENT_POLL_MS: '50' });
    for (const company of companies) {
      await enriched(company.id);
      expect((await repos().companies.findById(company.id))?.name).toMatch(/^Queued /);
    }
  }, 120_000);

  it('C6.7: two processes draining one queue read each website once, each company within 60 s of its creation (default poll); ENRICHMENT=off reads none', async () => {
    const off = await start({ ENRICHMENT: 'off', ENRICHMENT_POLL_MS: '50' });
    const ignored = `ignored-${randomUUID().slice(0, 8)}.com`;
    sites.page('127.0.0.1', path(ignored), page('Ignored'));
    const untouched = await makeCompany(off, ignored);
    // twenty polls of a process with enrichment on would have read it
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sites.hits('127.0.0.1', path(ignored))).toBe(0);
    expect(await repos().enrichmentQueue.find(untouched.id)).toMatchObject({ claim: null, last_attempt_at: null });

    const a = await start();
    const b = await start();
    const domains = Array.from({ length: 8 }, () => `twice-${randomUUID().slice(0, 8)}.com`);
    for (const domain of domains) sites.page('127.0.0.1', path(domain), page(`Once ${domain.slice(6, 10)}`));
    const companies = [];
    for (const [index, domain] of domains.entries()) companies.push(await makeCompany(index % 2 === 0 ? a : b, domain));
    for (const company of companies) {
      const entry = await enriched(company.id);
      expect(Date.parse(entry.enriched_at as string) - Date.parse(company.created_at)).toBeLessThan(60_000);
    }
    expect(domains.map((domain) => sites.hits('127.0.0.1', path(domain)))).toEqual(domains.map(() => 1));
    // the processes with enrichment on read the company the one with it off made
    await enriched(untouched.id);
    expect(sites.hits('127.0.0.1', path(ignored))).toBe(1);
  }, 180_000);
});
