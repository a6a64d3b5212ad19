/**
 * The labelled evaluation set of the company classifier (CONTRACT C6.5;
 * bench/data/network-labels.tsv, its sources in its header and in
 * BENCHMARKS.md) and the measure taken on it: precision (of the networks
 * that name a company, the share that are businesses) and recall (of the
 * business networks, the share that name one). Read by `npm run bench`
 * (scenario `companies`) and by test/intelligence/network-classifier.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { networkByAsn, type Network } from '../../src/intelligence/networks/asn-ranges.js';

export type LabelClass = 'business' | 'access' | 'mobile' | 'hosting' | 'vpn' | 'education';

export interface Label {
  asn: number;
  class: LabelClass;
  source: string;
}

export const LABELS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'network-labels.tsv');

export function loadLabels(file: string = LABELS_FILE): Label[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [asn, label, source] = line.split('\t');
      return { asn: Number(asn), class: label as LabelClass, source: source ?? '' };
    });
}

export interface Evaluation {
  networks: number;
  businesses: number;
  /** networks that named a company */
  named: number;
  /** of them, businesses */
  namedBusinesses: number;
  precision: number;
  recall: number;
  /** non-business networks that named a company, by class */
  wrong: { asn: number; class: LabelClass; organization: string }[];
  byClass: Record<LabelClass, { total: number; named: number }>;
}

/** Measures `names` (does this network name a company?) over the labels. */
export function evaluate(labels: readonly Label[], names: (network: Network) => boolean): Evaluation {
  const byClass = Object.fromEntries(
    (['business', 'access', 'mobile', 'hosting', 'vpn', 'education'] as const).map((name) => [name, { total: 0, named: 0 }]),
  ) as Evaluation['byClass'];
  const wrong: Evaluation['wrong'] = [];
  let named = 0;
  let namedBusinesses = 0;
  for (const label of labels) {
    const network = networkByAsn(label.asn);
    if (network === undefined) continue;
    const counts = byClass[label.class];
    counts.total += 1;
    if (!names(network)) continue;
    counts.named += 1;
    named += 1;
    if (label.class === 'business') namedBusinesses += 1;
    else wrong.push({ asn: label.asn, class: label.class, organization: network.organization });
  }
  const businesses = byClass.business.total;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    networks: Object.values(byClass).reduce((sum, counts) => sum + counts.total, 0),
    businesses,
    named,
    namedBusinesses,
    precision: named === 0 ? 1 : round(namedBusinesses / named),
    recall: businesses === 0 ? 0 : round(namedBusinesses / businesses),
    wrong,
    byClass,
  };
}
