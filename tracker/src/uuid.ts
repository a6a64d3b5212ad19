/**
 * Ids of events and visitors: UUID version 7 (RFC 9562), the time in
 * milliseconds followed by random bits from crypto.getRandomValues (which,
 * unlike crypto.randomUUID, also exists outside secure contexts). Ids made
 * later sort later, so the server's index of event ids grows at its end
 * rather than everywhere at once.
 */
export function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let time = Date.now();
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = (bytes[6]! & 15) | 112;
  bytes[8] = (bytes[8]! & 63) | 128;
  let hex = '';
  for (const byte of bytes) hex += (byte + 256).toString(16).slice(1);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
