/**
 * The overview's breakdowns (C9.5): pages (each a link to its address) by
 * views, and referrers, UTM campaigns, countries, devices and browsers by
 * visits (sessions) with their bounce rate. Each card has a fixed minimum
 * height, so nothing below moves as rows arrive.
 */
import { Link } from '@tanstack/react-router';
import type { BreakdownRow, TrafficBreakdowns } from '../types';

const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : undefined;
const countryName = (code: string) => {
  try {
    return regions?.of(code) ?? code;
  } catch {
    return code;
  }
};
const DEVICES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', tv: 'TV' };

const SESSION_BREAKDOWNS: { key: Exclude<keyof TrafficBreakdowns, 'pages'>; title: string; column: string; none: string; label?: (value: string) => string }[] = [
  { key: 'referrers', title: 'Referrers', column: 'Referrer', none: 'Direct / none' },
  { key: 'campaigns', title: 'UTM campaigns', column: 'Campaign', none: '(none)' },
  { key: 'countries', title: 'Countries', column: 'Country', none: 'Unknown', label: countryName },
  { key: 'devices', title: 'Devices', column: 'Device', none: 'Unknown', label: (value) => DEVICES[value] ?? value },
  { key: 'browsers', title: 'Browsers', column: 'Browser', none: 'Unknown' },
];

const percent = (rate: number) => `${Math.round(rate * 100)} %`;

export function Breakdowns({ breakdowns }: { breakdowns: TrafficBreakdowns | undefined }) {
  return (
    <div className="breakdowns">
      <PagesCard pages={breakdowns?.pages} />
      {SESSION_BREAKDOWNS.map((entry) => (
        <SessionCard key={entry.key} name={entry.key} title={entry.title} column={entry.column} none={entry.none} label={entry.label} rows={breakdowns?.[entry.key]} />
      ))}
    </div>
  );
}

function PagesCard({ pages }: { pages: TrafficBreakdowns['pages'] | undefined }) {
  const hosts = new Set((pages ?? []).map((page) => page.host));
  const most = pages?.[0]?.views ?? 0;
  return (
    <section className="card breakdown" aria-labelledby="breakdown-pages">
      <h2 id="breakdown-pages">Pages</h2>
      {pages === undefined ? (
        <p className="muted">Loading…</p>
      ) : pages.length === 0 ? (
        <p className="muted">
          No page views in this period. Install the tracker on your site with a site key from <Link to="/settings">Settings</Link>.
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">The most viewed pages of the period</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col" className="numeric">
                  Views
                </th>
              </tr>
            </thead>
            <tbody>
              {pages.map((page) => (
                <tr key={page.url}>
                  <td>
                    <div className="page-cell">
                      <span className="page-bar" style={{ width: `${most === 0 ? 0 : Math.max(2, (page.views / most) * 100)}%` }} aria-hidden="true" />
                      <a className="page-name" href={page.url} target="_blank" rel="noreferrer">
                        {hosts.size > 1 && <span className="muted">{page.host}</span>}
                        <span className="mono">{page.path}</span>
                      </a>
                    </div>
                  </td>
                  <td className="numeric">{page.views.toLocaleString('en')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SessionCard({
  name,
  title,
  column,
  none,
  label,
  rows,
}: {
  name: string;
  title: string;
  column: string;
  none: string;
  label?: (value: string) => string;
  rows: BreakdownRow[] | undefined;
}) {
  const most = rows?.[0]?.sessions ?? 0;
  const id = `breakdown-${name}`;
  return (
    <section className="card breakdown" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows === undefined ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No visits in this period.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}: visits and bounce rate</caption>
            <thead>
              <tr>
                <th scope="col">{column}</th>
                <th scope="col" className="numeric">
                  Visits
                </th>
                <th scope="col" className="numeric">
                  Bounce
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.value}>
                  <td>
                    <div className="page-cell">
                      <span className="page-bar" style={{ width: `${most === 0 ? 0 : Math.max(2, (row.sessions / most) * 100)}%` }} aria-hidden="true" />
                      <span className="page-name">{row.value === '' ? <span className="muted">{none}</span> : (label?.(row.value) ?? row.value)}</span>
                    </div>
                  </td>
                  <td className="numeric">{row.sessions.toLocaleString('en')}</td>
                  <td className="numeric">{percent(row.bounce_rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
