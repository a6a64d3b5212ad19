/**
 * API keys in the workspace settings (CONTRACT C7.5): type, name, hint,
 * created, last used (relative and exact); admins create keys (the secret
 * is shown once, with a copy button and a warning), rotate and revoke them
 * after confirming. Others see the list without controls.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { ConfirmButton } from '../components/confirm';
import { CopyButton } from '../components/copy-button';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { ApiKey, CreatedKey } from '../types';

function SecretOnce({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <div className="secret" role="region" aria-label="New key">
      <p>
        <strong>{created.replaces === undefined ? 'Your new' : 'The replacement'} {created.type} key{created.name === null ? '' : ` “${created.name}”`}:</strong>
      </p>
      <p className="warning" role="alert">
        Copy it now: it is shown only this once and cannot be recovered. Keep it in server-side code only.
      </p>
      <div className="secret-row">
        <code aria-label="Key">{created.key}</code>
        <CopyButton text={created.key} label="Copy key" />
      </div>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

export function KeysSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api<{ data: ApiKey[] }>('/keys').then((body) => body.data) });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['keys'] });
    void client.invalidateQueries({ queryKey: ['workspace'] });
  };
  const fail = (error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  const create = useMutation({
    mutationFn: (body: { type: string; name: string | null }) => api<{ data: CreatedKey }>('/keys', { method: 'POST', body }),
    onSuccess: ({ data }) => {
      setCreated(data);
      setProblem(undefined);
      refresh();
    },
    onError: fail,
  });
  const rotate = useMutation({
    mutationFn: (id: string) => api<{ data: CreatedKey }>(`/keys/${id}/rotate`, { method: 'POST' }),
    onSuccess: ({ data }) => {
      setCreated(data);
      refresh();
    },
    onError: fail,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/keys/${id}/revoke`, { method: 'POST' }),
    onSuccess: refresh,
    onError: fail,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    create.mutate({ type: String(form.get('type')), name: name === '' ? null : name });
    event.currentTarget.reset();
  }

  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="hint">
        Send a key as <code>Authorization: Bearer …</code> to <code>/api/v1</code>. Production keys allow 1000 requests a minute, development keys 100.
      </p>
      {created !== null && <SecretOnce created={created} onDone={() => setCreated(null)} />}
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      <QueryView query={keys}>
        {(data) =>
          data.length === 0 ? (
            <Empty>No active keys.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="stack-narrow">
                <caption className="visually-hidden">Active API keys</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Key</th>
                    <th scope="col" className="wide-only">
                      Created
                    </th>
                    <th scope="col">Last used</th>
                    {admin && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.map((key) => (
                    <tr key={key.id} data-key-id={key.id}>
                      <td>{key.name ?? <span className="muted">unnamed</span>}</td>
                      <td>
                        <span className={`badge ${key.type}`}>{key.type}</span>
                      </td>
                      <td className="mono">…{key.hint}</td>
                      <td className="wide-only">
                        <Time value={key.created_at} />
                      </td>
                      <td className="last-used">
                        <Time value={key.last_used_at} exact />
                      </td>
                      {admin && (
                        <td className="row-actions">
                          <ConfirmButton
                            label="Rotate"
                            title="Rotate this key?"
                            confirmLabel="Rotate key"
                            onConfirm={() => rotate.mutate(key.id)}
                            disabled={rotate.isPending}
                          >
                            <p>
                              A new key replaces <strong>{key.name ?? `…${key.hint}`}</strong>. The old key stops working at once: switch your clients to the new
                              one right away.
                            </p>
                          </ConfirmButton>
                          <ConfirmButton
                            label="Revoke"
                            title="Revoke this key?"
                            confirmLabel="Revoke key"
                            danger
                            onConfirm={() => revoke.mutate(key.id)}
                            disabled={revoke.isPending}
                          >
                            <p>
                              Requests with <strong>{key.name ?? `…${key.hint}`}</strong> are refused from now on. This cannot be undone.
                            </p>
                          </ConfirmButton>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {admin && (
        <form className="inline-form" onSubmit={submit} aria-label="Create an API key">
          <fieldset className="segmented">
            <legend>Type</legend>
            <label>
              <input type="radio" name="type" value="development" defaultChecked /> Development
            </label>
            <label>
              <input type="radio" name="type" value="production" /> Production
            </label>
          </fieldset>
          <label>
            Name
            <input name="name" maxLength={255} placeholder="e.g. CRM sync" />
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create key
          </button>
        </form>
      )}
    </section>
  );
}
