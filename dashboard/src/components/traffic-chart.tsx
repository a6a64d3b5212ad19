/**
 * Visitors and page views per day of the overview's period (our SVG bars,
 * loaded with the overview only): page views as bars, visitors as the line
 * drawn over them. Its height is fixed, the same as the frame the overview
 * keeps while it loads, so nothing moves when it draws.
 */
import { BarChart } from './charts/bar-chart';
import type { TrafficDayPoint } from '../types';

export const TRAFFIC_CHART_HEIGHT = 240;

export default function TrafficChart({ days }: { days: TrafficDayPoint[] }) {
  return (
    <BarChart
      label="Visitors and page views per day"
      days={days.map((point) => ({ day: point.day, values: { page_views: point.page_views } }))}
      series={[{ key: 'page_views', name: 'page views', color: '#2563eb' }]}
      comparison={{ name: 'visitors', color: '#c2410c', values: days.map((point) => point.visitors) }}
      legend
      height={TRAFFIC_CHART_HEIGHT}
    />
  );
}
