/**
 * Export CSV (CONTRACT C9.7): a link to the dashboard's export of the list
 * with the filters on screen (every matching row, not the page), which the
 * browser downloads with the session's cookie.
 */
export function ExportCsv({ resource, filters }: { resource: 'leads' | 'identities' | 'companies'; filters: Record<string, unknown> }) {
  const query = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== null && value !== '' && name !== 'offset' && name !== 'limit') query.set(name, String(value));
  }
  return (
    <a className="button" href={`/dashboard/api/${resource}/export?${query.toString()}`} download={`${resource}.csv`}>
      Export CSV
    </a>
  );
}
