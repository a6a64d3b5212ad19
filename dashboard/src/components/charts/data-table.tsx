/**
 * The numbers behind a chart as a table screen readers can walk (visually
 * hidden): a row per day, a column per series, and the period's totals.
 */
import { shortDay } from '../../format';
import type { ChartComparison, ChartDay, ChartSeries } from './types';

export function ChartTable({ label, days, series, comparison }: { label: string; days: ChartDay[]; series: ChartSeries[]; comparison?: ChartComparison }) {
  const total = (key: string) => days.reduce((sum, day) => sum + (day.values[key] ?? 0), 0);
  return (
    <table className="visually-hidden">
      <caption>{label}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {series.map((one) => <th key={one.key} scope="col">{one.name}</th>)}
          {comparison && <th scope="col">{comparison.name}</th>}
        </tr>
      </thead>
      <tbody>
        {days.map((day, index) => (
          <tr key={day.day}>
            <th scope="row">{shortDay(day.day)}</th>
            {series.map((one) => <td key={one.key}>{day.values[one.key] ?? 0}</td>)}
            {comparison && <td>{comparison.values[index] ?? 0}</td>}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          {series.map((one) => <td key={one.key}>{total(one.key)}</td>)}
          {comparison && <td>{comparison.values.reduce((sum, value) => sum + value, 0)}</td>}
        </tr>
      </tfoot>
    </table>
  );
}
