/**
 * The overview's figures (C9.5), each with its change against the previous
 * period of equal length: counts and the average session length as a
 * percentage, the bounce rate in percentage points. Tiles keep their size
 * while their numbers load (no layout shift).
 */
import type { Figure, TrafficFigures } from '../types';

type Kind = 'count' | 'rate' | 'seconds';

const FIGURES: { key: keyof TrafficFigures; label: string; kind: Kind }[] = [
  { key: 'visitors', label: 'Visitors', kind: 'count' },
  { key: 'sessions', label: 'Sessions', kind: 'count' },
  { key: 'page_views', label: 'Page views', kind: 'count' },
  { key: 'bounce_rate', label: 'Bounce rate', kind: 'rate' },
  { key: 'average_session_seconds', label: 'Average session length', kind: 'seconds' },
  { key: 'leads', label: 'Leads', kind: 'count' },
  { key: 'identities', label: 'People identified', kind: 'count' },
];

export function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes === 0 ? `${whole}s` : `${minutes}m ${String(whole % 60).padStart(2, '0')}s`;
}

function formatValue(value: number | null, kind: Kind): string {
  if (value === null) return '–';
  if (kind === 'rate') return `${Math.round(value * 100)} %`;
  if (kind === 'seconds') return formatSeconds(value);
  return value.toLocaleString('en');
}

const signed = (value: number, unit: string) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toLocaleString('en')}${unit}`;

/** The change against the previous period, in words. */
export function changeText(figure: Figure, kind: Kind): string {
  const { value, previous } = figure;
  if (value === null || previous === null) return 'no previous figure';
  if (kind === 'rate') return `${signed(Math.round((value - previous) * 1000) / 10, ' pp')} vs previous period`;
  if (previous === 0) return value === 0 ? 'no change vs previous period' : 'new vs previous period';
  return `${signed(Math.round(((value - previous) / previous) * 100), ' %')} vs previous period`;
}

export function OverviewFigures({ figures, previous }: { figures: TrafficFigures | undefined; previous: string | undefined }) {
  return (
    <div className="tiles figures">
      {FIGURES.map(({ key, label, kind }) => {
        const figure = figures?.[key];
        return (
          <section key={key} className="tile figure" aria-label={label}>
            <span className="tile-label">{label}</span>
            <span className="tile-value">{figure === undefined ? '…' : formatValue(figure.value, kind)}</span>
            <span className="muted change" title={previous}>
              {figure === undefined ? ' ' : changeText(figure, kind)}
            </span>
          </section>
        );
      })}
    </div>
  );
}
