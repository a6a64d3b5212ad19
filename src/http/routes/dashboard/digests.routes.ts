/**
 * /dashboard/api: digests (CONTRACT C10.4): each member reads and sets
 * their own `Email digest` in the session's workspace (whatever their role:
 * it is their own mail), and the workspace's admins set its time zone,
 * whose 08:00 sends digests.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sessionOf } from '../../dashboard/session-gate.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses } from '../../schemas/common.js';
import { DigestBody, DigestEnvelope, TimeZoneBody, TimeZoneEnvelope } from '../../schemas/digests.schemas.js';
import type { DashboardRouteOptions } from './session.routes.js';


export const digestRoutes: FastifyPluginAsyncTypebox<DashboardRouteOptions> = async (app, { services }) => {
  const timeZoneOf = async (workspaceId: string) => (await services.workspaces.get(workspaceId)).time_zone;

  app.get('/account/digest', { schema: { response: { 200: DigestEnvelope, ...errorResponses(404) } } }, async (request) => {
    const session = sessionOf(request);
    const timeZone = await timeZoneOf(session.workspaceId);
    return { data: { ...(await workspaceOf(request).digests.get(session.person.id, timeZone)), time_zone: timeZone } };
  });

  app.put('/account/digest', { schema: { body: DigestBody, response: { 200: DigestEnvelope, ...errorResponses(400, 404) } } }, async (request) => {
    const session = sessionOf(request);
    const timeZone = await timeZoneOf(session.workspaceId);
    return { data: { ...(await workspaceOf(request).digests.set(session.person.id, request.body.digest, timeZone)), time_zone: timeZone } };
  });

  app.put(
    '/workspace/time-zone',
    { config: { dashboardAccess: 'admin' }, schema: { body: TimeZoneBody, response: { 200: TimeZoneEnvelope, ...errorResponses(400, 403) } } },
    async (request) => ({ data: { time_zone: await services.workspaces.setTimeZone(sessionOf(request).workspaceId, request.body.time_zone) } }),
  );
};
