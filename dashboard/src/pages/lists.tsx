/** Visitor lists (segments and static lists); each opens its page with its rule and members. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { VisitorList } from '../types';

const LIMIT = 50;

export function ListsPage() {
  const { offset = 0 } = useSearch({ from: '/app/lists' });
  const navigate = useNavigate({ from: '/lists' });
  const lists = useQuery({
    queryKey: ['lists', offset],
    queryFn: () => api<Page<VisitorList>>(`/lists?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <div className="page-head">
        <h1>Lists</h1>
      </div>
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
