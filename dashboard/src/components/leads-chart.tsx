/**
 * The overview's charts (Recharts, loaded with the overview only): leads per
 * day stacked by source, and new identities per day. A table with the same
 * numbers follows each chart for screen readers and for reading exact values.
 * Both charts sit in a box of fixed height (.charts-space), the same the
 * overview reserves while this chunk loads, so nothing below them moves when
 * they appear (C9.9).
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { shortDay } from '../format';
import type { Overview } from '../types';

/** what the chart draws: days with their leads by source and new identities, and the sources in order */
type LeadDays = { days: Pick<Overview['days'][number], 'day' | 'by_source' | 'identities'>[]; sources: string[] };

const PALETTE = ['#2563eb', '#db2777', '#16a34a', '#ea580c', '#7c3aed', '#0891b2', '#ca8a04', '#64748b'];

export default function LeadsChart({ overview }: { overview: LeadDays }) {
  const rows = overview.days.map((day) => ({ day: shortDay(day.day), ...day.by_source, identities: day.identities }));
  const other = overview.sources.length > PALETTE.length;
  return (
    <div className="charts-space">
      <figure className="chart" aria-label="Leads per day by source">
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            {overview.sources.map((source, index) => (
              <Bar key={source} dataKey={source} stackId="leads" fill={PALETTE[index % PALETTE.length]} name={source} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
        {other && <figcaption className="hint">Colours repeat after {PALETTE.length} sources.</figcaption>}
      </figure>
      <h2>New identities per day</h2>
      <figure className="chart" aria-label="New identities per day">
        <ResponsiveContainer width="100%" height={180}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="identities" name="new identities" fill="#0f766e" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
