/**
 * Leads: the API's filters (source, code, created after and before, each
 * strict as in the API), the exact total, and paging; each lead opens its
 * page. The filters live in the URL.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { api, query, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import type { LeadSearch } from '../router';
import type { Lead } from '../types';
import { ExportCsv } from '../components/export-csv';

const LIMIT = 50;

export function LeadsPage() {
  const search = useSearch({ from: '/app/leads' });
  const navigate = useNavigate({ from: '/leads' });
  const leads = useQuery({
    queryKey: ['leads', search],
    queryFn: () =>
      api<Page<Lead>>(
        `/leads${query({
          source: search.source,
          code: search.code,
          created_after: search.created_after,
          created_before: search.created_before,
          limit: LIMIT,
          offset: search.offset,
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
      search: { source: value('source'), code: value('code'), created_after: value('created_after'), created_before: value('created_before') },
    });
  }

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
                <table>
                  <caption className="visually-hidden">Leads, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Code</th>
                      <th scope="col">Source</th>
                      <th scope="col">Status</th>
                      <th scope="col" className="wide-only">
                        Location
                      </th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((lead) => (
                      <tr key={lead.id}>
                        <td>
                          <Link to="/leads/$leadId" params={{ leadId: lead.id }}>
                            {lead.code ?? lead.id.slice(0, 8)}
                          </Link>
                        </td>
                        <td>{lead.source === null ? <span className="muted">—</span> : <span className="badge">{lead.source}</span>}</td>
                        <td>{text(lead.summary?.status ?? lead.properties.status)}</td>
                        <td className="wide-only">{[lead.location.city, lead.location.country].filter(Boolean).map(String).join(', ') || '—'}</td>
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
