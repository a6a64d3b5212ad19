/**
 * /dashboard/api: the workspace settings (CONTRACT C7.5): the workspace's
 * production and development last use, its API keys (listed by anyone who
 * reads the workspace; created, rotated and revoked by admins only, through
 * the same ApiKeysService as the CLI, held to the session's workspace), and
 * its members (invitations, roles, removal, reset links: admins only).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WorkspaceUser } from '../../../schemas/resources.js';
import { passwordLinkUrl } from '../../../services/operator/account-tokens.js';
import { ownOrigin, sessionOf } from '../../dashboard/session-gate.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import {
  CreatedKeyEnvelope,
  InvitationEnvelope,
  InviteBody,
  KeyCreateBody,
  KeyListEnvelope,
  MemberEnvelope,
  MemberListEnvelope,
  MemberListQuery,
  ResetLinkEnvelope,
  RevokedKeyEnvelope,
  RoleBody,
  WorkspaceSettingsEnvelope,
} from '../../schemas/dashboard.schemas.js';
import type { DashboardRouteOptions } from './session.routes.js';

export const settingsRoutes: FastifyPluginAsyncTypebox<DashboardRouteOptions> = async (app, { services }) => {
  async function withStatus(members: WorkspaceUser[]) {
    const active = await services.accounts.withPassword(members.map((member) => member.id));
    return members.map((member) => ({ ...member, status: active.has(member.id) ? ('active' as const) : ('invited' as const) }));
  }

  app.get('/workspace', { schema: { response: { 200: WorkspaceSettingsEnvelope, ...errorResponses() } } }, async (request) => {
    const workspace = await services.workspaces.get(sessionOf(request).workspaceId);
    return {
      data: {
        id: workspace.id,
        name: workspace.name,
        created_at: workspace.created_at,
        prod_last_use: workspace.prod_last_use,
        dev_last_use: workspace.dev_last_use,
        time_zone: workspace.time_zone,
      },
    };
  });

  app.get('/keys', { schema: { response: { 200: KeyListEnvelope, ...errorResponses() } } }, async (request) => ({
    data: await services.apiKeys.list(sessionOf(request).workspaceId),
  }));

  app.post(
    '/keys',
    {
      config: { dashboardAccess: 'admin' },
      schema: { body: KeyCreateBody, response: { 201: CreatedKeyEnvelope, ...errorResponses(400, 403) } },
    },
    async (request, reply) => {
      const created = await services.apiKeys.create(sessionOf(request).workspaceId, request.body.type, request.body.name ?? null);
      reply.code(201);
      return { data: created };
    },
  );

  app.post(
    '/keys/:id/rotate',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, response: { 200: CreatedKeyEnvelope, ...errorResponses(403, 404) } },
    },
    async (request) => ({ data: await services.apiKeys.rotate(request.params.id, sessionOf(request).workspaceId) }),
  );

  app.post(
    '/keys/:id/revoke',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, response: { 200: RevokedKeyEnvelope, ...errorResponses(403, 404) } },
    },
    async (request) => ({ data: await services.apiKeys.revoke(request.params.id, sessionOf(request).workspaceId) }),
  );

  app.get(
    '/members',
    { schema: { querystring: MemberListQuery, response: { 200: MemberListEnvelope, ...errorResponses(400) } } },
    async (request) => {
      const page = pageOf(request.query);
      const result = await workspaceOf(request).users.list({ role: request.query.role }, page);
      return listBody({ items: await withStatus(result.items), total: result.total }, page);
    },
  );

  app.post(
    '/members',
    {
      config: { dashboardAccess: 'admin' },
      schema: { body: InviteBody, response: { 201: InvitationEnvelope, ...errorResponses(400, 403) } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const invitation = await services.accounts.invite(session.workspaceId, request.body, { userId: session.person.id });
      const [member] = await withStatus([await workspaceOf(request).users.get(invitation.user_id)]);
      reply.code(201);
      return {
        data: {
          member: member!,
          invite_url: invitation.link === null ? null : passwordLinkUrl(ownOrigin(request), invitation.link.token),
          expires_at: invitation.link?.expires_at ?? null,
        },
      };
    },
  );

  app.patch(
    '/members/:id',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, body: RoleBody, response: { 200: MemberEnvelope, ...errorResponses(400, 403, 404) } },
    },
    async (request) => {
      const [member] = await withStatus([await workspaceOf(request).users.changeRole(request.params.id, request.body.role)]);
      return { data: member! };
    },
  );

  app.delete(
    '/members/:id',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, response: { 204: { type: 'null' }, ...errorResponses(403, 404) } },
    },
    async (request, reply) => {
      await workspaceOf(request).users.remove(request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/members/:id/reset-link',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, response: { 200: ResetLinkEnvelope, ...errorResponses(403, 404) } },
    },
    async (request) => {
      const session = sessionOf(request);
      const link = await services.accounts.resetLinkForMember(session.workspaceId, session.person.id, request.params.id);
      return { data: { reset_url: passwordLinkUrl(ownOrigin(request), link.token), expires_at: link.expires_at } };
    },
  );
};
