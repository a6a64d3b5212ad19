/**
 * The demo's companies (CONTRACT C5.8, C6.5, C6.6): its visits come from
 * real networks of the shipped ranges and its reverse DNS answers from its
 * own resolver, through the same pipeline as any workspace's, so a
 * newcomer's companies list holds businesses only: none of the access,
 * mobile, hosting, VPN or education networks of the evaluation set
 * (bench/data/network-labels.tsv), none of the networks issue 20 found
 * there, and companies named by each source.
 */
import { describe, expect, it } from 'vitest';
import { loadLabels } from '../../bench/lib/network-labels.js';
import { networkByAsn } from '../../src/intelligence/networks/asn-ranges.js';
import { createTestApp } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all } from '../helpers/tracking.js';

const NAMED_IN_ISSUE = ['Altibox Danmark AS', 'Yahoo! UK Services Limited', 'HostPepper, LLC', 'ULNetworks Co., Ltd.'];

describe.each(storeKinds())('the demo\'s companies on %s (C6.5, C6.6)', (kind) => {
  it('C6.5: a newcomer\'s companies are businesses: no access, hosting or education network; companies named by email, network and reverse DNS', async () => {
    const t = await createTestApp(kind);
    try {
      const base = await t.listen();
      const seeded = await t.services.seed.seedDemo();
      const { key } = await t.services.apiKeys.create(seeded.workspace_id, 'production', 'demo check');
      const workspace = { id: seeded.workspace_id, name: 'demo', production: { id: '', key }, development: { id: '', key } };
      const companies = await all(base, workspace, '/companies');
      expect(companies.length).toBe(seeded.companies);
      const names = new Set(companies.map((company) => company.name as string));

      const notBusinesses = new Map<string, string>();
      for (const label of loadLabels()) {
        const organization = networkByAsn(label.asn)?.organization;
        if (label.class !== 'business' && organization !== undefined) notBusinesses.set(organization, label.class);
      }
      for (const name of names) expect(notBusinesses.get(name), name).toBeUndefined();
      for (const name of NAMED_IN_ISSUE) expect(names.has(name), name).toBe(false);
      // the networks that named companies are labelled businesses
      const business = new Set(loadLabels().filter((label) => label.class === 'business').map((label) => networkByAsn(label.asn)?.organization));
      const byNetwork = companies.filter((company) => company.domain === '');
      expect(byNetwork.length).toBeGreaterThan(0);
      for (const company of byNetwork) expect(business.has(company.name as string), company.name as string).toBe(true);

      const leads = await all(base, workspace, '/leads');
      const sources = new Set(leads.map((lead) => ((lead.properties as { company_match?: { source: string } }).company_match?.source)));
      expect([...sources].filter((source) => source !== undefined).sort()).toEqual(['email', 'network', 'reverse_dns']);
    } finally {
      await t.close();
    }
    // seeding sends some 1,800 events through ingestion: seconds on an idle machine, more on a loaded one
  }, 180_000);
});
