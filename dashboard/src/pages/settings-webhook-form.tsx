/**
 * The form that adds a webhook endpoint (CONTRACT C8.5), for admins: the
 * URL, an optional description and the event types as checkboxes, from the
 * catalogue the API reference documents (each with what it means). At least
 * one event is needed; the server checks the URL (no private addresses).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { QueryView } from '../components/states';
import type { WebhookEventType } from '../types';

export interface NewEndpoint {
  url: string;
  events: string[];
  description: string | null;
}

export function WebhookForm({ onCreate, pending }: { onCreate: (endpoint: NewEndpoint, done: () => void) => void; pending: boolean }) {
  const [missingEvents, setMissingEvents] = useState(false);
  const catalogue = useQuery({
    queryKey: ['webhook-events'],
    queryFn: () => api<{ data: WebhookEventType[] }>('/webhook-events').then((body) => body.data),
    staleTime: Infinity,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const events = data.getAll('events').map(String);
    setMissingEvents(events.length === 0);
    if (events.length === 0) return;
    const description = String(data.get('description') ?? '').trim();
    onCreate({ url: String(data.get('url') ?? '').trim(), events, description: description === '' ? null : description }, () => form.reset());
  }

  return (
    <form className="webhook-form" onSubmit={submit} aria-label="Add a webhook endpoint">
      <h3>New endpoint</h3>
      <label>
        Endpoint URL
        <input name="url" type="url" required maxLength={2000} placeholder="https://example.com/webhooks/leadlight" />
      </label>
      <label>
        Description
        <input name="description" maxLength={500} placeholder="e.g. CRM sync" />
      </label>
      <fieldset className="event-choices" aria-describedby={missingEvents ? 'events-missing' : undefined}>
        <legend>Events to send</legend>
        <QueryView query={catalogue} loading="Loading event types…">
          {(types) => (
            <ul>
              {types.map((type) => (
                <li key={type.type}>
                  <label title={type.description}>
                    <input type="checkbox" name="events" value={type.type} onChange={() => setMissingEvents(false)} />
                    <span className="event-choice">
                      <span className="mono">{type.type}</span>
                      <span className="hint field-hint">{type.summary}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
        {missingEvents && (
          <p id="events-missing" className="problem" role="alert">
            Choose at least one event.
          </p>
        )}
      </fieldset>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}
