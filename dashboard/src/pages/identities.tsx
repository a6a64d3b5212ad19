/** Identities: filter by email (exact, any case) and favourite; exact total and paging. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { api, query, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { Identity } from '../types';
import { ExportCsv } from '../components/export-csv';

const LIMIT = 50;

export function IdentitiesPage() {
  const search = useSearch({ from: '/app/identities' });
  const navigate = useNavigate({ from: '/identities' });
  const identities = useQuery({
    queryKey: ['identities', search],
    queryFn: () => api<Page<Identity>>(`/identities${query({ email: search.email, is_favorite: search.favorite, limit: LIMIT, offset: search.offset })}`),
    placeholderData: keepPreviousData,
  });
  const filtered = search.email !== undefined || search.favorite !== undefined;

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const favorite = String(form.get('favorite') ?? '');
    void navigate({ search: { email: email === '' ? undefined : email, favorite: favorite === 'true' || favorite === 'false' ? favorite : undefined } });
  }

  return (
    <>
      <div className="page-head">
        <h1>Identities</h1>
        <ExportCsv resource="identities" filters={search} />
      </div>
      <form className="filters" onSubmit={apply} key={JSON.stringify(search)} aria-label="Filter identities">
        <label>
          Email
          <input name="email" type="email" defaultValue={search.email ?? ''} placeholder="ada@example.com" />
        </label>
        <label>
          Favourite
          <select name="favorite" defaultValue={search.favorite ?? ''}>
            <option value="">Any</option>
            <option value="true">Favourites only</option>
            <option value="false">Not favourites</option>
          </select>
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          {filtered && (
            <button type="button" onClick={() => void navigate({ search: {} })}>
              Clear
            </button>
          )}
        </div>
      </form>
      <QueryView query={identities}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>{filtered ? 'No identity matches these filters.' : 'No identities yet.'}</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Identities, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col" className="wide-only">
                        Email
                      </th>
                      <th scope="col" className="wide-only">
                        Location
                      </th>
                      <th scope="col">Last seen</th>
                      <th scope="col">
                        <span className="visually-hidden">Favourite</span>
                        <span aria-hidden="true">★</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((identity) => (
                      <tr key={identity.id}>
                        <td>
                          <Link to="/identities/$identityId" params={{ identityId: identity.id }}>
                            {identity.name ?? identity.email ?? identity.id.slice(0, 8)}
                          </Link>
                        </td>
                        <td className="wide-only">{identity.email ?? '—'}</td>
                        <td className="wide-only">{[identity.city, identity.country].filter(Boolean).join(', ') || '—'}</td>
                        <td>
                          <Time value={identity.last_seen} />
                        </td>
                        <td>{identity.is_favorite ? <span title="Favourite">★<span className="visually-hidden"> favourite</span></span> : ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                label="Pages of identities"
                offset={page.pagination.offset}
                limit={page.pagination.limit}
                total={page.pagination.total}
                onChange={(offset) => void navigate({ search: (previous) => ({ ...previous, offset: offset === 0 ? undefined : offset }) })}
              />
            </>
          )
        }
      </QueryView>
    </>
  );
}
