/**
 * Live (CONTRACT C9.2): the visits of the last 30 minutes, newest first:
 * the person (else "Anonymous visitor"), the company, the country, the
 * current page, the pages of the visit and the source. New visits and page
 * views appear without a reload: the server's event stream says when to
 * read them again (components/live-stream.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api } from '../api';
import { LIVE_KEY, useLiveStream } from '../components/live-stream';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { LiveSnapshot } from '../types';

export function useLiveSnapshot() {
  return useQuery({
    queryKey: LIVE_KEY,
    queryFn: () => api<{ data: LiveSnapshot }>('/live').then((body) => body.data),
    // the window moves even when nothing new arrives
    refetchInterval: 60_000,
  });
}

function pathOf(url: string | null): string {
  if (url === null) return '—';
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

export function LivePage() {
  useLiveStream();
  const live = useLiveSnapshot();
  return (
    <>
      <div className="page-head">
        <h1>Live</h1>
        {live.data && (
          <span className="muted" role="status">
            {live.data.active_visitors.toLocaleString('en')} active in the last 5 minutes
          </span>
        )}
      </div>
      <QueryView query={live}>
        {(data) =>
          data.visits.length === 0 ? (
            <Empty>No visits in the last 30 minutes.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Visits of the last 30 minutes, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Visitor</th>
                    <th scope="col">Company</th>
                    <th scope="col" className="wide-only">
                      Country
                    </th>
                    <th scope="col">Current page</th>
                    <th scope="col">Pages</th>
                    <th scope="col" className="wide-only">
                      Source
                    </th>
                    <th scope="col" className="wide-only">
                      Last seen
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.visits.map((visit) => (
                    <tr key={visit.session_id}>
                      <td>
                        {visit.person === null ? (
                          'Anonymous visitor'
                        ) : (
                          <Link to="/identities/$identityId" params={{ identityId: visit.person.id }}>
                            {visit.person.name ?? visit.person.email ?? 'Anonymous visitor'}
                          </Link>
                        )}
                      </td>
                      <td>
                        {visit.company === null ? (
                          <span className="muted">—</span>
                        ) : (
                          <Link to="/companies/$companyId" params={{ companyId: visit.company.id }}>
                            {visit.company.name}
                          </Link>
                        )}
                      </td>
                      <td className="wide-only">{visit.country ?? '—'}</td>
                      <td className="mono">{pathOf(visit.current_page)}</td>
                      <td>{visit.pages}</td>
                      <td className="wide-only">{visit.source ?? '—'}</td>
                      <td className="wide-only">
                        <Time value={visit.last_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </>
  );
}
