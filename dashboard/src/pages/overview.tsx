/**
 * Overview: leads per day for the last 30 or 90 days by source (from the
 * per-day counters), new identities per day, the totals of the period, and
 * the most viewed pages (from the per-day page counters the tracker's events
 * keep), with a pointer to the site keys while there are none; a workspace
 * without events opens with its first run (components/first-run.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api } from '../api';
import { FirstRun } from '../components/first-run';
import { Empty, Loading, QueryView } from '../components/states';
import { shortDay } from '../format';
import type { Overview, TopPage } from '../types';
import { useLiveStream } from '../components/live-stream';
import { useLiveSnapshot } from './live';

// the chart's chunk (Recharts) starts loading with this page, alongside the overview's data, not after it
const chartChunk = import('../components/leads-chart');
const LeadsChart = lazy(() => chartChunk);

export function OverviewPage() {
  const { days = 30 } = useSearch({ from: '/app/' });
  const navigate = useNavigate();
  useLiveStream();
  const live = useLiveSnapshot();
  const overview = useQuery({
    queryKey: ['overview', days],
    queryFn: () => api<{ data: Overview }>(`/overview?days=${days}`).then((body) => body.data),
  });
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <fieldset className="segmented">
          <legend className="visually-hidden">Period</legend>
          {([30, 90] as const).map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="period"
                value={option}
                checked={days === option}
                onChange={() => void navigate({ to: '/', search: { days: option === 90 ? 90 : undefined } })}
              />
              Last {option} days
            </label>
          ))}
        </fieldset>
      </div>
      <FirstRun />
      <QueryView query={overview}>
        {(data) => (
          <>
            <div className="tiles">
              <section className="tile" aria-label="Active visitors">
                <span className="tile-label">Active visitors</span>
                <span className="tile-value">{live.data === undefined ? '…' : live.data.active_visitors.toLocaleString('en')}</span>
                <span className="muted">in the last 5 minutes</span>
                <Link to="/live">See them live</Link>
              </section>
              <section className="tile" aria-label="Leads in the period">
                <span className="tile-label">Leads</span>
                <span className="tile-value">{data.totals.leads.toLocaleString('en')}</span>
                <Link to="/leads">See the leads</Link>
              </section>
              <section className="tile" aria-label="New identities in the period">
                <span className="tile-label">New identities</span>
                <span className="tile-value">{data.totals.identities.toLocaleString('en')}</span>
                <Link to="/identities">See the identities</Link>
              </section>
              <section className="tile" aria-label="Top sources">
                <span className="tile-label">Top sources</span>
                {data.sources.length === 0 ? (
                  <span className="muted">No leads in this period.</span>
                ) : (
                  <ol className="compact">
                    {data.sources.slice(0, 3).map((source) => (
                      <li key={source}>
                        <Link to="/leads" search={{ source }}>
                          {source}
                        </Link>{' '}
                        <span className="muted">{data.days.reduce((sum, day) => sum + (day.by_source[source] ?? 0), 0)}</span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              <section className="tile" aria-label="Most viewed page">
                <span className="tile-label">Most viewed page</span>
                {data.top_pages[0] === undefined ? (
                  <span className="muted">No page views in this period.</span>
                ) : (
                  <>
                    <span className="tile-page mono">{data.top_pages[0].path}</span>
                    <span className="muted">{data.top_pages[0].views.toLocaleString('en')} views</span>
                  </>
                )}
              </section>
            </div>
            <section className="card">
              <h2>
                Leads per day by source, {shortDay(data.days[0]?.day ?? '')} to {shortDay(data.days.at(-1)?.day ?? '')}
              </h2>
              {data.totals.leads === 0 && data.totals.identities === 0 ? (
                <Empty>No leads or identities in this period yet.</Empty>
              ) : (
                <Suspense fallback={<div className="charts-space"><Loading label="Drawing the chart…" /></div>}>
                  <LeadsChart overview={data} />
                </Suspense>
              )}
            </section>
            <TopPages pages={data.top_pages} days={days} />
          </>
        )}
      </QueryView>
    </>
  );
}

function TopPages({ pages, days }: { pages: TopPage[]; days: number }) {
  const hosts = new Set(pages.map((page) => page.host));
  const [onlyHost] = hosts;
  const most = pages[0]?.views ?? 0;
  return (
    <section className="card" aria-labelledby="top-pages-title">
      <h2 id="top-pages-title">Top pages</h2>
      {pages.length === 0 ? (
        <Empty>
          No page views in the last {days} days. Install the tracker on your site with a site key from <Link to="/settings">Settings</Link> to see your most
          viewed pages here.
        </Empty>
      ) : (
        <>
          {hosts.size === 1 && onlyHost !== '' && (
            <p className="hint">
              Page views on <span className="mono">{onlyHost}</span> in the last {days} days.
            </p>
          )}
          <div className="table-wrap">
            <table className="top-pages">
              <caption className="visually-hidden">The most viewed pages in the last {days} days</caption>
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
                  <tr key={`${page.host} ${page.path}`}>
                    <td>
                      <div className="page-cell">
                        <span className="page-bar" style={{ width: `${most === 0 ? 0 : Math.max(2, (page.views / most) * 100)}%` }} aria-hidden="true" />
                        <span className="page-name">
                          {hosts.size > 1 && <span className="muted">{page.host}</span>}
                          <span className="mono">{page.path}</span>
                        </span>
                      </div>
                    </td>
                    <td className="numeric">{page.views.toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
