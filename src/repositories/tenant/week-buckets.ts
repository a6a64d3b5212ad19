/**
 * The week rows of the overview's counters (migration 0021): beside each
 * UTC day's row, traffic_counts and page_counts keep a row per ISO week
 * (Monday to Sunday, UTC) whose `day` is `w` followed by the week's Monday,
 * bumped by the same upsert as the day's row. `w` sorts after every digit,
 * so a range of days (`YYYY-MM-DD` bounds) never reads a week row. A long
 * range reads its whole weeks and its edge days (at most six on each side)
 * rather than every day: 90 days, 12 or 13 weeks and at most 6 days.
 */
const DAY_MS = 86_400_000;
/** the first character of a week row's `day`: after every digit */
export const WEEK_PREFIX = 'w';

const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** days since Monday: 0 on Monday, 6 on Sunday */
const sinceMonday = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;

const weeks = new Map<string, string>();

/** The key of the week row a day (YYYY-MM-DD) counts in: `w` and that week's Monday. */
export function weekOf(day: string): string {
  let week = weeks.get(day);
  if (week === undefined) {
    const ms = msOf(day);
    week = WEEK_PREFIX + dayOf(ms - sinceMonday(ms) * DAY_MS);
    // the ingest sees a few days at a time: a small cache, emptied rather than grown
    if (weeks.size >= 64) weeks.clear();
    weeks.set(day, week);
  }
  return week;
}

/**
 * The `day` keys of the rows that sum to the days `from` to `to` (inclusive):
 * the week rows of the whole weeks inside the range, and the day rows of the
 * days before the first whole week and after the last (without a whole
 * week, every day's). Read with `day in (…)`: a seek per key in the
 * counters' primary key, where ranges joined by `or` make SQLite scan them all.
 */
export function keysOf(from: string, to: string): string[] {
  const first = msOf(from);
  const last = msOf(to);
  const firstMonday = first + ((7 - sinceMonday(first)) % 7) * DAY_MS;
  const lastSunday = last - ((sinceMonday(last) + 1) % 7) * DAY_MS;
  const keys: string[] = [];
  const days = (start: number, end: number) => {
    for (let ms = start; ms <= end; ms += DAY_MS) keys.push(dayOf(ms));
  };
  if (firstMonday > lastSunday) {
    days(first, last);
    return keys;
  }
  days(first, firstMonday - DAY_MS);
  for (let ms = firstMonday; ms < lastSunday; ms += 7 * DAY_MS) keys.push(WEEK_PREFIX + dayOf(ms));
  days(lastSunday + DAY_MS, last);
  return keys;
}
