/**
 * What an email's domain says about its owner (docs/intelligence.md,
 * "Companies"): a free-mail provider (email-providers), a disposable one
 * (mailchecker), or a business, named by its registrable domain under the
 * public suffix list (tldts: mail.acme.co.uk and acme.co.uk agree).
 */
import { createRequire } from 'node:module';
import { parse } from 'tldts';

export type EmailDomainKind = 'business' | 'free' | 'disposable' | 'unknown';

export interface EmailDomain {
  kind: EmailDomainKind;
  /** the registrable domain, lower-case; null when there is none (an address, an unknown suffix) */
  domain: string | null;
}

const require = createRequire(import.meta.url);
let free: Set<string> | undefined;
let disposable: Set<string> | undefined;

function freeDomains(): Set<string> {
  free ??= new Set((require('email-providers/all.json') as string[]).map((domain) => domain.toLowerCase()));
  return free;
}

function disposableDomains(): Set<string> {
  disposable ??= (require('mailchecker') as { blacklist(): Set<string> }).blacklist();
  return disposable;
}

export function classifyEmail(email: string): EmailDomain {
  const at = email.lastIndexOf('@');
  const host = email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  if (at < 1 || host === '') return { kind: 'unknown', domain: null };
  const parsed = parse(host);
  const domain = parsed.isIp === true ? null : parsed.domain;
  if (domain === null || parsed.isIcann !== true) return { kind: 'unknown', domain: null };
  const known = (list: Set<string>) => list.has(host) || list.has(domain);
  if (known(disposableDomains())) return { kind: 'disposable', domain };
  if (known(freeDomains())) return { kind: 'free', domain };
  return { kind: 'business', domain };
}

/** A company name made from its domain: acme-robotics.co.uk → Acme Robotics. */
export function nameFromDomain(domain: string): string {
  const label = parse(domain).domainWithoutSuffix ?? domain;
  const words = label.split(/[-_.]+/).filter((word) => word !== '');
  if (words.length === 0) return domain;
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}
