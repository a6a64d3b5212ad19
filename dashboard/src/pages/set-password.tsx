/**
 * The page an invitation or reset link opens: the token rides in the URL's
 * fragment (never sent to a server), the page shows whose account it is and
 * sets the password, then signs in.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { ErrorState, Loading } from '../components/states';
import { exactTime } from '../format';
import { adoptSession } from '../session';
import type { PasswordLink, Session } from '../types';

const MIN_LENGTH = 10;

function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export function SetPasswordPage() {
  const [token] = useState(tokenFromHash);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const link = useQuery({
    queryKey: ['password-link', token],
    queryFn: () => api<{ data: PasswordLink }>('/password-links/inspect', { method: 'POST', body: { token } }),
    retry: false,
  });
  const redeem = useMutation({
    mutationFn: () => api<{ data: Session }>('/password-links/redeem', { method: 'POST', body: { token, password } }),
    onSuccess: ({ data }) => {
      adoptSession(client, data);
      void navigate({ to: '/' });
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Could not set the password.'),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (password.length < MIN_LENGTH) return setProblem(`The password must have at least ${MIN_LENGTH} characters.`);
    if (password !== again) return setProblem('The two passwords differ.');
    setProblem(undefined);
    redeem.mutate();
  }
  return (
    <main className="auth" id="main">
      <div className="card auth-card">
        <h1>Set your password</h1>
        {link.isPending ? (
          <Loading />
        ) : link.isError ? (
          <ErrorState error={link.error} />
        ) : (
          <form onSubmit={submit}>
            <p>
              {link.data.data.kind === 'invite' ? 'Welcome! ' : ''}Choose a password for <strong>{link.data.data.email}</strong>. This link works until{' '}
              {exactTime(link.data.data.expires_at)}.
            </p>
            <label>
              New password
              <input type="password" autoComplete="new-password" required minLength={MIN_LENGTH} value={password} onChange={(event) => setPassword(event.target.value)} />
            </label>
            <label>
              Repeat the password
              <input type="password" autoComplete="new-password" required value={again} onChange={(event) => setAgain(event.target.value)} />
            </label>
            {problem !== undefined && (
              <p className="problem" role="alert">
                {problem}
              </p>
            )}
            <button type="submit" className="primary" disabled={redeem.isPending}>
              Set password and sign in
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
