/**
 * Overview: leads per day for the last 30 or 90 days by source (from the
 * per-day counters), new identities per day, and the totals of the period.
 * Top pages need visitor tracking: the tile says so until it exists.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api } from '../api';
import { Empty, Loading, QueryView } from '../components/states';
import { shortDay } from '../format';
import type { Overview } from '../types';

const LeadsChart = lazy(() => import('../components/leads-chart'));

export function OverviewPage() {
  const { days = 30 } = useSearch({ from: '/app/' });
  const navigate = useNavigate();
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
      <QueryView query={overview}>
        {(data) => (
          <>
            <div className="tiles">
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
              <section className="tile" aria-label="Top pages">
                <span className="tile-label">Top pages</span>
                <span className="muted">Top pages appear once visitor tracking is installed on your site.</span>
              </section>
            </div>
            <section className="card">
              <h2>
                Leads per day by source, {shortDay(data.days[0]?.day ?? '')} to {shortDay(data.days.at(-1)?.day ?? '')}
              </h2>
              {data.totals.leads === 0 && data.totals.identities === 0 ? (
                <Empty>No leads or identities in this period yet.</Empty>
              ) : (
                <Suspense fallback={<Loading label="Drawing the chart…" />}>
                  <LeadsChart overview={data} />
                </Suspense>
              )}
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}
