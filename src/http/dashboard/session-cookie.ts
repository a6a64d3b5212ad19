/**
 * The dashboard's session cookie (CONTRACT C7.3): `leadlight_session`,
 * HttpOnly (scripts never see it), SameSite=Lax (other sites' requests do
 * not carry it, except top-level navigations, which change nothing), Secure
 * when the request came over https (with TRUST_PROXY, as the proxy's
 * X-Forwarded-Proto says), Path=/, and as long-lived as the session.
 */
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'leadlight_session';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}
