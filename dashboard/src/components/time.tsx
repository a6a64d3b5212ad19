/** A moment, relative ("2 hours ago"), with the exact UTC time as its tooltip and machine-readable value. */
import { exactTime, relativeTime } from '../format';

export function Time({ value, exact = false }: { value: string | null; exact?: boolean }) {
  if (value === null) return <span className="muted">never</span>;
  return (
    <time dateTime={value} title={exactTime(value)}>
      {relativeTime(value)}
      {exact && <span className="exact"> ({exactTime(value)})</span>}
    </time>
  );
}
