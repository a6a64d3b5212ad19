/**
 * Companies as accounts (C9.4): filter by name (any part, any case) and
 * domain (exact); each company with its people and visitors, its last
 * visit and account score. The `Last visit` and `Account score` column
 * headers are buttons that sort (highest first; pressed again, back to
 * newest first); the filters and the order live in the URL. Each company
 * opens its page (company.tsx).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { api, query, type Page } from '../api';
import { ExportCsv } from '../components/export-csv';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { CompanySort } from '../search-params';
import type { AccountItem } from '../types';

const LIMIT = 50;

const CAPTIONS: Record<CompanySort, string> = {
  '-created_at': 'Companies, newest first',
  '-last_seen': 'Companies, latest visit first (never seen last)',
  '-account_score': 'Companies, highest account score first (unscored last)',
};

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

export function CompaniesPage() {
  const search = useSearch({ from: '/app/companies' });
  const navigate = useNavigate({ from: '/companies' });
  const companies = useQuery({
    queryKey: ['companies', search],
    queryFn: () =>
      api<Page<AccountItem>>(`/companies${query({ name: search.name, domain: search.domain, limit: LIMIT, offset: search.offset, sort: search.sort })}`),
    placeholderData: keepPreviousData,
  });
  const filtered = search.name !== undefined || search.domain !== undefined;
  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    void navigate({ search: { name: value('name'), domain: value('domain'), sort: search.sort } });
  }
  const order: CompanySort = search.sort ?? '-created_at';
  const sortBy = (next: '-last_seen' | '-account_score') =>
    void navigate({ search: (previous) => ({ ...previous, offset: undefined, sort: order === next ? undefined : next }) });
  const ariaSort = (column: CompanySort) => (order === column ? ('descending' as const) : undefined);
  const arrow = (column: CompanySort) => (order === column ? ' ↓' : '');
  return (
    <>
      <div className="page-head">
        <h1>Companies</h1>
        <ExportCsv resource="companies" filters={{ name: search.name, domain: search.domain }} />
      </div>
      <form className="filters" onSubmit={apply} key={JSON.stringify(search)} aria-label="Filter companies">
        <label>
          Name contains
          <input name="name" defaultValue={search.name ?? ''} />
        </label>
        <label>
          Domain
          <input name="domain" defaultValue={search.domain ?? ''} placeholder="example.com" />
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          {filtered && (
            <button type="button" onClick={() => void navigate({ search: { sort: search.sort } })}>
              Clear
            </button>
          )}
        </div>
      </form>
      <QueryView query={companies}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>{filtered ? 'No company matches these filters.' : 'No companies yet.'}</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table className="companies-table">
                  <caption className="visually-hidden">{CAPTIONS[order]}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col" className="wide-only num">
                        People
                      </th>
                      <th scope="col" className="wide-only num">
                        Visitors
                      </th>
                      <th scope="col" aria-sort={ariaSort('-last_seen')}>
                        <button type="button" className="sort" onClick={() => sortBy('-last_seen')}>
                          Last visit<span aria-hidden="true">{arrow('-last_seen')}</span>
                        </button>
                      </th>
                      <th scope="col" aria-sort={ariaSort('-account_score')}>
                        <button type="button" className="sort" onClick={() => sortBy('-account_score')}>
                          Account score<span aria-hidden="true">{arrow('-account_score')}</span>
                        </button>
                      </th>
                      <th scope="col" className="wide-only">
                        Industry
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((company) => (
                      <tr key={company.id}>
                        <td>
                          <Link to="/companies/$companyId" params={{ companyId: company.id }}>
                            {company.name}
                          </Link>
                          {company.domain !== null && company.domain !== '' && <div className="muted">{company.domain}</div>}
                          <div className="narrow-only muted">
                            {plural(company.people, 'person', 'people')} · {plural(company.visitors, 'visitor', 'visitors')}
                          </div>
                        </td>
                        <td className="wide-only num">{company.people.toLocaleString('en')}</td>
                        <td className="wide-only num">{company.visitors.toLocaleString('en')}</td>
                        <td>{company.last_seen === null ? <span className="muted">Never</span> : <Time value={company.last_seen} />}</td>
                        <td className="num">{company.account_score === null ? <span className="muted">—</span> : company.account_score}</td>
                        <td className="wide-only">{text(company.main_industry)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                label="Pages of companies"
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
