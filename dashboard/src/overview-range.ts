/**
 * The overview's period (C9.5) from its search parameters: the presets are
 * UTC days ending today, a custom range its own From and To; the server
 * answers at most MAX_DAYS days, so a longer custom range is refused here
 * with the same words before it is asked.
 */
import type { OverviewRange, OverviewSearch } from './search-params';

const DAY_MS = 86_400_000;
export const MAX_DAYS = 366;

export const PRESETS: { range: Exclude<OverviewRange, 'custom'>; label: string; days: number }[] = [
  { range: 'today', label: 'Today', days: 1 },
  { range: '7d', label: 'Last 7 days', days: 7 },
  { range: '30d', label: 'Last 30 days', days: 30 },
  { range: '90d', label: 'Last 90 days', days: 90 },
];

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isDay = (text: string | undefined): text is string => text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) && dayOf(Date.parse(`${text}T00:00:00Z`)) === text;

/** the days between two days, both included */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** Why a custom range cannot be asked, or undefined when it can. */
export function rangeProblem(from: string | undefined, to: string | undefined): string | undefined {
  if (!isDay(from) || !isDay(to)) return 'Choose a From and a To day.';
  if (to < from) return 'To must be on or after From.';
  if (daysBetween(from, to) > MAX_DAYS) return `A range holds at most ${MAX_DAYS} days.`;
  return undefined;
}

/** The days the search asks for; an invalid custom range falls back to the last 30 days. */
export function periodOf(search: OverviewSearch, now: number = Date.now()): { range: OverviewRange; from: string; to: string } {
  if (search.range === 'custom' && rangeProblem(search.from, search.to) === undefined) return { range: 'custom', from: search.from!, to: search.to! };
  const preset = PRESETS.find((entry) => entry.range === (search.range ?? '30d')) ?? PRESETS[2]!;
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  return { range: preset.range, from: dayOf(today - (preset.days - 1) * DAY_MS), to: dayOf(today) };
}
