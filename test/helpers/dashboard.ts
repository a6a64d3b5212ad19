/**
 * Dashboard sessions for tests, over real HTTP: people made members of a
 * workspace with a password (through the same AccountsService the CLI and
 * the members page use), signing in, and requests with the session's cookie
 * and CSRF token.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import type { TestApp } from './app.js';

export interface Person {
  id: string;
  email: string;
  password: string;
}

export interface DashboardSession {
  cookie: string;
  csrf: string;
  /** the Set-Cookie header of the sign-in */
  setCookie: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A person (new unless the email is known) made a member with `role`, with a password set. */
export async function member(t: TestApp, workspaceId: WorkspaceId, role: string, email = `person.${randomUUID()}@example.com`): Promise<Person> {
  const invitation = await t.services.accounts.invite(workspaceId, { email, role });
  const password = `password-${randomUUID()}`;
  await t.services.accounts.setPassword(invitation.user_id, password);
  return { id: invitation.user_id, email, password };
}

export async function signInAnswer(base: string, email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}/dashboard/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

export async function signIn(base: string, person: { email: string; password: string }, headers: Record<string, string> = {}): Promise<DashboardSession> {
  const answer = await signInAnswer(base, person.email, person.password, headers);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] as string, csrf: (answer.body.data as { csrf_token: string }).csrf_token, setCookie };
}

/** A dashboard request with the session's cookie and, unless told otherwise, its CSRF token. */
export async function dashboard(
  base: string,
  session: DashboardSession | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}/dashboard/api${path}`, {
    method,
    headers: {
      ...(session === undefined ? {} : { cookie: session.cookie, 'x-csrf-token': session.csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
