/**
 * /dashboard/api: signing in and out, the session (who, which workspace,
 * which role, the CSRF token), switching workspace, password links
 * (invitations and resets) and changing one's password (CONTRACT C7.2, C7.3).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../../services/index.js';
import { effectiveRole } from '../../../services/operator/roles.js';
import type { ActiveSession } from '../../../services/operator/sessions.service.js';
import { clearSessionCookie, setSessionCookie } from '../../dashboard/session-cookie.js';
import { sessionOf, signInRequired } from '../../dashboard/session-gate.js';
import { errorResponses } from '../../schemas/common.js';
import {
  MaybeSessionEnvelope,
  PasswordChangeBody,
  RedeemBody,
  SessionEnvelope,
  SignInBody,
  SwitchWorkspaceBody,
  TokenBody,
  TokenInfoEnvelope,
} from '../../schemas/dashboard.schemas.js';

export interface DashboardRouteOptions {
  services: Services;
}

async function sessionInfo(services: Services, session: ActiveSession) {
  const memberships = await services.sessions.workspacesOf(session.person.id);
  const workspaces = memberships.map((membership) => ({ id: membership.workspace_id, name: membership.workspace_name, role: membership.role }));
  return {
    user: { id: session.person.id, email: session.person.email, name: session.person.name },
    workspace: { id: session.workspaceId, name: workspaces.find((entry) => entry.id === session.workspaceId)?.name ?? '' },
    role: session.role,
    workspaces,
    csrf_token: session.csrfToken,
    expires_at: session.expiresAt,
    // the settings page shows site keys when this is true (visitor tracking is part of the installation)
    features: { site_keys: true },
  };
}

export const sessionRoutes: FastifyPluginAsyncTypebox<DashboardRouteOptions> = async (app, { services }) => {
  await services.sessions.prepare();
  /** Sets the cookie of a new session and answers what the dashboard needs to know about it. */
  async function started(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: string) {
    setSessionCookie(request, reply, token, expiresAt);
    const session = await services.sessions.authenticate(token);
    if (session === undefined) throw signInRequired();
    reply.header('x-workspace-id', session.workspaceId);
    return { data: await sessionInfo(services, session) };
  }

  app.post(
    '/sign-in',
    {
      config: { dashboardAccess: 'public' },
      schema: { body: SignInBody, response: { 200: SessionEnvelope, ...errorResponses(400, 403) } },
    },
    async (request, reply) => {
      const signedIn = await services.sessions.signIn(request.body.email, request.body.password, request.ip);
      return started(request, reply, signedIn.token, signedIn.expires_at);
    },
  );

  app.post('/sign-out', { schema: { response: { 204: { type: 'null' }, ...errorResponses(403) } } }, async (request, reply) => {
    await services.sessions.signOut(sessionOf(request).id);
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });

  // public: signed out is an answer here ({"data": null}), so the page can ask without a 401
  app.get(
    '/session',
    { config: { dashboardAccess: 'public' }, schema: { response: { 200: MaybeSessionEnvelope, ...errorResponses() } } },
    async (request) => ({ data: request.session === null ? null : await sessionInfo(services, request.session) }),
  );

  app.put(
    '/session/workspace',
    { schema: { body: SwitchWorkspaceBody, response: { 200: SessionEnvelope, ...errorResponses(400, 403, 404) } } },
    async (request, reply) => {
      const session = sessionOf(request);
      const workspaceId = await services.sessions.switchWorkspace(session, request.body.workspace_id);
      const membership = (await services.sessions.workspacesOf(session.person.id)).find((entry) => entry.workspace_id === workspaceId);
      reply.header('x-workspace-id', workspaceId);
      const switched: ActiveSession = { ...session, workspaceId, role: membership === undefined ? session.role : effectiveRole(membership.role) };
      return { data: await sessionInfo(services, switched) };
    },
  );

  app.post(
    '/password-links/inspect',
    {
      config: { dashboardAccess: 'public' },
      schema: { body: TokenBody, response: { 200: TokenInfoEnvelope, ...errorResponses(400, 403, 404) } },
    },
    async (request) => ({ data: await services.accounts.inspect(request.body.token) }),
  );

  app.post(
    '/password-links/redeem',
    {
      config: { dashboardAccess: 'public' },
      schema: { body: RedeemBody, response: { 200: SessionEnvelope, ...errorResponses(400, 403, 404) } },
    },
    async (request, reply) => {
      const userId = await services.accounts.redeem(request.body.token, request.body.password);
      const signedIn = await services.sessions.start(userId);
      return started(request, reply, signedIn.token, signedIn.expires_at);
    },
  );

  app.put(
    '/account/password',
    { schema: { body: PasswordChangeBody, response: { 200: SessionEnvelope, ...errorResponses(400, 403) } } },
    async (request, reply) => {
      const session = sessionOf(request);
      await services.accounts.changePassword(session.person.id, request.body.current_password, request.body.new_password);
      const signedIn = await services.sessions.start(session.person.id, session.workspaceId);
      return started(request, reply, signedIn.token, signedIn.expires_at);
    },
  );
};
