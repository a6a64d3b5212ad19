/**
 * What a PTR name says about the company behind an address (CONTRACT C6.6;
 * docs/intelligence.md, "From reverse DNS"): the registrable domain (public
 * suffix list, tldts) of a name that looks like a company's own host
 * (`mail.acme.de`, `gw1.acme-robotics.com`), or nothing for the names
 * providers give their customers' lines (they hold the address's digits, or
 * words such as `dynamic`, `pool`, `dsl`, `cable`, `dhcp`, `static`,
 * `customer`, `client`, `broadband`) and for the domains of access, hosting,
 * mobile and education networks.
 */
import { parse } from 'tldts';
import { foldName } from './networks/classify-network.js';
import { ACCESS_WORDS, EDUCATION_WORDS, GENERIC_NETWORK_WORDS, HOSTING_WORDS, MOBILE_WORDS, type WordRule } from './networks/network-words.js';

/** Labels (or their starts) that providers put in customer lines' names. */
const GENERIC_LABELS = [
  'dynamic', 'dyn', 'dynip', 'pool', 'dsl', 'adsl', 'vdsl', 'xdsl', 'sdsl', 'cable', 'catv', 'dhcp', 'static', 'customer', 'cust', 'client',
  'broadband', 'bb', 'ppp', 'pppoe', 'dial', 'dialup', 'dip', 'user', 'home', 'res', 'residential', 'ftth', 'fttx', 'fttb', 'fttc', 'fiber',
  'fibre', 'wifi', 'wlan', 'wireless', 'mobile', 'cpe', 'nat', 'cgn', 'cgnat', 'lte', 'gprs', 'hsd', 'ip', 'ipv4', 'ipv6', 'rev', 'reverse',
  'unassigned', 'unknown', 'noname', 'ptr', 'modem', 'host', 'hosted', 'vps', 'server', 'srv', 'cloud', 'node', 'compute', 'ec2', 'dedicated',
  'in-addr', 'addr', 'subscriber', 'sub', 'business', 'biz', 'cm', 'pop', 'nas', 'bras', 'ras', 'vpn', 'proxy', 'tor', 'exit', 'crawl', 'crawler', 'bot',
];

/**
 * Domains of providers whose customers' names carry none of the words
 * above (the larger access and hosting providers' reverse zones).
 */
const PROVIDER_DOMAINS = new Set([
  't-ipconnect.de', 'dtag.de', 'telekom.de', 'vodafone-ip.de', 'kabel-deutschland.de', 'unitymediagroup.de', 'versatel.de', 'o2online.de', 'alicedsl.de',
  'rr.com', 'sbcglobal.net', 'att.net', 'verizon.net', 'comcast.net', 'cox.net', 'charter.com', 'spectrum.com', 'optonline.net', 'qwest.net',
  'centurylink.net', 'frontiernet.net', 'windstream.net', 'mediacomcc.net', 'cableone.net', 'suddenlink.net', 'wowway.com', 'rcn.com',
  'shawcable.net', 'rogers.com', 'videotron.ca', 'sympatico.ca', 'bell.ca', 'telus.net', 'cogeco.ca', 'eastlink.ca', 'teksavvy.com',
  'btcentralplus.com', 'bt.com', 'virginm.net', 'sky.com', 'talktalk.net', 'plus.net', 'as13285.net', 'orange.fr', 'wanadoo.fr', 'free.fr',
  'proxad.net', 'sfr.net', 'numericable.fr', 'bbox.fr', 'telenet.be', 'skynet.be', 'ziggo.nl', 'kpn.net', 'chello.nl', 'upc.ch', 'bluewin.ch',
  'swisscom.ch', 'telia.com', 'bredband.net', 'bahnhof.se', 'comhem.se', 'tele2.se', 'telenor.dk', 'altibox.net', 'lyse.net', 'getinternet.no',
  'nextgentel.com', 'telefonica.de', 'telecomitalia.it', 'fastwebnet.it', 'rima-tde.net', 'orange.es', 'ono.com', 'telepac.pt', 'netcabo.pt',
  'telesp.net.br', 'virtua.com.br', 'amazonaws.com', 'googleusercontent.com', '1e100.net', 'googlebot.com', 'akamaitechnologies.com',
  'cloudfront.net', 'linode.com', 'linodeusercontent.com', 'your-server.de', 'hetzner.com', 'ovh.net', 'vultr.com', 'vultrusercontent.com',
  'contabo.net', 'digitalocean.com', 'leaseweb.com', 'secureserver.net', 'bigpond.net.au', 'bigpond.com', 'optusnet.com.au', 'tpgi.com.au',
  'iinet.net.au', 'ocn.ne.jp', 'bbtec.net', 'dion.ne.jp', 'hinet.net', 'kornet.net', 'vnpt.vn', 'airtelbroadband.in', 'jio.com', 'myvzw.com',
  'tmodns.net', 'spcsdns.net', 'mycingular.net', 'msn.com', 'apple.com', 'icloud.com', 'yahoo.com', 'facebook.com', 'fbsv.net', 'tfbnw.net',
]);

