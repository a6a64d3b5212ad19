/**
 * How the dashboard talks to its server: JSON over /dashboard/api with the
 * session cookie (sent by the browser, never readable here) and the
 * session's CSRF token in X-CSRF-Token on every request that changes
 * something. Errors arrive in the API's shape {error, message, details} and
 * are thrown as ApiError.
 */
export const API_BASE = '/dashboard/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;

/** Remembers the session's CSRF token (from the session endpoint or sign-in). */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function api<T>(path: string, options: { method?: Method; body?: unknown } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== undefined) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text === '' ? undefined : JSON.parse(text);
  } catch {
    payload = undefined;
  }
  if (!response.ok) {
    const error = (payload ?? {}) as { error?: string; message?: string; details?: Record<string, unknown> };
    throw new ApiError(response.status, error.error ?? 'error', error.message ?? `The server answered ${response.status}`, error.details);
  }
  return payload as T;
}

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
