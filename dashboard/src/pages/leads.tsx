/**
 * Leads: the API's filters (source, code, created after and before, each
 * strict as in the API), the exact total, and paging; each lead opens its
 * page. The table names each lead's person and company (each a link to its
 * page) and shows its score and status (C9.3); the `Score` and `Created`
 * column headers are buttons that sort. The filters and the order live in the URL.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { api, query, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { LeadSearch, LeadSort } from '../search-params';
import type { Lead, LeadLabels } from '../types';
import { ExportCsv } from '../components/export-csv';

const LIMIT = 50;

const CAPTIONS: Record<LeadSort, string> = {
  '-created_at': 'Leads, newest first',
  created_at: 'Leads, oldest first',
  '-score': 'Leads, highest score first (unscored last)',
  score: 'Leads, lowest score first (unscored last)',
};

/** C9.3: the person's name, else email, else Anonymous */
function personOf(lead: Lead, labels: LeadLabels): string {
  const person = lead.identity_id === null ? undefined : labels.people[lead.identity_id];
  return person?.name ?? person?.email ?? 'Anonymous';
}

/** the lead's company, a link to its page (as the identity page links its company) */
function CompanyLink({ id, name }: { id: string; name: string }) {
  return (
    <Link to="/companies/$companyId" params={{ companyId: id }}>
      {name}
    </Link>
  );
}

export function LeadsPage() {
  const search = useSearch({ from: '/app/leads' });
  const navigate = useNavigate({ from: '/leads' });
  const leads = useQuery({
    queryKey: ['leads', search],
    queryFn: () =>
      api<Page<Lead> & LeadLabels>(
        `/leads${query({
          source: search.source,
          code: search.code,
          created_after: search.created_after,
          created_before: search.created_before,
          limit: LIMIT,
          offset: search.offset,
          sort: search.sort,
        })}`,
      ),
    placeholderData: keepPreviousData,
  });
  const filtered = search.source !== undefined || search.code !== undefined || search.created_after !== undefined || search.created_before !== undefined;

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: keyof LeadSearch) => {
      const entry = String(form.get(name) ?? '').trim();
      return entry === '' ? undefined : entry;
    };
    void navigate({
      search: { source: value('source'), code: value('code'), created_after: value('created_after'), created_before: value('created_before'), sort: search.sort },
    });
  }

  const order: LeadSort = search.sort ?? '-created_at';
  /** a header's button: the first press sorts descending, the next ascending, and so on */
  const sortBy = (column: 'score' | 'created_at') => {
    const next: LeadSort = order === `-${column}` ? column : `-${column}`;
    void navigate({ search: (previous) => ({ ...previous, offset: undefined, sort: next === '-created_at' ? undefined : next }) });
  };
  const ariaSort = (column: 'score' | 'created_at') =>
    order === `-${column}` ? ('descending' as const) : order === column ? ('ascending' as const) : undefined;
  const arrow = (column: 'score' | 'created_at') => (order === `-${column}` ? ' ↓' : order === column ? ' ↑' : '');

  return (
    <>
      <div className="page-head">
        <h1>Leads</h1>
        <ExportCsv resource="leads" filters={search} />
      </div>
      <form className="filters" onSubmit={apply} key={JSON.stringify(search)} aria-label="Filter leads">
        <label>
          Source
          <input name="source" defaultValue={search.source ?? ''} list="lead-sources" placeholder="website" />
          <datalist id="lead-sources">
            <option value="website" />
            <option value="referral" />
            <option value="campaign" />
          </datalist>
        </label>
        <label>
          Code
          <input name="code" defaultValue={search.code ?? ''} />
        </label>
        <label>
          Created after
          <input name="created_after" type="date" defaultValue={search.created_after ?? ''} />
        </label>
        <label>
          Created before
          <input name="created_before" type="date" defaultValue={search.created_before ?? ''} />
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
      <QueryView query={leads}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>{filtered ? 'No lead matches these filters.' : 'No leads yet. Leads arrive through the API (POST /api/v1/leads) or an import.'}</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table className="leads-table">
                  <caption className="visually-hidden">{CAPTIONS[order]}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Person</th>
                      <th scope="col" className="wide-only">
                        Company
                      </th>
                      <th scope="col" aria-sort={ariaSort('score')}>
                        <button type="button" className="sort" onClick={() => sortBy('score')}>
                          Score<span aria-hidden="true">{arrow('score')}</span>
                        </button>
                      </th>
                      <th scope="col">Status</th>
                      <th scope="col" className="wide-only">
                        Source
                      </th>
                      <th scope="col" aria-sort={ariaSort('created_at')}>
                        <button type="button" className="sort" onClick={() => sortBy('created_at')}>
                          Created<span aria-hidden="true">{arrow('created_at')}</span>
                        </button>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((lead) => (
                      <tr key={lead.id}>
                        <td>
                          <Link to="/leads/$leadId" params={{ leadId: lead.id }}>
                            {personOf(lead, page)}
                          </Link>
                          {lead.company_id !== null && page.companies[lead.company_id] !== undefined && (
                            <div className="narrow-only">
                              <CompanyLink id={lead.company_id} name={page.companies[lead.company_id]!.name} />
                            </div>
                          )}
                        </td>
                        <td className="wide-only">
                          {lead.company_id === null || page.companies[lead.company_id] === undefined ? (
                            <span className="muted">—</span>
                          ) : (
                            <CompanyLink id={lead.company_id} name={page.companies[lead.company_id]!.name} />
                          )}
                        </td>
                        <td className="num">{typeof lead.summary?.score === 'number' ? lead.summary.score : <span className="muted">—</span>}</td>
                        <td>{text(lead.summary?.status ?? lead.properties.status)}</td>
                        <td className="wide-only">{lead.source === null ? <span className="muted">—</span> : <span className="badge">{lead.source}</span>}</td>
                        <td>
                          <Time value={lead.created_at} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                label="Pages of leads"
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
