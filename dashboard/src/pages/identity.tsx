/**
 * One identity: its profile (its company, linked; first and last seen,
 * location, traits), the favourite toggle and name and traits for members,
 * its personalities (type, traits, confidence, learning) and its activity
 * timeline, newest first, paged.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, ApiError, type Page } from '../api';
import { JsonField } from '../components/json-field';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import { PersonalityExplanation } from '../components/personality-explanation';
import { percent, text } from '../format';
import { can, useSession } from '../session';
import type { Activity, Identity, IdentityWithCompany, JsonObject, Personality } from '../types';

const ACTIVITY_LIMIT = 20;

function Personalities({ identityId }: { identityId: string }) {
  const personalities = useQuery({
    queryKey: ['identity', identityId, 'personalities'],
    queryFn: () => api<{ data: Personality[] }>(`/identities/${identityId}/personalities`).then((body) => body.data),
  });
  return (
    <section className="card" aria-labelledby="personalities-title">
      <h2 id="personalities-title">Personalities</h2>
      <QueryView query={personalities}>
        {(data) =>
          data.length === 0 ? (
            <Empty>No personality yet: it is learned from the visitor's behaviour.</Empty>
          ) : (
            <ul className="personalities">
              {data.map((entry) => (
                <li key={entry.id}>
                  <div className="personality-head">
                    <strong>{entry.personality.type}</strong> <Time value={entry.created_at} />
                  </div>
                  {entry.personality.traits.length > 0 && (
                    <ul className="chips" aria-label="Traits">
                      {entry.personality.traits.map((trait) => (
                        <li key={trait}>{trait}</li>
                      ))}
                    </ul>
                  )}
                  <p>
                    Learning: <progress max={1} value={entry.learning_percentage} aria-label="Learning" /> {percent(entry.learning_percentage)}
                    {' · '}Confidence {percent(entry.score)}
                  </p>
                  <PersonalityExplanation
                    type={entry.personality.type}
                    score={entry.score}
                    learning={entry.learning_percentage}
                    features={entry.features}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function Timeline({ identityId }: { identityId: string }) {
  const { activity: offset = 0 } = useSearch({ from: '/app/identities/$identityId' });
  const navigate = useNavigate({ from: '/identities/$identityId' });
  const activity = useQuery({
    queryKey: ['identity', identityId, 'activity', offset],
    queryFn: () => api<Page<Activity>>(`/identities/${identityId}/activity?limit=${ACTIVITY_LIMIT}&offset=${offset}`),
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
                      {entry.source !== null && `via ${entry.source} · `}
                      <Time value={entry.created_at} />
                    </span>
                  </li>
                ))}
              </ol>
              <Pager
                label="Pages of activity"
                offset={page.pagination.offset}
                limit={page.pagination.limit}
                total={page.pagination.total}
                onChange={(next) => void navigate({ search: { activity: next === 0 ? undefined : next }, replace: true })}
              />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function NameForm({ identity, onSave }: { identity: Identity; onSave: (name: string | null) => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  if (!editing) {
    return (
      <button type="button" onClick={() => setEditing(true)}>
        Rename
      </button>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    try {
      await onSave(name === '' ? null : name);
      setEditing(false);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not save.');
    }
  }
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)}>
      <label>
        Name
        <input name="name" defaultValue={identity.name ?? ''} maxLength={255} />
      </label>
      <button type="submit" className="primary">
        Save name
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {problem !== undefined && <p className="problem" role="alert">{problem}</p>}
    </form>
  );
}

export function IdentityPage() {
  const { identityId } = useParams({ from: '/app/identities/$identityId' });
  const client = useQueryClient();
  const session = useSession();
  const identity = useQuery({
    queryKey: ['identity', identityId],
    queryFn: () => api<{ data: IdentityWithCompany }>(`/identities/${identityId}`).then((body) => body.data),
  });
  const update = useMutation({
    mutationFn: (changes: { name?: string | null; traits?: JsonObject; is_favorite?: boolean }) =>
      api<{ data: Identity }>(`/identities/${identityId}`, { method: 'PATCH', body: changes }),
    // the change's answer is the resource alone: the company named on the page stays
    onSuccess: ({ data }) => {
      client.setQueryData(['identity', identityId], (previous: IdentityWithCompany | undefined) => ({ ...data, company: previous?.company ?? null }));
      void client.invalidateQueries({ queryKey: ['identities'] });
    },
  });
  const editable = can(session.data, 'member');
  return (
    <QueryView query={identity}>
      {(data) => (
        <>
          <nav aria-label="Breadcrumb" className="crumbs">
            <Link to="/identities">Identities</Link> / <span aria-current="page">{data.name ?? data.email ?? data.id}</span>
          </nav>
          <div className="page-head">
            <h1>{data.name ?? data.email ?? 'Anonymous identity'}</h1>
            {editable ? (
              <button
                type="button"
                aria-pressed={data.is_favorite}
                onClick={() => update.mutate({ is_favorite: !data.is_favorite })}
                disabled={update.isPending}
              >
                {data.is_favorite ? '★ Favourite' : '☆ Mark as favourite'}
              </button>
            ) : (
              data.is_favorite && <span className="badge">★ Favourite</span>
            )}
            {editable && <NameForm identity={data} onSave={(name) => update.mutateAsync({ name })} />}
          </div>
          {update.isError && (
            <p className="problem" role="alert">
              {update.error instanceof ApiError ? update.error.message : 'Could not save.'}
            </p>
          )}
          <div className="grid-2">
            <section className="card" aria-label="Profile">
              <h2>Profile</h2>
              <dl className="fields">
                <dt>Email</dt>
                <dd>{text(data.email)}</dd>
                <dt>Company</dt>
                <dd>
                  {data.company === null ? (
                    '—'
                  ) : (
                    <Link to="/companies/$companyId" params={{ companyId: data.company.id }}>
                      {data.company.name}
                    </Link>
                  )}
                </dd>
                <dt>First seen</dt>
                <dd>
                  <Time value={data.first_seen} exact />
                </dd>
                <dt>Last seen</dt>
                <dd>
                  <Time value={data.last_seen} exact />
                </dd>
                <dt>Location</dt>
                <dd>{[data.city, data.country].filter(Boolean).join(', ') || '—'}</dd>
                <dt>IP address</dt>
                <dd className="mono">{text(data.ip)}</dd>
                <dt>Visitor</dt>
                <dd className="mono">{data.visitor_id}</dd>
              </dl>
            </section>
            <Personalities identityId={identityId} />
          </div>
          <JsonField title="Traits" value={data.traits} editable={editable} onSave={(value) => update.mutateAsync({ traits: value ?? {} })} />
          <Timeline identityId={identityId} />
        </>
      )}
    </QueryView>
  );
}
