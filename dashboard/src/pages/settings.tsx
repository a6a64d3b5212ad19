/**
 * Workspace settings (CONTRACT C7.5): the workspace and its production and
 * development last use, API keys, site keys, webhook endpoints, the ideal
 * customer, company rules, members, one's own email digest and password.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { QueryView } from '../components/states';
import { Time } from '../components/time';
import { adoptSession, useSession } from '../session';
import type { Session, WorkspaceSettings } from '../types';
import { AlertsSection } from './settings-alerts';
import { CompanyRulesSection } from './settings-company-rules';
import { DigestSection } from './settings-digest';
import { KeysSection } from './settings-keys';
import { MembersSection } from './settings-members';
import { IdealCustomerSection } from './settings-ideal-customer';
import { SiteKeysSection } from './settings-site-keys';
import { WebhooksSection } from './settings-webhooks';

function WorkspaceSection() {
  const workspace = useQuery({ queryKey: ['workspace'], queryFn: () => api<{ data: WorkspaceSettings }>('/workspace').then((body) => body.data) });
  return (
    <section className="card" aria-labelledby="workspace-title">
      <h2 id="workspace-title">Workspace</h2>
      <QueryView query={workspace}>
        {(data) => (
          <dl className="fields">
            <dt>Name</dt>
            <dd>{data.name}</dd>
            <dt>Workspace id</dt>
            <dd className="mono">{data.id}</dd>
            <dt>Production last use</dt>
            <dd data-testid="prod-last-use">
              <Time value={data.prod_last_use} exact />
            </dd>
            <dt>Development last use</dt>
            <dd data-testid="dev-last-use">
              <Time value={data.dev_last_use} exact />
            </dd>
          </dl>
        )}
      </QueryView>
    </section>
  );
}

function AccountSection() {
  const client = useQueryClient();
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) => api<{ data: Session }>('/account/password', { method: 'PUT', body }),
    onSuccess: ({ data }) => {
      adoptSession(client, data);
      setDone(true);
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    change.mutate({ current_password: String(form.get('current') ?? ''), new_password: String(form.get('next') ?? '') });
    event.currentTarget.reset();
  }
  return (
    <section className="card" aria-labelledby="account-title">
      <h2 id="account-title">Your password</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Current password
          <input name="current" type="password" autoComplete="current-password" required />
        </label>
        <label>
          New password
          <input name="next" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <button type="submit" className="primary" disabled={change.isPending}>
          Change password
        </button>
      </form>
      {change.isError && (
        <p className="problem" role="alert">
          {change.error instanceof ApiError ? change.error.message : 'Could not change the password.'}
        </p>
      )}
      {done && !change.isError && <p role="status">Password changed. Your other sessions were signed out.</p>}
    </section>
  );
}

export function SettingsPage() {
  const session = useSession();
  const current = session.data;
  if (current === undefined || current === null) return null;
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <WorkspaceSection />
      <KeysSection admin={current.role === 'admin'} />
      {current.features.site_keys && <SiteKeysSection admin={current.role === 'admin'} />}
      <WebhooksSection admin={current.role === 'admin'} />
      <AlertsSection admin={current.role === 'admin'} />
      <IdealCustomerSection admin={current.role === 'admin'} />
      <CompanyRulesSection admin={current.role === 'admin'} />
      <MembersSection session={current} />
      <DigestSection admin={current.role === 'admin'} />
      <AccountSection />
    </>
  );
}
