/**
 * Site keys in the workspace settings (CONTRACT C5.1, C7.5): each key with
 * its name, allowed origins, created and last used, and the <script> tag
 * that installs the tracker with it (a copy button beside it). Site keys are
 * publishable, so everyone who reads the workspace sees them; admins create
 * them (with the origins allowed to send events) and revoke them after
 * confirming. Revoked keys are listed apart, with when.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { ConfirmButton } from '../components/confirm';
import { CopyButton } from '../components/copy-button';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { SiteKey } from '../types';

const label = (key: SiteKey) => key.name ?? `…${key.key.slice(-6)}`;

/** The origins typed in the form: one a line, or separated by commas or spaces. */
function originsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
}

function SiteKeyItem({ siteKey, admin, onRevoke, revoking }: { siteKey: SiteKey; admin: boolean; onRevoke: () => void; revoking: boolean }) {
  const headingId = `site-key-${siteKey.id}`;
  return (
    <li className="site-key" data-site-key-id={siteKey.id}>
      <div className="card-head">
        <h3 id={headingId}>{siteKey.name ?? <span className="muted">Unnamed site key</span>}</h3>
        {admin && (
          <ConfirmButton label="Revoke" title="Revoke this site key?" confirmLabel="Revoke site key" danger onConfirm={onRevoke} disabled={revoking}>
            <p>
              Pages with <strong>{label(siteKey)}</strong> stop sending events at once: their events are refused from now on. This cannot be undone.
            </p>
          </ConfirmButton>
        )}
      </div>
      <dl className="fields">
        <dt>Key</dt>
        <dd className="mono">{siteKey.key}</dd>
        <dt>Allowed origins</dt>
        <dd>
          {siteKey.origins.length === 0 ? (
            <span className="muted">any origin</span>
          ) : (
            <ul className="chips" aria-label="Allowed origins">
              {siteKey.origins.map((origin) => (
                <li key={origin} className="mono">
                  {origin}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={siteKey.created_at} />
        </dd>
        <dt>Last used</dt>
        <dd className="last-used">
          <Time value={siteKey.last_used_at} exact />
        </dd>
      </dl>
      <figure className="snippet">
        <figcaption className="snippet-label">Install snippet</figcaption>
        <pre className="json" tabIndex={0} aria-label="Install snippet">
          <code>{siteKey.snippet}</code>
        </pre>
        <div className="secret-row">
          <CopyButton text={siteKey.snippet} label="Copy snippet" />
        </div>
      </figure>
    </li>
  );
}

function RevokedKeys({ keys }: { keys: SiteKey[] }) {
  if (keys.length === 0) return null;
  return (
    <details className="revoked-keys">
      <summary>
        {keys.length} revoked site key{keys.length === 1 ? '' : 's'}
      </summary>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Revoked site keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Revoked</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-site-key-id={key.id}>
                <td>{key.name ?? <span className="muted">unnamed</span>}</td>
                <td className="mono">{key.key}</td>
                <td>
                  <Time value={key.revoked_at} exact />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function SiteKeysSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const [created, setCreated] = useState<string | undefined>();
  const keys = useQuery({ queryKey: ['site-keys'], queryFn: () => api<{ data: SiteKey[] }>('/site-keys').then((body) => body.data) });
  const refresh = () => void client.invalidateQueries({ queryKey: ['site-keys'] });
  const fail = (error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  const create = useMutation({
    mutationFn: (body: { name: string | null; origins: string[] }) => api<{ data: SiteKey }>('/site-keys', { method: 'POST', body }),
    onSuccess: ({ data }) => {
      setProblem(undefined);
      setCreated(label(data));
      refresh();
    },
    onError: fail,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/site-keys/${id}/revoke`, { method: 'POST' }),
    onSuccess: () => {
      setProblem(undefined);
      setCreated(undefined);
      refresh();
    },
    onError: fail,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    create.mutate({ name: name === '' ? null : name, origins: originsOf(String(data.get('origins') ?? '')) }, { onSuccess: () => form.reset() });
  }

  return (
    <section className="card" aria-labelledby="site-keys-title">
      <h2 id="site-keys-title">Site keys</h2>
      <p className="hint">
        A site key lets the tracker on your website send page views, identifies and conversions; it can do nothing else, so it is safe in public pages.
        Put its snippet in the <code>&lt;head&gt;</code> of every page. The snippet uses the address you opened the dashboard at: if your visitors reach
        Leadlight at another address, use that one.
      </p>
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      {created !== undefined && <p role="status">Site key {created} created. Copy its snippet below.</p>}
      <QueryView query={keys} loading="Loading site keys…">
        {(data) => {
          const active = data.filter((key) => key.revoked_at === null);
          return (
            <>
              {active.length === 0 ? (
                <Empty>No active site keys.{admin ? ' Create one below to start tracking your website.' : ' An admin can create one.'}</Empty>
              ) : (
                <ul className="site-keys" aria-label="Active site keys">
                  {active.map((key) => (
                    <SiteKeyItem key={key.id} siteKey={key} admin={admin} onRevoke={() => revoke.mutate(key.id)} revoking={revoke.isPending} />
                  ))}
                </ul>
              )}
              <RevokedKeys keys={data.filter((key) => key.revoked_at !== null)} />
            </>
          );
        }}
      </QueryView>
      {admin && (
        <form className="site-key-form" onSubmit={submit} aria-label="Create a site key">
          <h3>New site key</h3>
          <label>
            Site name
            <input name="name" maxLength={255} placeholder="e.g. Marketing site" />
          </label>
          <label>
            Allowed origins
            <textarea name="origins" rows={2} placeholder="https://www.example.com, https://*.example.com" aria-describedby="origins-hint" />
            <span id="origins-hint" className="hint field-hint">
              One a line or separated by commas; empty allows any origin.
            </span>
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create site key'}
          </button>
        </form>
      )}
    </section>
  );
}
