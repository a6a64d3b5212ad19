/**
 * Webhook endpoints in the workspace settings (CONTRACT C7.4, C8.5), small
 * like Stripe's and Svix's: each endpoint with its URL, whether it is
 * enabled or failing, its events and its recent deliveries. Admins add
 * endpoints (the signing secret is shown once, with a copy button), send a
 * test event, disable and enable them, and delete them after confirming;
 * everyone else who reads the workspace sees the same list without controls.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, type Page } from '../api';
import { ConfirmButton } from '../components/confirm';
import { CopyButton } from '../components/copy-button';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../types';
import { Deliveries, deliveriesKey } from './settings-webhook-deliveries';
import { WebhookForm, type NewEndpoint } from './settings-webhook-form';

const ENDPOINTS = ['webhooks'];
/** the settings list at most this many endpoints (an installation has a handful) */
const LIST_LIMIT = 100;

function SecretOnce({ created, onDone }: { created: CreatedWebhookEndpoint; onDone: () => void }) {
  return (
    <div className="secret" role="region" aria-label="New signing secret">
      <p>
        <strong>
          Signing secret of <span className="mono">{created.url}</span>:
        </strong>
      </p>
      <p className="warning" role="alert">
        Copy it now: it is shown only this once. Your endpoint uses it to verify the <code>webhook-signature</code> header of every delivery.
      </p>
      <div className="secret-row">
        <code aria-label="Signing secret">{created.secret}</code>
        <CopyButton text={created.secret} label="Copy secret" />
      </div>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

function StatusBadges({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <span className="row-actions">
      <span className={`badge ${endpoint.enabled ? 'enabled' : 'disabled'}`}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
      {endpoint.status === 'failing' && (
        <span className="badge failing" title="Its last deliveries failed; it recovers at the next successful delivery">
          Failing
        </span>
      )}
    </span>
  );
}

interface Actions {
  /** sends a test event; `queued` runs once it is in the outbox (opening the deliveries earlier could read them before it) */
  test: (id: string, queued: () => void) => void;
  setEnabled: (id: string, enabled: boolean) => void;
  remove: (id: string) => void;
  busy: boolean;
}

function EndpointItem({ endpoint, admin, actions }: { endpoint: WebhookEndpoint; admin: boolean; actions: Actions }) {
  const headingId = `webhook-${endpoint.id}`;
  // the deliveries are fetched once opened; a test event opens them once it is queued, to be seen arriving
  const [open, setOpen] = useState(false);
  return (
    <li className="webhook" data-webhook-id={endpoint.id} aria-labelledby={headingId}>
      <div className="card-head">
        <h3 id={headingId} className="mono">
          {endpoint.url}
        </h3>
        <StatusBadges endpoint={endpoint} />
      </div>
      <dl className="fields">
        <dt>Description</dt>
        <dd>{endpoint.description ?? <span className="muted">none</span>}</dd>
        <dt>Events</dt>
        <dd>
          <ul className="chips" aria-label="Events">
            {endpoint.events.map((event) => (
              <li key={event} className="mono">
                {event}
              </li>
            ))}
          </ul>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={endpoint.created_at} />
        </dd>
      </dl>
      {admin && (
        <div className="row-actions">
          <button type="button" onClick={() => actions.test(endpoint.id, () => setOpen(true))} disabled={actions.busy}>
            Send test event
          </button>
          <button type="button" onClick={() => actions.setEnabled(endpoint.id, !endpoint.enabled)} disabled={actions.busy}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <ConfirmButton
            label="Delete"
            title="Delete this endpoint?"
            confirmLabel="Delete endpoint"
            danger
            onConfirm={() => actions.remove(endpoint.id)}
            disabled={actions.busy}
          >
            <p>
              <strong className="mono">{endpoint.url}</strong> receives no more events, and its delivery log is deleted with it. Pending deliveries are not
              sent. This cannot be undone.
            </p>
          </ConfirmButton>
        </div>
      )}
      {!endpoint.enabled && <p className="hint">Disabled: no events are sent to it until it is enabled again.</p>}
      <details className="deliveries" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>Recent deliveries</summary>
        {open && <Deliveries endpointId={endpoint.id} />}
      </details>
    </li>
  );
}

export function WebhooksSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const endpoints = useQuery({
    queryKey: ENDPOINTS,
    queryFn: () => api<Page<WebhookEndpoint>>(`/webhooks?limit=${LIST_LIMIT}`),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ENDPOINTS });
  const succeed = (message?: string) => {
    setProblem(undefined);
    setNotice(message);
    refresh();
  };
  const fail = (error: unknown) => {
    setNotice(undefined);
    setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  };

  const create = useMutation({
    mutationFn: (body: NewEndpoint) => api<{ data: CreatedWebhookEndpoint }>('/webhooks', { method: 'POST', body }),
    onSuccess: ({ data }) => {
      setCreated(data);
      succeed();
    },
    onError: fail,
  });
  const update = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => api(`/webhooks/${id}`, { method: 'PATCH', body: { enabled } }),
    onSuccess: (_data, { enabled }) => succeed(enabled ? 'Endpoint enabled.' : 'Endpoint disabled.'),
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => succeed('Endpoint deleted.'),
    onError: fail,
  });
  const test = useMutation({
    mutationFn: (id: string) => api(`/webhooks/${id}/test`, { method: 'POST' }),
    onSuccess: (_data, id) => {
      succeed('Test event queued: it shows in the deliveries below.');
      void client.invalidateQueries({ queryKey: deliveriesKey(id) });
    },
    onError: fail,
  });
  const actions: Actions = {
    test: (id, queued) => test.mutate(id, { onSuccess: queued }),
    setEnabled: (id, enabled) => update.mutate({ id, enabled }),
    remove: (id) => remove.mutate(id),
    busy: update.isPending || remove.isPending || test.isPending,
  };

  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="hint">
        Leadlight POSTs each event an endpoint subscribes to as it happens, signed the Standard Webhooks way (<code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Answer 2xx within 10 seconds; anything else is retried for at least 24 hours.
      </p>
      {created !== null && <SecretOnce created={created} onDone={() => setCreated(null)} />}
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      {notice !== undefined && <p role="status">{notice}</p>}
      <QueryView query={endpoints} loading="Loading webhook endpoints…">
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No webhook endpoints yet.{admin ? ' Add one below to receive events on your server.' : ' An admin can add one.'}</Empty>
          ) : (
            <ul className="endpoints" aria-label="Webhook endpoints">
              {page.data.map((endpoint) => (
                <EndpointItem key={endpoint.id} endpoint={endpoint} admin={admin} actions={actions} />
              ))}
            </ul>
          )
        }
      </QueryView>
      {admin && <WebhookForm pending={create.isPending} onCreate={(body, done) => create.mutate(body, { onSuccess: done })} />}
    </section>
  );
}
