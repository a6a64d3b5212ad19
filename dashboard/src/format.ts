/**
 * How times and numbers read in the dashboard: relative ("3 hours ago")
 * with the exact UTC instant beside it (the <Time> component shows both).
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function relativeTime(instant: string, now: number = Date.now()): string {
  const delta = Date.parse(instant) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return relative.format(Math.round(delta / ms), unit);
  }
  return 'just now';
}

export function exactTime(instant: string): string {
  return `${exact.format(new Date(instant))} UTC`;
}

export function shortDay(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

export function text(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A list's member count in words (C9.6). */
export const memberCount = (members: number) => `${members.toLocaleString('en')} ${members === 1 ? 'member' : 'members'}`;
