/**
 * Bars per day as plain SVG (C9.9: no chart library, so no long task and no
 * large chunk on the overview): stacked or side by side by series, with an
 * optional comparison line. The figure is exactly `height` pixels tall (the
 * pages reserve that space while the chunk loads, so nothing moves) and as
 * wide as its box: the bars are drawn in a viewBox stretched to the width,
 * the axis labels and legend are HTML around it so text never stretches.
 * Each bar has a <title> ("3 Nov: 2 email"); hovering, or focusing the plot
 * and using the arrow keys, shows a day's values; a visually hidden table
 * holds every number and the totals for screen readers.
 */
import { useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { shortDay } from '../../format';
import { ChartTable } from './data-table';
import { labelledDays, valueScale } from './scale';
import type { ChartComparison, ChartDay, ChartSeries } from './types';

/** a day's slot in viewBox units; bars fill 70% of it */
const SLOT = 10;
const PLOT = 100;

export interface BarChartProps {
  label: string;
  days: ChartDay[];
  series: ChartSeries[];
  height: number;
  stacked?: boolean;
  comparison?: ChartComparison;
  legend?: boolean;
  caption?: ReactNode;
}

function sum(day: ChartDay, series: ChartSeries[]): number {
  return series.reduce((total, one) => total + (day.values[one.key] ?? 0), 0);
}

export function BarChart({ label, days, series, height, stacked = false, comparison, legend = series.length > 1 || comparison !== undefined, caption }: BarChartProps) {
  const [active, setActive] = useState<number | null>(null);
  const peak = Math.max(0, ...days.map((day) => (stacked ? sum(day, series) : Math.max(0, ...series.map((one) => day.values[one.key] ?? 0)))), ...(comparison?.values ?? []));
  const scale = valueScale(peak);
  const y = (value: number) => PLOT - (value / scale.top) * PLOT;
  const labelled = labelledDays(days.length);
  const width = Math.max(1, days.length) * SLOT;
  const bars = days.flatMap((day, index) => {
    let base = 0;
    return series.flatMap((one, position) => {
      const value = day.values[one.key] ?? 0;
      if (value <= 0) return [];
      const barWidth = stacked ? SLOT * 0.7 : (SLOT * 0.7) / series.length;
      const x = index * SLOT + SLOT * 0.15 + (stacked ? 0 : position * barWidth);
      const bottom = stacked ? base : 0;
      base += value;
      return [
        <rect key={`${day.day}-${one.key}`} className="chart-bar" x={x} width={barWidth} y={y(bottom + value)} height={y(bottom) - y(bottom + value)} fill={one.color}>
          <title>{`${shortDay(day.day)}: ${value} ${one.name}`}</title>
        </rect>,
      ];
    });
  });
  const pick = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const index = Math.floor(((event.clientX - box.left) / box.width) * days.length);
    setActive(Math.min(days.length - 1, Math.max(0, index)));
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -days.length, End: days.length };
    const move = moves[event.key];
    if (move === undefined || days.length === 0) return;
    event.preventDefault();
    setActive((current) => Math.min(days.length - 1, Math.max(0, (current ?? days.length - 1) + move)));
  };
  const shown = active === null ? undefined : days[active];
  return (
    <figure className="chart svg-chart" aria-label={label} style={{ height }}>
      {legend && (
        <ul className="chart-legend">
          {series.map((one) => (
            <li key={one.key}><span className="chart-swatch" style={{ background: one.color }} />{one.name}</li>
          ))}
          {comparison && <li><span className="chart-swatch chart-swatch-line" style={{ background: comparison.color }} />{comparison.name}</li>}
        </ul>
      )}
      <div className="chart-body">
        <div className="chart-y" aria-hidden="true">
          {scale.ticks.map((tick) => <span key={tick} style={{ bottom: `${(tick / scale.top) * 100}%` }}>{tick.toLocaleString('en')}</span>)}
        </div>
        <div
          className="chart-plot"
          tabIndex={0}
          role="group"
          aria-label={`${label}: use the arrow keys to read each day`}
          onKeyDown={step}
          onFocus={() => setActive((current) => current ?? days.length - 1)}
          onBlur={() => setActive(null)}
        >
          <svg viewBox={`0 0 ${width} ${PLOT}`} preserveAspectRatio="none" width="100%" height="100%" aria-hidden="true" onMouseMove={pick} onMouseLeave={() => setActive(null)}>
            {scale.ticks.map((tick) => <line key={tick} className="chart-grid" x1={0} x2={width} y1={y(tick)} y2={y(tick)} vectorEffect="non-scaling-stroke" />)}
            {active !== null && <rect className="chart-hover" x={active * SLOT} width={SLOT} y={0} height={PLOT} />}
            {bars}
            {comparison && (
              <polyline
                className="chart-line"
                fill="none"
                stroke={comparison.color}
                vectorEffect="non-scaling-stroke"
                points={comparison.values.map((value, index) => `${index * SLOT + SLOT / 2},${y(value)}`).join(' ')}
              />
            )}
          </svg>
          {shown && active !== null && (
            <div className={`chart-tip${active > days.length / 2 ? ' chart-tip-left' : ''}`} style={{ left: `${((active + 0.5) / days.length) * 100}%` }} aria-live="polite">
              <strong>{shortDay(shown.day)}</strong>
              {series.map((one) => <span key={one.key}>{one.name}: {shown.values[one.key] ?? 0}</span>)}
              {comparison && <span>{comparison.name}: {comparison.values[active] ?? 0}</span>}
            </div>
          )}
        </div>
      </div>
      <div className="chart-x" aria-hidden="true">
        {days.map((day, index) => labelled.has(index) && <span key={day.day} style={{ left: `${((index + 0.5) / days.length) * 100}%` }}>{shortDay(day.day)}</span>)}
      </div>
      {caption && <figcaption className="hint">{caption}</figcaption>}
      <ChartTable label={label} days={days} series={series} comparison={comparison} />
    </figure>
  );
}
