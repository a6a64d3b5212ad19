/**
 * The frame of every signed-in page: a skip link, the navigation, the
 * workspace switcher (for people in several workspaces), who is signed in
 * and with which role, and Sign out. Without a session it sends the browser
 * to the sign-in page, remembering where it was going.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { api } from '../api';
import { adoptSession, useSession } from '../session';
import type { Session } from '../types';
import { DataAttribution } from './attribution';
import { SearchBox } from './search-box';
import { ErrorState, Loading } from './states';

const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/live', label: 'Live' },
  { to: '/leads', label: 'Leads' },
  { to: '/identities', label: 'Identities' },
  { to: '/companies', label: 'Companies' },
  { to: '/lists', label: 'Lists' },
  { to: '/settings', label: 'Settings' },
] as const;

function WorkspaceSwitcher({ session }: { session: Session }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const switcher = useMutation({
    mutationFn: (workspaceId: string) => api<{ data: Session }>('/session/workspace', { method: 'PUT', body: { workspace_id: workspaceId } }),
    onSuccess: ({ data }) => {
      adoptSession(client, data);
      void navigate({ to: '/' });
    },
  });
  if (session.workspaces.length < 2) return <span className="workspace-name">{session.workspace.name}</span>;
  return (
    <label className="workspace-switcher">
      <span className="visually-hidden">Workspace</span>
      <select value={session.workspace.id} onChange={(event) => switcher.mutate(event.target.value)} disabled={switcher.isPending}>
        {session.workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AppLayout() {
  const session = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => api<void>('/sign-out', { method: 'POST' }),
    onSettled: () => adoptSession(client, null),
  });
  const signedOut = session.data === null;
  useEffect(() => {
    // signed out here, or the session ended (a 401 anywhere)
    if (signedOut) void navigate({ to: '/sign-in', replace: true });
  }, [signedOut, navigate]);
  if (session.isPending || session.data === null) return <Loading label="Opening the dashboard…" />;
  if (session.isError) return <ErrorState error={session.error} retry={() => void session.refetch()} />;
  const current = session.data;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="brand-row">
          <Link to="/" className="brand">
            Leadlight
          </Link>
          <WorkspaceSwitcher session={current} />
        </div>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to} activeOptions={{ exact: item.to === '/' }} activeProps={{ 'aria-current': 'page', className: 'active' }}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <SearchBox />
        <div className="account">
          <span className="who" title={current.user.email}>
            {current.user.name ?? current.user.email} <span className="badge">{current.role}</span>
          </span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <DataAttribution />
    </div>
  );
}
