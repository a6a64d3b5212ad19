/**
 * A company's visits per day (C9.4), drawn with Recharts like the
 * overview's charts and loaded after the company page. It is drawn at the
 * height the page reserves for it while the script loads, so nothing below
 * it moves when it appears.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { shortDay } from '../format';

export default function CompanyVisitsChart({ days, height }: { days: { day: string; sessions: number; page_views: number }[]; height: number }) {
  const rows = days.map((day) => ({ day: shortDay(day.day), visits: day.sessions, views: day.page_views }));
  return (
    <figure className="chart" aria-label="Visits per day">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
          <Tooltip />
          <Bar dataKey="visits" name="visits" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
