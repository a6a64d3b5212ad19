/**
 * Graceful shutdown under keep-alive load (issue 9, item 6): a real `serve`
 * process gets SIGTERM while clients send requests in a loop, each on its
 * own keep-alive connection. Every request a client wrote must get an
 * answer, or its connection must be refused; never a reset after the
 * request was written. Answers given while draining carry
 * `Connection: close`, so clients stop reusing connections that are about
 * to close.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

const CLIENTS = 24;

interface LoopOutcome {
  answered: number;
  closeHeaders: number;
  /** the error that ended the loop */
  ended: string;
}

function get(agent: http.Agent, url: string, key: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function loop(url: string, key: string): Promise<LoopOutcome> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const outcome: LoopOutcome = { answered: 0, closeHeaders: 0, ended: '' };
  try {
    for (;;) {
      const response = await get(agent, url, key);
      expect([200, 503]).toContain(response.status);
      outcome.answered += 1;
      if (response.connection === 'close') outcome.closeHeaders += 1;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    outcome.ended = code ?? (error as Error).message;
  } finally {
    agent.destroy();
  }
  return outcome;
}

describe('SIGTERM under a keep-alive request loop', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Shutdown');
    key = (await services.apiKeys.create(workspace.id, 'production', 'loop')).key;
    server = await startServerProcess({
      DATABASE_URL: db.url,
      RATE_LIMIT_PRODUCTION: '1000000',
      SHUTDOWN_IDLE_GRACE_MS: '300',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.destroy();
  });

  it('issue 9: every written request is answered or its connection refused, never reset', async () => {
    const loops = Array.from({ length: CLIENTS }, () => loop(`${server.url}/api/v1/leads?limit=5`, key));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const exit = server.stop('SIGTERM');
    const outcomes = await Promise.all(loops);
    expect(await exit).toBe(0);
    const endings = outcomes.map((outcome) => outcome.ended);
    expect(endings, JSON.stringify(endings)).toEqual(Array(CLIENTS).fill('ECONNREFUSED'));
    expect(outcomes.every((outcome) => outcome.answered > 0)).toBe(true);
    // the last answer on each connection told the client to close it
    expect(outcomes.filter((outcome) => outcome.closeHeaders > 0).length).toBe(CLIENTS);
  });
});
