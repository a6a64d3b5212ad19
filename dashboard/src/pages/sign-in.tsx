/**
 * Signing in (CONTRACT C7.1): fields labelled Email and Password, a button
 * named Sign in. A wrong password and an unknown email read the same; too
 * many failures say when to try again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { adoptSession } from '../session';
import type { Session } from '../types';

export function SignInPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { next } = useSearch({ from: '/sign-in' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => api<{ data: Session }>('/sign-in', { method: 'POST', body: { email, password } }),
    onSuccess: ({ data }) => {
      adoptSession(client, data);
      void navigate({ to: next !== undefined && next.startsWith('/') && !next.startsWith('//') ? next : '/' });
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate();
  }
  const error = signIn.error;
  return (
    <main className="auth" id="main">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Leadlight</h1>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error !== null && (
          <p className="problem" role="alert">
            {error instanceof ApiError ? error.message : 'Could not sign in.'}
          </p>
        )}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
        <p className="hint">Forgot your password? Ask an admin of your workspace for a reset link.</p>
      </form>
    </main>
  );
}
