/** Companies: filter by name (any part, any case) and domain (exact); a company's page with its details. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { api, query, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { Company } from '../types';
import { ExportCsv } from '../components/export-csv';

const LIMIT = 50;

export function CompaniesPage() {
  const search = useSearch({ from: '/app/companies' });
  const navigate = useNavigate({ from: '/companies' });
  const companies = useQuery({
    queryKey: ['companies', search],
    queryFn: () => api<Page<Company>>(`/companies${query({ name: search.name, domain: search.domain, limit: LIMIT, offset: search.offset })}`),
    placeholderData: keepPreviousData,
  });
  const filtered = search.name !== undefined || search.domain !== undefined;
  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    void navigate({ search: { name: value('name'), domain: value('domain') } });
  }
  return (
    <>
      <div className="page-head">
        <h1>Companies</h1>
        <ExportCsv resource="companies" filters={search} />
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
            <button type="button" onClick={() => void navigate({ search: {} })}>
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
                <table>
                  <caption className="visually-hidden">Companies, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Domain</th>
                      <th scope="col" className="wide-only">
                        Industry
                      </th>
                      <th scope="col" className="wide-only">
                        Employees
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
                        </td>
                        <td>{text(company.domain)}</td>
                        <td className="wide-only">{text(company.main_industry)}</td>
                        <td className="wide-only">{text(company.employees)}</td>
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

export function CompanyPage() {
  const { companyId } = useParams({ from: '/app/companies/$companyId' });
  const company = useQuery({ queryKey: ['company', companyId], queryFn: () => api<{ data: Company }>(`/companies/${companyId}`).then((body) => body.data) });
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
          <section className="card" aria-label="Details">
            <dl className="fields">
              <dt>Domain</dt>
              <dd>{data.domain === null ? '—' : <a href={`https://${data.domain}`} rel="noreferrer noopener" target="_blank">{data.domain}</a>}</dd>
              <dt>Industry</dt>
              <dd>{text(data.main_industry)}</dd>
              <dt>Employees</dt>
              <dd>{text(data.employees)}</dd>
              <dt>Description</dt>
              <dd>{text(data.description)}</dd>
              <dt>Added</dt>
              <dd>
                <Time value={data.created_at} exact />
              </dd>
            </dl>
          </section>
        </>
      )}
    </QueryView>
  );
}
