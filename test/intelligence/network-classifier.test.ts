/**
 * The company classifier measured on the labelled evaluation set
 * (bench/data/network-labels.tsv, sources in its header and BENCHMARKS.md):
 * CONTRACT C6.5, only a business's own network names a company. Precision
 * (named networks that are businesses) comes first; the floors below are
 * the figures of BENCHMARKS.md rounded down, so a change that names ISPs,
 * hosting or schools again fails here.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, loadLabels } from '../../bench/lib/network-labels.js';
import { networkByAsn } from '../../src/intelligence/networks/asn-ranges.js';
import { classifyByName, classifyNetwork, COMPANY_MATCH_THRESHOLD, type NetworkVerdict } from '../../src/intelligence/networks/classify-network.js';

const names = (verdict: NetworkVerdict) => verdict.class === 'business' && verdict.confidence >= COMPANY_MATCH_THRESHOLD;
const labels = loadLabels();

describe('company classifier on the evaluation set (C6.5)', () => {
  it('holds several hundred labelled networks of every class, each with its source, all in the shipped ranges', () => {
    expect(labels.length).toBeGreaterThanOrEqual(500);
    const classes = new Set(labels.map((label) => label.class));
    expect([...classes].sort()).toEqual(['access', 'business', 'education', 'hosting', 'mobile', 'vpn']);
    for (const label of labels) {
      expect(['issue-20', 'registry', 'peeringdb', 'bad-asn-list'], String(label.asn)).toContain(label.source);
      expect(networkByAsn(label.asn), String(label.asn)).toBeDefined();
    }
  });

  it('C6.5: names companies with precision ≥ 0.95 and recall ≥ 0.70; no access, mobile, hosting, VPN or education network names one', () => {
    const result = evaluate(labels, (network) => names(classifyNetwork(network)));
    expect(result.wrong).toEqual([]);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.7);
  });

  it('C6.5: the name and size rules alone (networks absent from the known lists) keep precision ≥ 0.95', () => {
    const result = evaluate(labels, (network) => names(classifyByName(network)));
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.7);
  });

  it('C6.5: the networks the contract names never name a company, whatever their names say', () => {
    for (const asn of [214875, 34010, 401781, 45372]) {
      const network = networkByAsn(asn)!;
      expect(names(classifyNetwork(network)), network.organization).toBe(false);
      expect(names(classifyByName(network)), network.organization).toBe(false);
    }
  });
});
