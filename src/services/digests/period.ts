/**
 * The periods of digests (CONTRACT C10.4; docs/alerts.md, "Digests"): a
 * daily digest is sent at 08:00 of every day in the workspace's time zone
 * and covers the 24 hours before (23 or 25 across a daylight-saving
 * change: from the previous 08:00 to this one), a weekly digest at 08:00 on
 * Monday and covers the week before. Pure: instants in milliseconds, time
 * zones by IANA name, through Intl.
 */
export type DigestFrequency = 'daily' | 'weekly';

export const DIGEST_HOUR = 8;

export interface DigestPeriod {
  /** daily:YYYY-MM-DD or weekly:YYYY-MM-DD, the local date of the 08:00 that sends it */
  key: string;
  frequency: DigestFrequency;
  /** the local date of its 08:00 */
  date: string;
  /** the instant of the 08:00 that sends it: the end of what it covers */
  sendAt: number;
  /** the 08:00 before (one day or one week): the start of what it covers */
  from: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** Whether `name` is a time zone name this server knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name) || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time of `instant` in `timeZone`. */
export function localTime(instant: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const local = localTime(instant, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of a wall-clock hour on a local date (an hour that exists: 08:00 is never in a daylight-saving gap). */
function instantOf(date: { year: number; month: number; day: number }, hour: number, timeZone: string): number {
  const guess = Date.UTC(date.year, date.month - 1, date.day, hour);
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

/** A calendar date `days` later (or earlier), as UTC arithmetic on the date alone. */
function addDays(date: { year: number; month: number; day: number }, days: number) {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

const isoDate = (date: { year: number; month: number; day: number }) =>
  `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

/** The latest period of `frequency` whose 08:00 is at or before `now` in `timeZone`. */
export function latestPeriod(now: number, timeZone: string, frequency: DigestFrequency): DigestPeriod {
  const local = localTime(now, timeZone);
  let date = { year: local.year, month: local.month, day: local.day };
  if (local.hour < DIGEST_HOUR) date = addDays(date, -1);
  if (frequency === 'weekly') {
    // getUTCDay: 0 is Sunday; Monday is 1
    const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
    date = addDays(date, -((weekday + 6) % 7));
  }
  const sendAt = instantOf(date, DIGEST_HOUR, timeZone);
  const from = instantOf(addDays(date, frequency === 'weekly' ? -7 : -1), DIGEST_HOUR, timeZone);
  return { key: `${frequency}:${isoDate(date)}`, frequency, date: isoDate(date), sendAt, from };
}
