/**
 * The value axis of our SVG charts: a top that is a round number at or above
 * the largest value, and a few whole-number ticks up to it (counts only, so
 * no fractions).
 */
export interface Scale {
  top: number;
  ticks: number[];
}

export function valueScale(max: number, wanted = 4): Scale {
  if (max <= 0) return { top: 1, ticks: [0, 1] };
  const rough = Math.max(1, max / wanted);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const top = Math.ceil(max / step) * step;
  return { top, ticks: Array.from({ length: top / step + 1 }, (_, index) => index * step) };
}

/** which day labels fit under the bars: about `count` of them, always the last day */
export function labelledDays(days: number, count = 6): Set<number> {
  const step = Math.max(1, Math.ceil(days / count));
  const shown = new Set<number>();
  for (let index = days - 1; index >= 0; index -= step) shown.add(index);
  return shown;
}