/** Which reverse zones read as another's network: providers' words, and the generic words whole. */
const PROVIDER_RULES: readonly WordRule[] = [HOSTING_WORDS, ACCESS_WORDS, MOBILE_WORDS, EDUCATION_WORDS, { tokens: GENERIC_NETWORK_WORDS.tokens, stems: [] }];

/** Whether the name carries the address's numbers (two octets or more, in any order, or its hexadecimal form). */
function holdsAddress(labels: readonly string[], address: string): boolean {
  const text = labels.join('.');
  const numbers: string[] = text.match(/\d+/g) ?? [];
  if (address.includes('.')) {
    const octets = address.split('.');
    const found = octets.filter((octet) => numbers.includes(octet)).length;
    if (found >= 2) return true;
    const hex = octets.map((octet) => Number(octet).toString(16).padStart(2, '0')).join('');
    if (text.includes(hex)) return true;
  } else {
    const groups = address.split(':').filter((group) => group !== '' && group !== '0');
    if (groups.filter((group) => text.includes(group.toLowerCase())).length >= 2) return true;
  }
  // many numbers in the host part are a line's, not a company's host's
  return numbers.join('').length >= 6;
}

function isGeneric(labels: readonly string[]): boolean {
  return labels.some((label) =>
    label.split(/[-_]/).some((part) => GENERIC_LABELS.some((word) => part === word || (part.startsWith(word) && /^\d+$/.test(part.slice(word.length))))),
  );
}

function isProviderDomain(domain: string, suffix: string | null): boolean {
  if (PROVIDER_DOMAINS.has(domain)) return true;
  // universities and schools: edu, ac.*, edu.*, sch.*, k12.*
  if (suffix !== null && /(^|\.)(edu|ac|sch|k12)(\.|$)/.test(suffix)) return true;
  const name = foldName(domain.slice(0, domain.length - (suffix?.length ?? 0)).replace(/\.$/, ''));
  return PROVIDER_RULES.some((rule) => {
    for (const token of rule.tokens) if (!token.includes(' ') && name.tokens.has(token)) return true;
    return rule.stems.some((stem) => !stem.includes(' ') && name.spaced.includes(stem));
  });
}

export interface PtrReading {
  /** the PTR name's registrable domain, lower case; null when it has none */
  registrable: string | null;
  /** the registrable domain when the name looks like a company's own host; null otherwise */
  company: string | null;
}

/** Reads a PTR name of `address`. */
export function readPtr(name: string, address: string): PtrReading {
  const host = name.trim().toLowerCase().replace(/\.$/, '');
  const parsed = parse(host);
  if (parsed.isIp === true || parsed.domain === null || parsed.isIcann !== true) return { registrable: null, company: null };
  const registrable = parsed.domain;
  const sub = parsed.subdomain === null || parsed.subdomain === '' ? [] : parsed.subdomain.split('.');
  if (holdsAddress(sub, address) || isGeneric(sub) || isProviderDomain(registrable, parsed.publicSuffix)) return { registrable, company: null };
  return { registrable, company: registrable };
}
