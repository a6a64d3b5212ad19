/**
 * Which content encodings a request's Accept-Encoding accepts, of the two the
 * server writes (Brotli and gzip): shared by the /docs script
 * (plugins/reference-script.ts) and the dashboard API's JSON
 * (plugins/json-compression.ts).
 */

/** The encodings an Accept-Encoding header accepts (a q of 0 refuses; `*` accepts both). */
export function acceptedEncodings(header: string | undefined): Set<'br' | 'gzip'> {
  const accepted = new Set<'br' | 'gzip'>();
  const refused = new Set<string>();
  let any = false;
  for (const entry of (header ?? '').split(',')) {
    const [name = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!(weight > 0)) {
      refused.add(name);
      continue;
    }
    if (name === 'br' || name === 'gzip') accepted.add(name);
    if (name === '*') any = true;
  }
  if (any) for (const name of ['br', 'gzip'] as const) if (!refused.has(name)) accepted.add(name);
  for (const name of refused) accepted.delete(name as 'br' | 'gzip');
  return accepted;
}
