/** Paging of a list with its exact total: "21–40 of 150", Previous and Next. */
export function Pager({
  offset,
  limit,
  total,
  onChange,
  label = 'Pages',
}: {
  offset: number;
  limit: number;
  total: number;
  onChange: (offset: number) => void;
  label?: string;
}) {
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label={label}>
      <span aria-live="polite">
        {first}–{last} of {total.toLocaleString('en')}
      </span>
      <button type="button" onClick={() => onChange(Math.max(0, offset - limit))} disabled={offset === 0}>
        Previous
      </button>
      <button type="button" onClick={() => onChange(offset + limit)} disabled={offset + limit >= total}>
        Next
      </button>
    </nav>
  );
}
