/**
 * Visitor lists (segments and static lists) with their member counts; each
 * opens its page with its rule and members. `New segment` opens the
 * builder (C9.6) for those who may save one (members and admins).
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, type Page } from '../api';
import { Pager } from '../components/pager';
import { SegmentBuilder } from '../components/segment-builder';
import { Empty, QueryView } from '../components/states';
import { memberCount } from '../format';
import { Time } from '../components/time';
import { newGroup } from '../segment-draft';
import { can, useSession } from '../session';
import type { CountedList, VisitorList } from '../types';

const LIMIT = 50;

export function ListsPage() {
  const { offset = 0 } = useSearch({ from: '/app/lists' });
  const navigate = useNavigate({ from: '/lists' });
  const client = useQueryClient();
  const session = useSession();
  const [building, setBuilding] = useState(false);
  const lists = useQuery({
    queryKey: ['lists', offset],
    queryFn: () => api<Page<CountedList>>(`/lists?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <div className="page-head">
        <h1>Lists</h1>
        {can(session.data, 'member') && !building && (
          <button type="button" className="primary" onClick={() => setBuilding(true)}>
            New segment
          </button>
        )}
      </div>
      {building && (
        <SegmentBuilder
          title="New segment"
          initialName=""
          initialGroup={newGroup('all')}
          onCancel={() => setBuilding(false)}
          onSave={async ({ name, rule }) => {
            const created = await api<{ data: VisitorList }>('/lists', { method: 'POST', body: { name, rule } });
            await client.invalidateQueries({ queryKey: ['lists'] });
            await navigate({ to: '/lists/$listId', params: { listId: created.data.id } });
          }}
        />
      )}
      <QueryView query={lists}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No visitor lists yet.</Empty>
          ) : (
            <>
              <ul className="list-cards">
                {page.data.map((list) => (
                  <li key={list.id} className="card">
                    <h2>
                      <span className="swatch" style={{ background: list.color ?? 'transparent' }} aria-hidden="true" />{' '}
                      <Link to="/lists/$listId" params={{ listId: list.id }}>
                        {list.name}
                      </Link>
                    </h2>
                    <p className="list-members">{memberCount(list.members)}</p>
                    <p>{list.description ?? <span className="muted">No description.</span>}</p>
                    <p className="muted">
                      Created <Time value={list.created_at} />
                      {list.color !== null && ` · colour ${list.color}`}
                    </p>
                  </li>
                ))}
              </ul>
              <Pager
                label="Pages of lists"
                offset={page.pagination.offset}
                limit={page.pagination.limit}
                total={page.pagination.total}
                onChange={(next) => void navigate({ search: { offset: next === 0 ? undefined : next } })}
              />
            </>
          )
        }
      </QueryView>
    </>
  );
}
