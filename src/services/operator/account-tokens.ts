/**
 * The secrets of dashboard accounts: session tokens and the one-time tokens
 * of invitation and reset links are 32 random bytes (base64url); only their
 * SHA-256 is stored, so the database alone cannot sign anyone in. A
 * session's CSRF token is derived from its secret token, so it is never
 * stored and cannot be derived from what is.
 */
import { createHmac, hash, randomBytes } from 'node:crypto';

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function looksLikeToken(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('leadlight dashboard csrf').digest('base64url');
}

/** The dashboard page a link opens: the token rides in the fragment, which browsers never send, so no log holds it. */
export function passwordLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/set-password#token=${token}`;
}
