/**
 * The signed-in session as the dashboard knows it: who, which workspace,
 * which role (to show or hide controls; the server enforces roles itself),
 * and the CSRF token for requests that change something.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from './api';
import type { Role, Session } from './types';

export const SESSION_KEY = ['session'] as const;

export async function fetchSession(): Promise<Session | null> {
  const { data } = await api<{ data: Session | null }>('/session');
  setCsrfToken(data?.csrf_token);
  return data;
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000, retry: false });
}

/** After sign-in, a switch of workspace or a new password: the new session, and nothing cached from the old one. */
export function adoptSession(client: QueryClient, session: Session | null): void {
  setCsrfToken(session?.csrf_token);
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  client.setQueryData(SESSION_KEY, session);
}

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };

export function can(session: Session | null | undefined, needed: Role): boolean {
  return session !== null && session !== undefined && RANK[session.role] >= RANK[needed];
}
