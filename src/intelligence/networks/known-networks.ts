/**
 * Networks whose class their name does not tell, by AS number: hosting,
 * cloud, CDN and content networks (visits from them are crawlers, monitors
 * and proxies far more often than people), VPN providers, access providers
 * (fixed and mobile: home and office connections of many companies at once)
 * and research and education networks. No maintained npm package ships an
 * AS classification under a licence this project can use, so the lists are
 * kept here from the providers' own published AS numbers (their peering
 * pages and PeeringDB records) and, for hosting and VPN networks, from
 * bad-asn-list (bad-asn-list.ts, MIT); additions are welcome. The name
 * rules of network-words.ts catch the many smaller ones whose names say
 * what they are.
 */
import { LISTED_HOSTING_ASNS, LISTED_VPN_ASNS } from './bad-asn-list.js';

/** Cloud, hosting, CDN, content and security-proxy networks. */
export const HOSTING_ASNS: ReadonlySet<number> = new Set([
  ...LISTED_HOSTING_ASNS,
  // Amazon Web Services
  16509, 14618, 8987, 7224, 38895,
  // Google and Google Cloud
  15169, 396982, 19527, 139070, 139190, 36040, 43515,
  // Microsoft
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
  // content networks: Yahoo (Oath), Meta, Netflix, X (Twitter), Apple content delivery
  10229, 10310, 26101, 34010, 203070, 203219, 203220, 43428, 15635, 42173, 36647, 24506, 23879, 23926, 36752,
  32934, 63293, 54115, 2906, 40027, 13414, 35995, 6185,
  // security proxies that carry many companies' traffic: Zscaler, Netskope, Cisco Umbrella, Forcepoint
  22616, 53813, 62044, 55256, 36692, 25605, 44444,
]);

/** VPN providers. */
export const VPN_ASNS: ReadonlySet<number> = new Set(LISTED_VPN_ASNS);

/** Fixed-line access providers: broadband, cable, fibre and telephone companies, and transit carriers. */
export const ACCESS_ASNS: ReadonlySet<number> = new Set([
  // North America
  7922, 7018, 701, 20115, 11427, 10796, 11351, 12271, 20001, 7843, 33363, 22773, 209, 3356, 5650, 6128, 30036, 11492, 16591,
  7029, 812, 577, 852, 855, 6327, 5769, 5645, 11260, 21949, 174, 6939, 3549, 2828, 6461, 1239,
  // Europe
  3320, 3209, 6805, 3215, 12322, 5410, 15557, 21502, 2856, 6871, 5089, 5607, 13285, 1136, 15435, 5432, 6848, 12392,
  3303, 6730, 6830, 8447, 3269, 1267, 12874, 3352, 12479, 12430, 12338, 6739, 3243, 2860, 3301, 2119, 1257, 8473, 3292,
  9158, 29518, 1759, 16086, 29695, 214875, 5617, 12741, 29314, 5610, 12389, 3216, 9121, 8881, 31334, 8422, 8767, 29562,
  30722, 5588, 6661, 1299, 3257, 2914, 6762, 6453, 3491, 47205, 35432,
  // Asia and Oceania
  4134, 4837, 4766, 9318, 17858, 2516, 4713, 17676, 7545, 1221, 4804, 9299, 9829, 24560, 3462, 7552, 7713, 4760, 9269,
  4657, 7473, 4775, 4788, 7470, 132225, 4809, 9498, 18101,
  // Latin America and Africa
  28573, 8167, 18881, 26599, 7738, 27699, 8151, 22927, 7303, 27651, 7418, 37457, 36947, 8452, 36903, 33771,
]);

/** Mobile operators. */
export const MOBILE_ASNS: ReadonlySet<number> = new Set([
  6167, 22394, 21928, 20057, 25135, 35228, 206067, 51207, 25255, 16232, 31133, 9808, 9605, 45609, 55836, 24608, 30873, 3329,
  21334, 29247, 1241, 15502, 8708, 55410, 8359,
]);

/** National research and education networks and their members' backbone. */
export const EDUCATION_ASNS: ReadonlySet<number> = new Set([
  680, 1103, 786, 2200, 137, 766, 559, 11537, 6509, 7575, 1653, 2603, 1741, 224, 1853, 2611, 2852, 8501, 1213, 293, 20965,
  38022, 2907, 17579, 4538, 1916, 553, 37661, 11164, 1930, 2018,
]);
