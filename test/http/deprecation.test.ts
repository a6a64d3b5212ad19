/**
 * C11.6: a route marked deprecated in its config answers with Deprecation
 * (RFC 9745), Sunset (RFC 8594) and Link headers, on success and on error,
 * next to a Link it sets itself, and shows as deprecated in the OpenAPI
 * document; routes not marked carry none of them. No route of the API is
 * deprecated today, so the test registers real ones.
 */
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deprecationHeaders } from '../../src/http/plugins/deprecation.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';

const LINK = 'https://leadlight.example/docs/changelog#old-things';

describe('C11.6 deprecated routes', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    const routes: FastifyPluginAsync = async (app) => {
      app.get(
        '/old-things',
        { config: { deprecation: { since: '2026-11-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z', link: LINK } }, schema: { operationId: 'listOldThings', summary: 'Old things' } },
        async (_request, reply) => {
          reply.header('link', '<https://leadlight.example/next>; rel="next"');
          return { data: [] };
        },
      );
      app.get('/old-things/:id', { config: { deprecation: { since: '2026-11-01', link: LINK } } }, async (_request, reply) =>
        reply.code(404).send({ error: 'not_found', message: 'no such thing' }),
      );
      app.get('/new-things', { schema: { operationId: 'listNewThings', summary: 'New things' } }, async () => ({ data: [] }));
    };
    t = await createTestApp('sqlite', { extraRoutes: routes });
    ws = await t.createWorkspace('Deprecation');
  });
  afterAll(async () => t?.close());

  it('answers with Deprecation, Sunset and the deprecation Link, after the Link of the route itself', async () => {
    const answer = await t.as(ws, { method: 'GET', url: '/api/v1/old-things' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.deprecation).toBe(`@${Date.parse('2026-11-01T00:00:00Z') / 1000}`);
    expect(answer.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(answer.headers.link).toBe(
      `<https://leadlight.example/next>; rel="next", <${LINK}>; rel="deprecation"; type="text/html", <${LINK}>; rel="sunset"; type="text/html"`,
    );
  });

  it('marks error answers too; without a sunset there is no Sunset header', async () => {
    const answer = await t.as(ws, { method: 'GET', url: '/api/v1/old-things/1' });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers.deprecation).toBe('@1793491200'); // 2026-11-01T00:00:00Z
    expect(answer.headers.sunset).toBeUndefined();
    expect(answer.headers.link).toBe(`<${LINK}>; rel="deprecation"; type="text/html"`);
  });

  it('leaves routes that are not deprecated alone, and the document marks the deprecated operation', async () => {
    const answer = await t.as(ws, { method: 'GET', url: '/api/v1/new-things' });
    expect(answer.headers.deprecation).toBeUndefined();
    expect(answer.headers.sunset).toBeUndefined();
    const doc = (await t.as(ws, { method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/old-things'].get.deprecated).toBe(true);
    expect(doc.paths['/api/v1/new-things'].get.deprecated).toBeUndefined();
  });

  it('refuses a deprecation whose dates are not dates, when the route is registered', () => {
    expect(() => deprecationHeaders({ since: 'soon', link: LINK })).toThrow(/since/);
    expect(() => deprecationHeaders({ since: '2026-11-01', sunset: 'later', link: LINK })).toThrow(/sunset/);
  });
});
