/**
 * The `companies` scenario of `npm run bench` (CONTRACT C6.5): the company
 * classifier on the labelled evaluation set (network-labels.ts), whole and
 * with its name and size rules alone (what a network absent from the known
 * lists gets), with the time one classification takes. No store, no server.
 */
import { performance } from 'node:perf_hooks';
import { networkByAsn } from '../../src/intelligence/networks/asn-ranges.js';
import { classifyByName, classifyNetwork, COMPANY_MATCH_THRESHOLD, type NetworkVerdict } from '../../src/intelligence/networks/classify-network.js';
import { evaluate, loadLabels, type Evaluation } from './network-labels.js';

const names = (verdict: NetworkVerdict) => verdict.class === 'business' && verdict.confidence >= COMPANY_MATCH_THRESHOLD;

function line(title: string, result: Evaluation): string {
  const classes = Object.entries(result.byClass)
    .map(([name, counts]) => `${name} ${counts.named}/${counts.total}`)
    .join(', ');
  const wrong = result.wrong.map((network) => `AS${network.asn} ${network.organization} (${network.class})`).join('; ');
  return `companies, ${title}: precision ${result.precision} (${result.namedBusinesses}/${result.named}), recall ${result.recall} over ${result.businesses} businesses of ${result.networks} networks; named by class: ${classes}${wrong === '' ? '' : `; wrongly named: ${wrong}`}`;
}

/** Answers the report's notes. */
export function benchCompanies(log: (line: string) => void): string[] {
  const labels = loadLabels();
  const whole = evaluate(labels, (network) => names(classifyNetwork(network)));
  const rules = evaluate(labels, (network) => names(classifyByName(network)));
  const networks = labels.map((label) => networkByAsn(label.asn)).filter((network) => network !== undefined);
  const rounds = 200;
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) for (const network of networks) classifyNetwork(network);
  const micros = ((performance.now() - started) * 1000) / (rounds * networks.length);
  const notes = [line('whole classifier', whole), line('name and size rules alone', rules), `companies: one classification ${micros.toFixed(2)} µs (mean over ${rounds} rounds of ${networks.length} networks)`];
  for (const note of notes) log(note);
  return notes;
}
