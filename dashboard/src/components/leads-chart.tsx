/**
 * The overview's charts (our SVG bars, loaded with the overview only): leads
 * per day stacked by source, and new identities per day. Each chart holds a
 * visually hidden table of its numbers for screen readers. Both sit in a box
 * of fixed height (.charts-space), the same the overview reserves while this
 * chunk loads, so nothing below them moves when they appear (C9.9).
 */
import { BarChart } from './charts/bar-chart';
import { PALETTE } from './charts/types';
import type { TrafficOverview } from '../types';

/** what the chart draws: days with their leads by source and new identities, and the sources in order */
type LeadDays = { days: Pick<TrafficOverview['days'][number], 'day' | 'by_source' | 'identities'>[]; sources: string[] };

export default function LeadsChart({ overview }: { overview: LeadDays }) {
  const sources = overview.sources.map((source, index) => ({ key: source, name: source, color: PALETTE[index % PALETTE.length] as string }));
  const leads = overview.days.map((day) => ({ day: day.day, values: day.by_source }));
  const identities = overview.days.map((day) => ({ day: day.day, values: { identities: day.identities } }));
  return (
    <div className="charts-space">
      <BarChart
        label="Leads per day by source"
        days={leads}
        series={sources}
        stacked
        legend
        height={280}
        caption={sources.length > PALETTE.length ? `Colours repeat after ${PALETTE.length} sources.` : undefined}
      />
      <h2>New identities per day</h2>
      <BarChart label="New identities per day" days={identities} series={[{ key: 'identities', name: 'new identities', color: '#0f766e' }]} height={180} />
    </div>
  );
}
