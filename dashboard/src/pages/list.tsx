/**
 * A visitor list's page (CONTRACT C6.4): its details with its member
 * count, its rule (a segment) or that it is static, and its members, paged.
 * Members and admins edit a segment's rule in the builder (C9.6); a rule
 * the builder cannot show exactly is edited as JSON, with the reason.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { api, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { memberCount } from '../format';
import type { Identity, ListDetail } from '../types';
import { SegmentRuleCard } from './list-rule';

const LIMIT = 50;

export function ListPage() {
  const { listId } = useParams({ from: '/app/lists/$listId' });
  const { offset = 0 } = useSearch({ from: '/app/lists/$listId' });
  const navigate = useNavigate({ from: '/lists/$listId' });
  const list = useQuery({ queryKey: ['list', listId], queryFn: () => api<{ data: ListDetail }>(`/lists/${listId}`).then((body) => body.data) });
  const members = useQuery({
    queryKey: ['list-members', listId, offset],
    queryFn: () => api<Page<Identity>>(`/lists/${listId}/identities?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={list}>
      {(data) => (
        <>
          <div className="page-head">
            <p className="crumbs">
              <Link to="/lists">Lists</Link> /
            </p>
            <h1>
              <span className="swatch" style={{ background: data.color ?? 'transparent' }} aria-hidden="true" /> {data.name}
            </h1>
          </div>
          <section className="card" aria-labelledby="list-details-title">
            <h2 id="list-details-title">Details</h2>
            <dl className="fields">
              <dt>Description</dt>
              <dd>{data.description ?? <span className="muted">none</span>}</dd>
              <dt>Created</dt>
              <dd>
                <Time value={data.created_at} exact />
              </dd>
              <dt>Members</dt>
              <dd className="list-members">{memberCount(data.members)}</dd>
              <dt>Kind</dt>
              <dd>{data.rule === null ? 'Static list: members are added and removed through the API' : 'Segment: members follow its rule, within a minute of new events'}</dd>
            </dl>
          </section>
          {data.rule !== null && <SegmentRuleCard listId={listId} name={data.name} rule={data.rule} />}
          <section className="card" aria-labelledby="list-members-title">
            <h2 id="list-members-title">Members</h2>
            <QueryView query={members} loading="Loading the members…">
              {(page) =>
                page.data.length === 0 ? (
                  <Empty>No identities in this list yet.</Empty>
                ) : (
                  <>
                    <div className="table-wrap">
                      <table>
                        <caption className="visually-hidden">Identities in {data.name}</caption>
                        <thead>
                          <tr>
                            <th scope="col">Name</th>
                            <th scope="col">Email</th>
                            <th scope="col" className="wide-only">
                              Last seen
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {page.data.map((identity) => (
                            <tr key={identity.id}>
                              <td>
                                <Link to="/identities/$identityId" params={{ identityId: identity.id }}>
                                  {identity.name ?? identity.email ?? identity.id}
                                </Link>
                              </td>
                              <td>{identity.email ?? <span className="muted">unknown</span>}</td>
                              <td className="wide-only">
                                <Time value={identity.last_seen} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                    <Pager
                      label="Pages of members"
                      offset={page.pagination.offset}
                      limit={page.pagination.limit}
                      total={page.pagination.total}
                      onChange={(next) => void navigate({ search: { offset: next === 0 ? undefined : next } })}
                    />
                  </>
                )
              }
            </QueryView>
          </section>
        </>
      )}
    </QueryView>
  );
}
