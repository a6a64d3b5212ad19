/**
 * Random UUIDs (version 4) for event and visitor ids: crypto.randomUUID where
 * the page is a secure context, crypto.getRandomValues elsewhere (plain http).
 */
export function uuid(): string {
  // absent outside secure contexts, whatever the DOM types say
  const random = (crypto as Partial<Crypto>).randomUUID;
  if (random) return random.call(crypto);
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 15) | 64;
  bytes[8] = (bytes[8]! & 63) | 128;
  let hex = '';
  for (const byte of bytes) hex += (byte + 256).toString(16).slice(1);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
