/**
 * What the registered name of a network says about it (CONTRACT C6.5;
 * docs/intelligence.md, "From the network"). Names are compared folded:
 * lower case, accents removed, punctuation as spaces; `tokens` match whole
 * words, `stems` match anywhere in a word (so `HostPepper`, `ULNetworks`
 * and `Telecomunicacoes` are caught as well as `Hosting` and `Networks`).
 * The lists lean to caution: a word that operators use far more often than
 * businesses do makes a network no company's.
 */

export interface WordRule {
  /** whole words */
  tokens: readonly string[];
  /** parts of words */
  stems: readonly string[];
}

/** Hosting, cloud, CDN, datacenter, proxy and VPN operators. */
export const HOSTING_WORDS: WordRule = {
  tokens: ['colo', 'vps', 'cdn', 'idc', 'nap', 'dc', 'seedbox', 'proxy', 'vpn', 'tor', 'dedicated', 'compute', 'anycast', 'ddos'],
  stems: ['host', 'server', 'cloud', 'datacent', 'datacenter', 'datacentre', 'colocation', 'vps', 'hosting', 'vpn', 'bulletproof', 'anonym', 'dedi', 'webspace', 'webhost', 'yahoo', 'oath holdings', 'akamai', 'cloudflare', 'fastly', 'zscaler', 'netskope', 'opendns', 'edgecast', 'limelight', 'stackpath', 'incapsula', 'imperva', 'leaseweb', 'digitalocean', 'linode', 'hetzner', 'contabo'],
};

/** Mobile operators. */
export const MOBILE_WORDS: WordRule = {
  tokens: ['mobile', 'movil', 'movel', 'wireless', 'cellular', 'cellco', 'lte', '3g', '4g', '5g', 'gsm', 'mobility', 'hutchison', 'mobilink', 'celular'],
  stems: ['mobilfunk', 'mobiltelefon', 'telemobil', 'cellular', 'wireless'],
};

/** Research and education networks, universities and schools. */
export const EDUCATION_WORDS: WordRule = {
  tokens: ['college', 'colleges', 'school', 'schools', 'schule', 'academy', 'education', 'educational', 'edu', 'campus', 'students', 'polytechnic', 'politecnico', 'polytechnique', 'isd', 'k12', 'nren', 'research'],
  stems: ['universit', 'univerza', 'universidad', 'hochschule', 'akademi', 'academi', 'academy', 'forschung', 'recherche', 'ricerca', 'investigacion', 'pesquisa', 'ensino', 'enseignement', 'onderwijs', 'utbildning', 'school', 'college', 'institute of technology', 'research and education', 'research network'],
};

/**
 * Access providers and carriers: words of the trade and the brands of the
 * larger telephone and cable companies.
 */
export const ACCESS_WORDS: WordRule = {
  tokens: [
    'net', 'isp', 'wisp', 'dsl', 'adsl', 'ftth', 'fttx', 'wifi', 'wi fi', 'internet', 'online', 'broadband', 'cable',
    'tel', 'telco', 'bt', 'kpn', 'sky', 'free', 'sfr', 'oi', 'tim', 'ee', 'o2', 'a1', 'du', 'stc', 'mtn', 'glo', 'ote',
    'tdc', 'dna', 'upc', 'rcn', 'wow', 'gci', 'tds', 'att', 'at&t', 'salt', 'post', 'transit', 'backbone', 'carrier',
    'ip transit', 'provider', 'provedor', 'proveedor', 'cabo', 'lyse', 'ono', 'meo', 'vivo', 'claro', 'shaw', 'tigo', 'eir',
    'sonic', 'magenta', 'elisa', 'sprint', 'optimum', 'orange', 'charter', 'spectrum', 'frontier', 'lumen', 'entel',
    'jio', 'ntt', 'tpg', 'gtt', 'telus', 'rogers', 'optus', 'telia', 'cogent', 'zayo', 'iliad', 'maxis', 'celcom',
    'vocus', 'sify', 'astound', 'midco', 'vodacom', 'ziggo', 'telenet', 'altice', 'hinet', 'vnpt', 'sparkle',
    'beeline', 'eastlink', 'cogeco', 'telkom', 'indosat', 'telemar', 'onpt', 'pyur', 'init7', 'quickline', 'siminn',
    'suddenlink', 'ziply', 'hargray', 'sparklight', 'teleste', 'netia', 'vectra', 'telmex', 'uninet', 'movistar',
    'digicel', 'kddi', 'softbank', 'docomo', 'pccw', 'hkbn', 'iinet', 'bahnhof', 'tele2', 'jazztel', 'masmovil',
    'euskaltel', 'cosmote', 'yettel', 'hyperoptic', 'plusnet', 'talktalk', 'versatel', 'netcologne', 'proximus',
    'swisscom', 'sunrise', 'altibox', 'vodafone', 'comcast', 'verizon', 'centurylink', 'arelion', 'telenor', 'telstra',
    'videotron', 'teksavvy', 'bouygues', 'fastweb', 'airtel', 'bsnl', 'rostelecom', 'vimpelcom', 'megafon', 'turkcell',
    'etisalat', 'ooredoo', 'safaricom', 'singtel', 'starhub', 'pldt', 'viettel', 'chunghwa', 'windstream', 'mediacom',
    'hathway', 'tmobile', 'chinanet',
  ],
  stems: [
    'telecom', 'telekom', 'telecomunica', 'telecommunica', 'telekomunika', 'telecommunication', 'telefon', 'telephon',
    'telefonica', 'telco', 'teleco', 'communication', 'comunica', 'kommunikation', 'komunikac', 'communications',
    'broadband', 'breitband', 'bredband', 'cable', 'kabel', 'fiber', 'fibre', 'fibra', 'glasfaser', 'dsl',
    'network', 'netz', 'netwerk', 'internet', 'online', 'level 3', 'bell canada', 'bell aliant', 'wind tre',
    'cox communications', 'virgin media', 'liberty global', 'nos comunicacoes', 'magyar telekom', 'v tal',
    'korea telecom', 'sk broadband', 'powercomm', 'china unicom', 'china mobile', 'china telecom',
    'hong kong broadband', 'spark new zealand', 'aussie broadband', 'true internet', 'tm technology', 'globe telecom',
    'smart communications', 'xl axiata', 'tata communications', 'hurricane electric', 'tele columbus', 'm net',
    'ewe tel', 'wilhelm tel', 'deutsche glasfaser', 'a1 telekom', 'post luxembourg', 't mobile', 'us cellular',
    'wave broadband', 'consolidated communications', 'cincinnati bell', 'maroc telecom', 'algerie telecom', 'te data',
  ],
};

