/**
 * A company as a sales account (C9.4): its details, its account score with
 * reasons and what it means, its visitors, sessions and page views of the
 * last 30 days, visits per day (a chart in a box of reserved height, so the
 * page does not move as it loads), top pages, and the lists of
 * company-lists.tsx: people, anonymous visitors, leads and activity.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api } from '../api';
import { AccountScore } from '../components/account-score';
import { Empty, Loading, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { Company, CompanyEngagement } from '../types';
import { AnonymousVisitors, CompanyActivity, CompanyLeads, People } from './company-lists';

const CompanyVisitsChart = lazy(() => import('../components/company-visits-chart'));

/** the window the page reads, in days (the engagement's default) */
const DAYS = 30;
const DAY_MS = 86_400_000;
/** the chart's height, reserved before its script arrives */
const CHART_HEIGHT = 200;

/** Every day of the window, oldest first, with the days that had visits filled in. */
function everyDay(days: CompanyEngagement['days'], now: number = Date.now()): CompanyEngagement['days'] {
  const byDay = new Map(days.map((day) => [day.day, day]));
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`);
  return Array.from({ length: DAYS }, (_, index) => {
    const day = new Date(today - (DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, sessions: 0, page_views: 0 };
  });
}

function Engagement({ engagement }: { engagement: CompanyEngagement }) {
  const figures: [string, number][] = [
    ['Visitors', engagement.visitors],
    ['People identified', engagement.identities],
    ['Visits', engagement.sessions],
    ['Page views', engagement.page_views],
  ];
  return (
    <div className="tiles">
      {figures.map(([label, value]) => (
        <section className="tile" aria-label={label} key={label}>
          <span className="tile-label">{label}</span>
          <span className="tile-value">{value.toLocaleString('en')}</span>
          <span className="muted">in the last {DAYS} days</span>
        </section>
      ))}
    </div>
  );
}

function VisitsPerDay({ engagement }: { engagement: CompanyEngagement }) {
  return (
    <section className="card" aria-labelledby="visits-title">
      <h2 id="visits-title">Visits per day</h2>
      <div className="chart-box" style={{ height: CHART_HEIGHT }}>
        {engagement.sessions === 0 ? (
          <Empty>No visits in the last {DAYS} days.</Empty>
        ) : (
          <Suspense fallback={<Loading label="Drawing the chart…" />}>
            <CompanyVisitsChart days={everyDay(engagement.days)} height={CHART_HEIGHT} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

function TopPages({ pages }: { pages: CompanyEngagement['top_pages'] }) {
  return (
    <section className="card" aria-labelledby="top-pages-title">
      <h2 id="top-pages-title">Top pages</h2>
      {pages.length === 0 ? (
        <Empty>No page views in the last {DAYS} days.</Empty>
      ) : (
        <ol className="compact" aria-label="Most viewed pages">
          {pages.map((page) => (
            <li key={page.path}>
              <span className="mono">{page.path}</span> <span className="muted">
                {page.views.toLocaleString('en')} view{page.views === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Details({ company, lastSeen }: { company: Company; lastSeen: string | null }) {
  return (
    <section className="card" aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <dl className="fields">
        <dt>Domain</dt>
        <dd>
          {company.domain === null || company.domain === '' ? (
            '—'
          ) : (
            <a href={`https://${company.domain}`} rel="noreferrer noopener" target="_blank">
              {company.domain}
            </a>
          )}
        </dd>
        <dt>Industry</dt>
        <dd>{text(company.main_industry)}</dd>
        <dt>Employees</dt>
        <dd>{text(company.employees)}</dd>
        <dt>Description</dt>
        <dd>{text(company.description)}</dd>
        <dt>Last visit</dt>
        <dd>
          <Time value={lastSeen} exact />
        </dd>
        <dt>Added</dt>
        <dd>
          <Time value={company.created_at} exact />
        </dd>
      </dl>
    </section>
  );
}

export function CompanyPage() {
  const { companyId } = useParams({ from: '/app/companies/$companyId' });
  const company = useQuery({ queryKey: ['company', companyId], queryFn: () => api<{ data: Company }>(`/companies/${companyId}`).then((body) => body.data) });
  const engagement = useQuery({
    queryKey: ['company', companyId, 'engagement'],
    queryFn: () => api<{ data: CompanyEngagement }>(`/companies/${companyId}/engagement?days=${DAYS}`).then((body) => body.data),
  });
  return (
    <QueryView query={company}>
      {(data) => (
        <>
          <nav aria-label="Breadcrumb" className="crumbs">
            <Link to="/companies">Companies</Link> / <span aria-current="page">{data.name}</span>
          </nav>
          <div className="page-head">
            <h1>{data.name}</h1>
          </div>
          <QueryView query={engagement} loading="Reading the account…">
            {(account) => (
              <>
                <div className="grid-2">
                  <Details company={data} lastSeen={account.last_seen} />
                  <AccountScore score={account.score} reasons={account.score_reasons} />
                </div>
                <Engagement engagement={account} />
                <VisitsPerDay engagement={account} />
                <div className="grid-2">
                  <People companyId={companyId} />
                  <AnonymousVisitors anonymous={account.anonymous} days={DAYS} />
                </div>
                <div className="grid-2">
                  <TopPages pages={account.top_pages} />
                  <CompanyLeads companyId={companyId} />
                </div>
                <CompanyActivity companyId={companyId} />
              </>
            )}
          </QueryView>
        </>
      )}
    </QueryView>
  );
}
