/**
 * Alerts in the workspace settings (CONTRACT C10.1–C10.3): each alert with
 * its trigger, destination, cooldown and whether it is on, and its recent
 * deliveries. Admins add alerts (a trigger; filters: a known company only,
 * countries, a minimum score; a cooldown; a Slack webhook, email recipients
 * or one of the workspace's webhooks), send a test (`Send test`) and delete
 * them after confirming;
 * members and viewers see the same list without controls.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { ConfirmButton } from '../components/confirm';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { Alert, AlertDelivery } from '../types';


const KEY = ['alerts'];
const TRIGGERS: { type: string; label: string; field?: { name: string; label: string; placeholder: string; number?: boolean } }[] = [
  { type: 'page_viewed', label: 'A page is viewed', field: { name: 'path', label: 'Page path (glob)', placeholder: '/pricing*' } },
  { type: 'conversion', label: 'A conversion' },
  { type: 'score_reached', label: 'A score is reached', field: { name: 'score', label: 'Score', placeholder: '60', number: true } },
  { type: 'company_returned', label: 'A company comes back', field: { name: 'after_days', label: 'After days away', placeholder: '14', number: true } },
  { type: 'segment_entered', label: 'A segment is entered', field: { name: 'list_id', label: 'List id', placeholder: 'a list or segment id' } },
];

function describeTrigger(trigger: Alert['trigger']): string {
  switch (trigger.type) {
    case 'page_viewed':
      return `Page viewed: ${trigger.path ?? ''}`;
    case 'score_reached':
      return `Score reaches ${trigger.score ?? ''}`;
    case 'company_returned':
      return `Company back after ${trigger.after_days ?? ''} days`;
    case 'segment_entered':
      return `Enters list ${trigger.list_id ?? ''}`;
    default:
      return 'Conversion';
  }
}

interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
}

function describeDestination(destination: Alert['destination'], webhooks: readonly WebhookEndpoint[]): string {
  if (destination.type === 'slack') return `Slack: ${destination.url ?? ''}`;
  if (destination.type === 'email') return `Email: ${(destination.to ?? []).join(', ')}`;
  const webhook = webhooks.find((entry) => entry.id === destination.webhook_id);
  return `Webhook: ${webhook?.url ?? destination.webhook_id ?? ''}`;
}

function describeFilters(filters: Alert['filters'] | undefined): string | null {
  const parts: string[] = [];
  if (filters?.company_known === true) parts.push('known companies only');
  if (filters?.countries !== undefined && filters.countries.length > 0) parts.push(`in ${filters.countries.join(', ')}`);
  if (filters?.min_score !== undefined) parts.push(`score ≥ ${filters.min_score}`);
  return parts.length === 0 ? null : parts.join(' · ');
}

function AlertDeliveries({ alert }: { alert: Alert }) {
  const deliveries = useQuery({
    queryKey: [...KEY, alert.id, 'deliveries'],
    queryFn: () => api<{ data: AlertDelivery[] }>(`/alerts/${alert.id}/deliveries?limit=10`).then((body) => body.data),
    refetchInterval: (current) => ((current.state.data ?? []).some((delivery) => delivery.status === 'pending') ? 2_000 : false),
  });
  return (
    <QueryView query={deliveries} loading="Loading deliveries…">
      {(data) =>
        data.length === 0 ? (
          <Empty>No deliveries yet.</Empty>
        ) : (
          <div className="table-wrap">
            <table aria-label={`Deliveries of ${alert.name}`}>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">About</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <Time value={delivery.created_at} />
                    </td>
                    <td className="mono">{delivery.test ? 'Test' : delivery.subject}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.last_error ?? <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryView>
  );
}

export function AlertsSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const [trigger, setTrigger] = useState('page_viewed');
  const [destination, setDestination] = useState('slack');
  const [open, setOpen] = useState<string | undefined>();
  const alerts = useQuery({ queryKey: KEY, queryFn: () => api<{ data: Alert[] }>('/alerts?limit=100').then((body) => body.data) });
  const webhooks = useQuery({ queryKey: ['webhooks', 'for-alerts'], queryFn: () => api<{ data: WebhookEndpoint[] }>('/webhooks?limit=100').then((body) => body.data) });
  const endpoints = webhooks.data ?? [];
  const refresh = () => void client.invalidateQueries({ queryKey: KEY });
  const fail = (error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  const done = () => {
    setProblem(undefined);
    refresh();
  };
  const create = useMutation({ mutationFn: (body: Record<string, unknown>) => api('/alerts', { method: 'POST', body }), onSuccess: done, onError: fail });
  const remove = useMutation({ mutationFn: (id: string) => api(`/alerts/${id}`, { method: 'DELETE' }), onSuccess: done, onError: fail });
  const test = useMutation({
    mutationFn: (id: string) => api(`/alerts/${id}/test`, { method: 'POST' }),
    onSuccess: (_answer, id) => {
      done();
      setOpen(id);
    },
    onError: fail,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const chosen = TRIGGERS.find((entry) => entry.type === trigger)!;
    const value = String(data.get('trigger_value') ?? '').trim();
    const triggerBody: Record<string, unknown> = { type: trigger };
    if (chosen.field !== undefined) triggerBody[chosen.field.name] = chosen.field.number === true ? Number(value) : value;
    const target = String(data.get('target') ?? '').trim();
    const destinationBody =
      destination === 'slack'
        ? { type: 'slack', url: target }
        : destination === 'webhook'
          ? { type: 'webhook', webhook_id: String(data.get('webhook_id') ?? '') }
          : { type: 'email', to: target.split(',').map((address) => address.trim()).filter((address) => address !== '') };
    const filters: Record<string, unknown> = {};
    if (data.get('company_known') === 'on') filters.company_known = true;
    const countries = String(data.get('countries') ?? '')
      .split(',')
      .map((country) => country.trim().toUpperCase())
      .filter((country) => country !== '');
    if (countries.length > 0) filters.countries = countries;
    const minScore = String(data.get('min_score') ?? '').trim();
    if (minScore !== '') filters.min_score = Number(minScore);
    const cooldown = String(data.get('cooldown') ?? '').trim();
    create.mutate(
      {
        name: String(data.get('name') ?? '').trim(),
        trigger: triggerBody,
        ...(Object.keys(filters).length === 0 ? {} : { filters }),
        destination: destinationBody,
        ...(cooldown === '' ? {} : { cooldown_minutes: Number(cooldown) }),
      },
      { onSuccess: () => form.reset() },
    );
  }

  const field = TRIGGERS.find((entry) => entry.type === trigger)?.field;
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alerts</h2>
      <p className="hint">
        Tell your team on Slack or by email the moment a person or company does what matters. Each alert fires at most once per person (or company)
        within its cooldown.
      </p>
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      <QueryView query={alerts} loading="Loading alerts…">
        {(data) =>
          data.length === 0 ? (
            <Empty>No alerts.{admin ? ' Add one below.' : ' An admin can add one.'}</Empty>
          ) : (
            <ul className="alert-list">
              {data.map((alert) => (
                <li key={alert.id} data-alert-id={alert.id}>
                  <p>
                    <strong>{alert.name}</strong> · {describeTrigger(alert.trigger)}
                    {describeFilters(alert.filters) !== null && <> · {describeFilters(alert.filters)}</>} ·{' '}
                    <span className="mono">{describeDestination(alert.destination, endpoints)}</span> · cooldown {alert.cooldown_minutes} min ·{' '}
                    {alert.enabled ? 'on' : 'off'}
                  </p>
                  <div className="actions">
                    <button type="button" aria-expanded={open === alert.id} onClick={() => setOpen(open === alert.id ? undefined : alert.id)}>
                      Deliveries
                    </button>
                    {admin && (
                      <>
                        <button type="button" onClick={() => test.mutate(alert.id)} disabled={test.isPending}>
                          Send test
                        </button>
                        <ConfirmButton label="Delete" title="Delete this alert?" confirmLabel="Delete alert" danger onConfirm={() => remove.mutate(alert.id)} disabled={remove.isPending}>
                          <p>
                            <strong>{alert.name}</strong> stops firing, and its deliveries log is deleted.
                          </p>
                        </ConfirmButton>
                      </>
                    )}
                  </div>
                  {open === alert.id && <AlertDeliveries alert={alert} />}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      {admin && (
        <form className="inline-form" onSubmit={submit} aria-label="Add an alert">
          <label>
            Alert name
            <input name="name" required maxLength={200} placeholder="Pricing page by a known company" />
          </label>
          <label>
            Trigger
            <select value={trigger} onChange={(event) => setTrigger(event.target.value)}>
              {TRIGGERS.map((entry) => (
                <option key={entry.type} value={entry.type}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
          {field !== undefined && (
            <label>
              {field.label}
              <input name="trigger_value" required placeholder={field.placeholder} inputMode={field.number === true ? 'numeric' : undefined} />
            </label>
          )}
          <label>
            <input name="company_known" type="checkbox" /> Known companies only
          </label>
          <label>
            Countries
            <input name="countries" placeholder="US, GB (any when empty)" />
          </label>
          <label>
            Minimum score
            <input name="min_score" type="number" min={0} max={100} step={1} placeholder="none" />
          </label>
          <label>
            Send to
            <select value={destination} onChange={(event) => setDestination(event.target.value)}>
              <option value="slack">Slack</option>
              <option value="email">Email</option>
              <option value="webhook">Webhook</option>
            </select>
          </label>
          {destination === 'webhook' ? (
            <label>
              Webhook
              <select name="webhook_id" required defaultValue="">
                <option value="" disabled>
                  {endpoints.length === 0 ? 'No webhooks: add one above' : 'Choose a webhook'}
                </option>
                {endpoints.map((endpoint) => (
                  <option key={endpoint.id} value={endpoint.id}>
                    {endpoint.description === null || endpoint.description === '' ? endpoint.url : `${endpoint.description} (${endpoint.url})`}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label>
              {destination === 'slack' ? 'Slack webhook URL' : 'Email recipients'}
              <input name="target" required placeholder={destination === 'slack' ? 'https://hooks.slack.com/services/…' : 'sales@example.com, ceo@example.com'} />
            </label>
          )}
          <label>
            Cooldown (minutes)
            <input name="cooldown" type="number" min={1} step={1} placeholder="1440" />
          </label>
          <button type="submit" disabled={create.isPending}>
            Add alert
          </button>
        </form>
      )}
    </section>
  );
}
