/**
 * The first run of a workspace (CONTRACT C9.8): until its first tracked
 * event arrives, the overview opens with `Waiting for your first event`, the
 * install snippet of a site key (the queue stub included; an admin creates
 * the key right here when there is none) and examples of identify and
 * conversion. It asks the server every two seconds, so it turns to a success
 * message within five seconds of the first event, and the overview reloads.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../api';
import { can, useSession } from '../session';
import type { SiteKey, TrackingStatus } from '../types';
import { CopyButton } from './copy-button';

const POLL_MS = 2_000;

const EXAMPLES = `// when a visitor tells you who they are (a sign-up or log-in form)
leadlight.identify({ email: 'ada@example.com', name: 'Ada Lovelace', plan: 'pro' });

// when they do what you count as a lead (a trial, a demo request)
leadlight.conversion('Signed up', { code: 'trial-signup', properties: { plan: 'pro' } });`;

function Code({ label, text, copyLabel }: { label: string; text: string; copyLabel: string }) {
  return (
    <figure className="snippet">
      <figcaption className="snippet-label">{label}</figcaption>
      {/* focusable: a keyboard reaches and scrolls it (axe scrollable-region-focusable) */}
      <pre className="json" tabIndex={0} aria-label={label}>
        <code>{text}</code>
      </pre>
      <div className="secret-row">
        <CopyButton text={text} label={copyLabel} />
      </div>
    </figure>
  );
}

function InstallSnippet() {
  const session = useSession();
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['site-keys'], queryFn: () => api<{ data: SiteKey[] }>('/site-keys').then((body) => body.data) });
  const create = useMutation({
    mutationFn: () => api<{ data: SiteKey }>('/site-keys', { method: 'POST', body: { name: 'Website' } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['site-keys'] }),
  });
  if (keys.data === undefined) return <p className="muted">Loading the install snippet…</p>;
  const active = keys.data.find((key) => key.revoked_at === null);
  if (active !== undefined) {
    return <Code label="Install snippet" text={active.snippet} copyLabel="Copy snippet" />;
  }
  if (!can(session.data, 'admin')) {
    return <p>This workspace has no site key yet. Ask an admin to create one in Settings; its snippet then shows here.</p>;
  }
  return (
    <div>
      <p>The snippet needs a site key: it tells Leadlight which workspace your pages belong to. You can limit it to your site’s origins later in Settings.</p>
      <button type="button" className="primary" onClick={() => create.mutate()} disabled={create.isPending}>
        Create a site key
      </button>
      {create.error !== null && (
        <p className="problem" role="alert">
          {create.error instanceof ApiError ? create.error.message : 'The site key could not be created.'}
        </p>
      )}
    </div>
  );
}

export function FirstRun() {
  const client = useQueryClient();
  const status = useQuery({
    queryKey: ['tracking-status'],
    queryFn: () => api<{ data: TrackingStatus }>('/tracking-status').then((body) => body.data),
    refetchInterval: (query) => (query.state.data?.received_events === false ? POLL_MS : false),
  });
  const received = status.data?.received_events;
  // the success message is for the person who waited on this page, not for every later visit
  const [waited, setWaited] = useState(false);
  if (received === false && !waited) setWaited(true);
  useEffect(() => {
    if (received === true && waited) void client.invalidateQueries({ queryKey: ['overview'] });
  }, [received, waited, client]);

  if (received === undefined) return null;
  if (received) {
    return waited ? (
      <p className="notice success" role="status">
        Your first event arrived: tracking works. Visitors, pages and leads show here as they come.
      </p>
    ) : null;
  }
  return (
    <section className="card first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">
        <span className="spinner" aria-hidden="true" />
        Waiting for your first event
      </h2>
      <p>
        Put this snippet in every page of your site, before any call to <code>leadlight</code>. The first line queues calls made before the tracker has
        loaded. This page turns green within seconds of the first visit.
      </p>
      <InstallSnippet />
      <Code label="Identify a visitor and record a conversion" text={EXAMPLES} copyLabel="Copy examples" />
      <p className="hint">
        Site keys and their allowed origins are in <Link to="/settings">Settings</Link>. The tracker stores one id in the site’s own storage, or nothing
        with <code>data-cookieless</code>.
      </p>
    </section>
  );
}
