/**
 * The data our SVG charts draw: one entry per day with a value per series,
 * the series' names and colours, and an optional comparison line (a previous
 * period, say) drawn over the bars.
 */
export interface ChartSeries {
  key: string;
  name: string;
  color: string;
}

export interface ChartDay {
  /** YYYY-MM-DD */
  day: string;
  values: Record<string, number>;
}

export interface ChartComparison {
  name: string;
  color: string;
  /** one value per day, in the days' order */
  values: number[];
}

/** bar colours with at least 3:1 contrast against the white card */
export const PALETTE = ['#2563eb', '#db2777', '#15803d', '#c2410c', '#7c3aed', '#0e7490', '#a16207', '#475569'];
