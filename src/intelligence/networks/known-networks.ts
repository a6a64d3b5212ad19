/**
 * Networks whose class their name does not tell: hosting and cloud providers
 * (visits from them are crawlers, monitors and proxies far more often than
 * people) and access providers (home and office connections of many
 * companies at once). No maintained npm package lists them, so the list is
 * kept here, by AS number, from the providers' own published AS numbers;
 * additions are welcome. Keyword rules (classify-network.ts) catch the many
 * smaller ones whose names say what they are.
 */

/** Cloud, hosting, CDN and colocation networks. */
export const HOSTING_ASNS: ReadonlySet<number> = new Set([
  // Amazon Web Services
  16509, 14618, 8987, 7224, 38895,
  // Google and Google Cloud
  15169, 396982, 19527, 139070, 139190, 36040, 43515,
  // Microsoft Azure
  8075, 8068, 8069, 12076,
  // Oracle Cloud
  31898, 401341,
  // IBM Cloud, SoftLayer
  36351, 46704,
  // Alibaba, Tencent, Huawei clouds
  45102, 37963, 24429, 132203, 45090, 136907, 55990,
  // Cloudflare, Akamai/Linode, Fastly, other CDNs
  13335, 209242, 20940, 16625, 63949, 54113, 60068, 15133, 22822,
  // DigitalOcean, Vultr, Hetzner, OVH, Scaleway, Contabo, netcup, IONOS
  14061, 200130, 394362, 62567, 20473, 24940, 213230, 212317, 16276, 12876, 51167, 197540, 8560,
  // Leaseweb, M247, QuadraNet, Psychz, GTHost, FranTech, Hostinger, Namecheap
  60781, 28753, 30633, 9009, 8100, 40676, 63023, 53667, 47583, 22612,
  // Rackspace, Liquid Web, Unified Layer, GoDaddy, Hurricane Electric hosting, Render, Fly.io
  19994, 27357, 32244, 46606, 26496, 398101, 397273, 40509,
]);

/** Access providers: broadband, cable and telephone companies. */
export const ACCESS_ASNS: ReadonlySet<number> = new Set([
  // North America
  7922, 7018, 701, 20115, 11427, 22773, 209, 3356, 5650, 6128, 20001, 30036, 812, 577, 6327, 852, 5769,
  // Europe
  3320, 3209, 6805, 3215, 12322, 5410, 15557, 2856, 5089, 5607, 6830, 3352, 12479, 1136, 3269, 30722, 8447, 3303, 2119, 3301,
  6739, 12389, 8359, 3216, 9121, 5588, 8881, 6661, 5432, 12874, 13285, 31334,
  // Asia and Oceania
  4134, 4837, 9808, 4766, 9318, 2516, 4713, 17676, 7545, 1221, 4804, 9299, 45609, 55836, 9829, 4760, 3462, 7552, 7713,
  // Latin America and Africa
  28573, 8151, 18881, 26599, 7738, 27699, 10318, 22927, 37457, 36903, 33771,
]);

/** Words in an organisation's name that make it a hosting network. */
export const HOSTING_WORDS = ['hosting', 'host', 'cloud', 'datacenter', 'data center', 'data centre', 'server', 'servers', 'vps', 'colo', 'colocation', 'cdn'];

/** Words that make it a mobile network. */
export const MOBILE_WORDS = ['mobile', 'mobil', 'wireless', 'cellular', 'lte', '5g', 'gsm', 'mobilink'];

/** Words that make it an education or research network. */
export const EDUCATION_WORDS = [
  'university',
  'universität',
  'universite',
  'université',
  'universidad',
  'college',
  'school',
  'academy',
  'institute of technology',
  'education',
  'educational',
  'research network',
  'edu',
];

/** Words, and telephone and cable brands, that make it an access provider. */
export const ACCESS_WORDS = [
  'telecom',
  'telekom',
  'telecommunication',
  'telecommunications',
  'communications',
  'broadband',
  'cable',
  'cablevision',
  'internet service',
  'isp',
  'fiber',
  'fibre',
  'dsl',
  'telephone',
  'telefonica',
  'telefónica',
  'vodafone',
  'orange',
  'comcast',
  'verizon',
  'at&t',
  'charter',
  'spectrum',
  'centurylink',
  'lumen',
  'virgin media',
  'liberty global',
  'swisscom',
  'proximus',
  'telia',
  'telenor',
  'telstra',
  'optus',
  'rogers',
  'telus',
  'bell canada',
  'bouygues',
  'iliad',
  'fastweb',
  'airtel',
  'jio',
  'rostelecom',
  'turkcell',
  'etisalat',
  'ooredoo',
  'safaricom',
  'singtel',
  'starhub',
  'pldt',
  'viettel',
  'chunghwa',
  'altice',
  'frontier',
  'windstream',
  'mediacom',
];

/** Legal forms of companies: their presence makes a business name more likely. */
export const COMPANY_FORMS = [
  'inc',
  'llc',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'sa',
  'sas',
  'sarl',
  'bv',
  'nv',
  'ab',
  'oy',
  'plc',
  'corp',
  'corporation',
  'co',
  'spa',
  's.p.a',
  'pty',
  'kk',
  'srl',
  'as',
  'a/s',
  'aps',
];

/** Words that make a name sound like a network operator rather than a business. */
export const GENERIC_NETWORK_WORDS = ['network', 'networks', 'net', 'online', 'digital', 'technologies', 'solutions', 'services', 'group', 'internet', 'it'];
