/**
 * The lists of a company's page (C9.4): its people (identities linked to
 * it), its anonymous visitors (how many in the window, the latest seen),
 * its leads (with person, score and status) and its activity (C6.9),
 * each paged; every person and lead links to its page.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { Activity, CompanyEngagement, Identity, Lead, LeadLabels } from '../types';

const LIMIT = 10;
const ACTIVITY_LIMIT = 20;

/** paging below a list, when it has more than one page */
function MorePages({ page, label, onChange }: { page: Page<unknown>; label: string; onChange: (offset: number) => void }) {
  if (page.pagination.total <= page.pagination.limit) return null;
  return <Pager label={label} offset={page.pagination.offset} limit={page.pagination.limit} total={page.pagination.total} onChange={onChange} />;
}

export function People({ companyId }: { companyId: string }) {
  const [offset, setOffset] = useState(0);
  const people = useQuery({
    queryKey: ['company', companyId, 'people', offset],
    queryFn: () => api<Page<Identity>>(`/companies/${companyId}/identities?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="card" aria-labelledby="people-title">
      <h2 id="people-title">People</h2>
      <QueryView query={people}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No one identified at this company yet.</Empty>
          ) : (
            <>
              <p className="muted">{page.pagination.total.toLocaleString('en')} identified</p>
              <ul className="compact people" aria-label="People">
                {page.data.map((person) => (
                  <li key={person.id}>
                    <Link to="/identities/$identityId" params={{ identityId: person.id }}>
                      {person.name ?? person.email ?? 'Anonymous identity'}
                    </Link>{' '}
                    <span className="muted">
                      {person.name !== null && person.email !== null && `${person.email} · `}last seen <Time value={person.last_seen} />
                    </span>
                  </li>
                ))}
              </ul>
              <MorePages page={page} label="Pages of people" onChange={setOffset} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

export function AnonymousVisitors({ anonymous, days }: { anonymous: CompanyEngagement['anonymous']; days: number }) {
  return (
    <section className="card" aria-labelledby="anonymous-title">
      <h2 id="anonymous-title">Anonymous visitors</h2>
      <p>
        <strong>{anonymous.visitors.toLocaleString('en')}</strong> in the last {days} days
      </p>
      {anonymous.recent.length > 0 && (
        <ul className="compact" aria-label="Most recent anonymous visitors">
          {anonymous.recent.map((visitor) => (
            <li key={visitor.visitor_id}>
              <Time value={visitor.last_seen} />{' '}
              <span className="muted">
                · {[visitor.city, visitor.country].filter(Boolean).join(', ') || 'unknown place'} · {visitor.page_views.toLocaleString('en')} page
                {visitor.page_views === 1 ? '' : 's'} in {visitor.sessions.toLocaleString('en')} visit{visitor.sessions === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CompanyLeads({ companyId }: { companyId: string }) {
  const [offset, setOffset] = useState(0);
  const leads = useQuery({
    queryKey: ['company', companyId, 'leads', offset],
    queryFn: () => api<Page<Lead> & LeadLabels>(`/companies/${companyId}/leads?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="card" aria-labelledby="leads-title">
      <h2 id="leads-title">Leads</h2>
      <QueryView query={leads}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No leads from this company yet.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Leads of this company, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Lead</th>
                      <th scope="col">Score</th>
                      <th scope="col">Status</th>
                      <th scope="col" className="wide-only">
                        Created
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((lead) => {
                      const person = lead.identity_id === null ? undefined : page.people[lead.identity_id];
                      return (
                        <tr key={lead.id}>
                          <td>
                            <Link to="/leads/$leadId" params={{ leadId: lead.id }}>
                              {lead.code ?? lead.id.slice(0, 8)}
                            </Link>
                            <div className="muted">{person?.name ?? person?.email ?? 'Anonymous'}</div>
                            <div className="narrow-only muted">
                              <Time value={lead.created_at} />
                            </div>
                          </td>
                          <td className="num">{typeof lead.summary?.score === 'number' ? lead.summary.score : <span className="muted">—</span>}</td>
                          <td>{text(lead.summary?.status ?? lead.properties.status)}</td>
                          <td className="wide-only">
                            <Time value={lead.created_at} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <MorePages page={page} label="Pages of leads" onChange={setOffset} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

export function CompanyActivity({ companyId }: { companyId: string }) {
  const { activity: offset = 0 } = useSearch({ from: '/app/companies/$companyId' });
  const navigate = useNavigate({ from: '/companies/$companyId' });
  const activity = useQuery({
    queryKey: ['company', companyId, 'activity', offset],
    queryFn: () => api<Page<Activity>>(`/companies/${companyId}/activity?limit=${ACTIVITY_LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="card" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <QueryView query={activity}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No activity recorded.</Empty>
          ) : (
            <>
              <ol className="timeline" aria-label="Activity, newest first">
                {page.data.map((entry) => (
                  <li key={entry.id}>
                    <span className="badge">{entry.type}</span> <span>{entry.what ?? '—'}</span>
                    <span className="muted">
                      {' '}
                      {entry.who !== null && `${entry.who} · `}
                      {entry.source !== null && `via ${entry.source} · `}
                      <Time value={entry.created_at} />
                    </span>
                  </li>
                ))}
              </ol>
              <MorePages page={page} label="Pages of activity" onChange={(next) => void navigate({ search: { activity: next === 0 ? undefined : next }, replace: true })} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}
