/**
 * Visitors and page views per day of the overview's period (Recharts,
 * loaded with the overview only). Its height is fixed, the same as the
 * placeholder shown while it loads, so nothing moves when it draws.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrafficDayPoint } from '../types';
import { shortDay } from '../format';

export const TRAFFIC_CHART_HEIGHT = 240;

export default function TrafficChart({ days }: { days: TrafficDayPoint[] }) {
  const rows = days.map((point) => ({ day: shortDay(point.day), visitors: point.visitors, page_views: point.page_views }));
  return (
    <figure className="chart" aria-label="Visitors and page views per day">
      <ResponsiveContainer width="100%" height={TRAFFIC_CHART_HEIGHT}>
        <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
          <Tooltip />
          <Legend />
          <Line type="linear" dataKey="visitors" name="visitors" stroke="#2563eb" dot={false} isAnimationActive={false} />
          <Line type="linear" dataKey="page_views" name="page views" stroke="#db2777" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