/** Legal forms of companies: their presence makes a business name more likely. */
export const COMPANY_FORMS: readonly string[] = [
  'inc', 'incorporated', 'llc', 'ltd', 'limited', 'gmbh', 'ag', 'sa', 'sas', 'sasu', 'sarl', 'bv', 'nv', 'ab', 'oy', 'oyj', 'plc', 'corp', 'corporation', 'company', 'co', 'spa', 'pty', 'kk', 'srl', 'as', 'a s', 'asa', 'aps', 'se', 'kgaa', 'lp', 'llp', 'pte', 'bhd', 'sdn', 'kft', 'zrt', 'sro', 'sp', 'sa de cv', 'ltda', 'pjsc', 'jsc', 'ojsc', 'cjsc', 'aktiengesellschaft', 'gesellschaft', 'holding', 'holdings', 'group',
];

/**
 * Words of industries that do not sell connectivity: a name with one of
 * them is a business's far more often than an operator's.
 */
export const INDUSTRY_WORDS: WordRule = {
  tokens: ['bank', 'banks', 'bancorp', 'banco', 'banca', 'banque', 'sparkasse', 'insurance', 'assurance', 'assurances', 'versicherung', 'versicherungs', 'seguros', 'sigorta', 'assicurazioni', 'reinsurance', 'mutual', 'pharma', 'pharmaceutical', 'pharmaceuticals', 'laboratories', 'motor', 'motors', 'automotive', 'airlines', 'airline', 'airways', 'aviation', 'aerospace', 'hospital', 'health', 'healthcare', 'medical', 'clinic', 'foods', 'food', 'chemical', 'chemicals', 'petrochemical', 'steel', 'energy', 'oil', 'petroleum', 'gas', 'mining', 'retail', 'stores', 'logistics', 'freight', 'shipping', 'manufacturing', 'industries', 'brewery', 'consulting', 'lawyers', 'attorneys', 'financial', 'securities', 'capital', 'investment', 'investments', 'credit', 'chase', 'sachs', 'stanley', 'deloitte', 'kpmg', 'accenture', 'mckinsey', 'pricewaterhousecoopers', 'ernst'],
  stems: ['versicherung', 'pharma', 'assurance', 'laborator', 'motoren', 'werke', 'industrie', 'chemie', 'brauerei', 'bancaria'],
};

/** Words that make a name sound like an IT or network operator rather than another business. */
export const GENERIC_NETWORK_WORDS: WordRule = {
  tokens: ['it', 'ict', 'digital', 'technologies', 'technology', 'tech', 'solutions', 'services', 'systems', 'system', 'data', 'web', 'media', 'connect', 'link', 'global', 'infra', 'infrastructure', 'computing', 'computer', 'computers', 'informatica', 'informatique', 'informatik', 'software', 'security', 'sat', 'satellite', 'radio', 'tv', 'television', 'video', 'voip', 'ix', 'exchange', 'peering', 'enterprises', 'ventures', 'com', 'labs', 'lab', 'projects', 'project', 'foundation', 'association', 'ev'],
  stems: ['tech', 'data', 'digital', 'connect', 'link', 'infra', 'comput', 'soft', 'cyber', 'web', 'telematic', 'teleinform', 'informati', 'sistem', 'solution', 'service'],
};
