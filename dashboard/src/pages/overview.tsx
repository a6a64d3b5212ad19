/**
 * Overview (C9.5): for a period (a preset or a custom From–To, UTC days)
 * and a site, the figures with their change against the previous period
 * of equal length, visitors and page views per day, the breakdowns, and
 * leads per day by source (last: the one block whose height depends on its
 * data, so that its settling moves nothing below it); all from counters the server keeps as events
 * arrive. Every block has its size before its data arrives (reserved
 * heights; the charts are loaded lazily into fixed frames), so nothing
 * shifts as it loads; the previous answer stays while the next loads. A
 * workspace without events opens with its first run (components/first-run.tsx).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { TrafficOverview } from '../types';
import { api } from '../api';
import { Breakdowns } from '../components/breakdowns';
import { FirstRun } from '../components/first-run';
import { useLiveStream } from '../components/live-stream';
import { OverviewControls } from '../components/overview-controls';
import { OverviewFigures } from '../components/overview-figures';
import { Empty, ErrorState, Loading } from '../components/states';
import { shortDay } from '../format';
import { periodOf } from '../overview-range';
import { useLiveSnapshot } from './live';

// the charts' chunks start loading with this page, alongside the overview's data, not after it
const trafficChartChunk = import('../components/traffic-chart');
const leadsChartChunk = import('../components/leads-chart');
const TrafficChart = lazy(() => trafficChartChunk);
const LeadsChart = lazy(() => leadsChartChunk);

export function OverviewPage() {
  const search = useSearch({ from: '/app/' });
  const period = periodOf(search);
  const range = `from=${period.from}&to=${period.to}`;
  // one request: the figures, the days (with leads by source) and the breakdowns
  const siteQuery = search.site === undefined ? '' : `&site=${encodeURIComponent(search.site)}`;
  useLiveStream();
  const live = useLiveSnapshot();
  const traffic = useQuery({
    queryKey: ['overview', 'traffic', period.from, period.to, search.site ?? ''],
    queryFn: () => api<{ data: TrafficOverview }>(`/overview/traffic?${range}${siteQuery}`).then((body) => body.data),
    placeholderData: keepPreviousData,
  });
  const data = traffic.data;
  const noLeads = data !== undefined && data.figures.leads.value === 0 && data.figures.identities.value === 0;
  const title = `${shortDay(period.from)} to ${shortDay(period.to)}`;
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
      </div>
      <OverviewControls key={`${period.range} ${period.from} ${period.to}`} search={search} period={period} sites={data?.sites ?? []} />
      <FirstRun />
      {traffic.isError && <ErrorState error={traffic.error} retry={() => void traffic.refetch()} />}
      <p className="hint period-line" aria-live="polite">
        {title}
        {search.site === undefined ? ', every site' : `, ${search.site}`}
        {data !== undefined && `; compared with ${shortDay(data.previous.from)} to ${shortDay(data.previous.to)}`}
      </p>
      <div className="tiles">
        <section className="tile" aria-label="Active visitors">
          <span className="tile-label">Active visitors</span>
          <span className="tile-value">{live.data === undefined ? '…' : live.data.active_visitors.toLocaleString('en')}</span>
          <span className="muted">in the last 5 minutes</span>
          <Link to="/live">See them live</Link>
        </section>
        <section className="tile" aria-label="Top sources">
          <span className="tile-label">Top sources</span>
          {data === undefined ? (
            <span className="muted">…</span>
          ) : data.lead_sources.length === 0 ? (
            <span className="muted">No leads in this period.</span>
          ) : (
            <ol className="compact">
              {data.lead_sources.slice(0, 3).map((source) => (
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
      </div>
      <OverviewFigures figures={data?.figures} previous={data === undefined ? undefined : `${data.previous.from} to ${data.previous.to}`} />
      <section className="card" aria-labelledby="traffic-chart-title">
        <h2 id="traffic-chart-title">Visitors and page views per day, {title}</h2>
        <div className="chart-frame">
          {data !== undefined && (
            <Suspense fallback={<Loading label="Drawing the chart…" />}>
              <TrafficChart days={data.days} />
            </Suspense>
          )}
        </div>
      </section>
      <Breakdowns breakdowns={data?.breakdowns} />
      <section className="card" aria-labelledby="leads-chart-title">
        <h2 id="leads-chart-title">Leads per day by source, {title}</h2>
        {/* the frame keeps the chart's height while the data and the chart's code load (no layout shift) */}
        <div className={data !== undefined && noLeads ? undefined : 'chart-frame leads-frame'}>
          {data !== undefined &&
            (noLeads ? (
              <Empty>No leads or identities in this period yet.</Empty>
            ) : (
              <Suspense fallback={<Loading label="Drawing the chart…" />}>
                <LeadsChart overview={{ days: data.days, sources: data.lead_sources }} />
              </Suspense>
            ))}
        </div>
      </section>
    </>
  );
}
