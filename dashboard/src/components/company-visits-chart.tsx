/**
 * A company's visits per day (C9.4), drawn with our SVG bars like the
 * overview's charts and loaded after the company page. It is drawn at the
 * height the page reserves for it while the script loads, so nothing below
 * it moves when it appears.
 */
import { BarChart } from './charts/bar-chart';

export default function CompanyVisitsChart({ days, height }: { days: { day: string; sessions: number; page_views: number }[]; height: number }) {
  const rows = days.map((day) => ({ day: day.day, values: { visits: day.sessions } }));
  return <BarChart label="Visits per day" days={rows} series={[{ key: 'visits', name: 'visits', color: '#2563eb' }]} height={height} />;
}
