/**
 * C9.2 across processes: two real server processes over one PostgreSQL and
 * one Redis. A Live stream opened on one process hears, within 5 seconds,
 * of a visit whose events reached the other process (Redis pub/sub); the
 * other workspace's visits never notify it; and both processes stop
 * promptly with streams open (shutdown ends them).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import { signIn, type DashboardSession } from '../helpers/dashboard.js';
import { openLiveStream } from '../helpers/live.js';
import { postgresUrl } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { redisUrl } from '../helpers/redis.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';
import { pageView, postEvents } from '../helpers/tracking.js';

const enabled = postgresUrl() !== undefined && redisUrl() !== undefined;

describe.runIf(enabled)('C9.2: Live across two processes over PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let services: Services;
  let servers: ServerProcess[] = [];
  let session: DashboardSession;
  let siteKey: string;
  let otherSiteKey: string;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Live processes');
    const other = await services.workspaces.create('Elsewhere');
    siteKey = (await services.siteKeys.create(workspace.id, 'site', [])).key;
    otherSiteKey = (await services.siteKeys.create(other.id, 'site', [])).key;
    const email = `viewer.${randomUUID()}@example.com`;
    const invitation = await services.accounts.invite(workspace.id, { email, role: 'viewer' });
    const password = `password-${randomUUID()}`;
    await services.accounts.setPassword(invitation.user_id, password);
    servers = await Promise.all([
      startServerProcess({ DATABASE_URL: db.url, REDIS_URL: redisUrl() as string }),
      startServerProcess({ DATABASE_URL: db.url, REDIS_URL: redisUrl() as string }),
    ]);
    session = await signIn(servers[1]!.url, { email, password });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.destroy();
  });

  it('a visit received by one process is announced on a stream of the other within 5 seconds; another workspace never is', async () => {
    const [receiver, viewer] = servers as [ServerProcess, ServerProcess];
    const stream = await openLiveStream(viewer.url, { cookie: session.cookie, 'x-csrf-token': session.csrf });
    try {
      expect(stream.status).toBe(200);
      expect((await postEvents(receiver.url, otherSiteKey, [pageView(randomUUID(), '/elsewhere')])).status).toBe(202);
      await expect(stream.waitBeyond(0, 1500)).rejects.toThrow();
      const visitor = randomUUID();
      const started = Date.now();
      expect((await postEvents(receiver.url, siteKey, [pageView(visitor, '/from-the-other-process')])).status).toBe(202);
      await stream.waitBeyond(0, 5000);
      expect(Date.now() - started).toBeLessThan(5000);
      const listed = await fetch(`${viewer.url}/dashboard/api/live`, { headers: { cookie: session.cookie } });
      const { data } = (await listed.json()) as { data: { visits: { visitor_id: string }[] } };
      expect(data.visits[0]?.visitor_id).toBe(visitor);
    } finally {
      await stream.close();
    }
  });

  it('a process with open streams stops promptly: shutdown ends them', async () => {
    const stream = await openLiveStream(servers[1]!.url, { cookie: session.cookie, 'x-csrf-token': session.csrf });
    expect(stream.status).toBe(200);
    const started = Date.now();
    expect(await servers[1]!.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await stream.close();
  });
});
