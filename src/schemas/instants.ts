/**
 * ISO 8601 instants as the API accepts and returns them (CONTRACT C3.11, C3.12).
 * Accepted: a date alone (00:00Z), or a date and time with or without seconds,
 * fraction and offset (no offset means UTC). Returned: YYYY-MM-DDTHH:mm:ss.sssZ.
 * Years 0001 to 9999 only, so that the text form sorts and both stores agree.
 */

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MIN_MS = new Date('0001-01-01T00:00:00.000Z').getTime();
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface ParsedInstant {
  /** whole milliseconds since the epoch, rounded down */
  ms: number;
  /** true when the text had digits below the millisecond that were not zero */
  subMillisecond: boolean;
}

/** The canonical form, which most input already has: checked without the general parser. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function parseInstant(text: string): ParsedInstant | null {
  if (CANONICAL.test(text)) {
    const ms = Date.parse(text);
    // Date.parse accepts 2024-02-30; the round trip does not
    if (!Number.isNaN(ms) && text.charCodeAt(0) !== 48 && new Date(ms).toISOString() === text) {
      return { ms, subMillisecond: false };
    }
  }
  const match = INSTANT.exec(text);
  if (match === null) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', offset = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;

  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const millis = Number((fraction + '000').slice(0, 3));
  date.setUTCHours(hour, minute, second, millis);

  let ms = date.getTime();
  if (offset !== 'Z' && offset !== 'z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2) || '0');
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  if (ms < MIN_MS || ms > MAX_MS) return null;
  return { ms, subMillisecond: /[1-9]/.test(fraction.slice(3)) };
}

export function isInstant(text: string): boolean {
  return parseInstant(text) !== null;
}

/** The canonical text form of an instant: YYYY-MM-DDTHH:mm:ss.sssZ */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The canonical form of text already known to be a valid instant (checked by
 * the schema's format): canonical text is returned as it is, without parsing.
 */
export function canonicalInstant(validText: string): string {
  return CANONICAL.test(validText) ? validText : (normalizeInstant(validText) as string);
}

/** The milliseconds of text already known to be a valid instant (checked by the schema's format). */
export function validInstantMs(validText: string): number {
  return CANONICAL.test(validText) ? Date.parse(validText) : (parseInstant(validText) as ParsedInstant).ms;
}

/** Normalizes accepted instant text to the canonical form (sub-millisecond digits dropped). */
export function normalizeInstant(text: string): string | null {
  if (CANONICAL.test(text) && parseInstant(text) !== null) return text;
  const parsed = parseInstant(text);
  return parsed === null ? null : formatInstant(parsed.ms);
}

/**
 * Strict bounds over millisecond timestamps: `created_at > after` and
 * `created_at < before` give the same rows as comparing with the exact instant,
 * even when the instant has digits below the millisecond.
 */
export function boundAfter(text: string): string | null {
  const parsed = parseInstant(text);
  return parsed === null ? null : formatInstant(parsed.ms);
}

export function boundBefore(text: string): string | null {
  const parsed = parseInstant(text);
  return parsed === null ? null : formatInstant(parsed.ms + (parsed.subMillisecond ? 1 : 0));
}

export function now(): string {
  return new Date().toISOString();
}
