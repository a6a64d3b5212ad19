/**
 * The overview's range from its query (C9.5): `from` and `to` together or
 * neither (the last 30 days), each a real UTC day, `from` on or before
 * `to`, at most MAX_RANGE_DAYS days both included; anything else is a 400
 * naming the parameter.
 */
import { lastDays, MAX_RANGE_DAYS, rangeDays, type DayRange } from '../services/tenant/traffic-overview.service.js';
import { invalidRequest } from './errors.js';

/** the range when the query names none */
export const DEFAULT_RANGE_DAYS = 30;

const isDay = (text: string) => {
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
};

export function trafficRange(query: { from?: string; to?: string }, now: number = Date.now()): DayRange {
  const { from, to } = query;
  if (from === undefined && to === undefined) return lastDays(DEFAULT_RANGE_DAYS, now);
  if (from === undefined) throw invalidRequest('parameters', { from: 'is required with to' });
  if (to === undefined) throw invalidRequest('parameters', { to: 'is required with from' });
  if (!isDay(from)) throw invalidRequest('parameters', { from: 'is not a day of the calendar' });
  if (!isDay(to)) throw invalidRequest('parameters', { to: 'is not a day of the calendar' });
  if (to < from) throw invalidRequest('parameters', { to: 'must be on or after from' });
  if (rangeDays({ from, to }) > MAX_RANGE_DAYS) throw invalidRequest('parameters', { to: `must be within ${MAX_RANGE_DAYS} days of from, both included` });
  return { from, to };
}
