/**
 * Keys never reach the logs of a real `serve` process (issue 9, item 7):
 * a key put in the query string or the path (literally or percent-encoded
 * in any way), sent as X-Request-Id, in a URL the router cannot read, or in
 * headers Node refuses (431), is never written, nor its random part alone.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

const encodeAll = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

function raw(url: string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(text));
    socket.on('data', () => undefined);
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

describe('keys in a real process\'s logs', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Redaction');
    key = (await services.apiKeys.create(workspace.id, 'production', 'logged?')).key;
    server = await startServerProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await db?.destroy();
  });

  it('issue 9: no key-shaped value is logged, from the URL, X-Request-Id, a malformed URL or refused headers', async () => {
    const auth = { authorization: `Bearer ${key}` };
    await fetch(`${server.url}/api/v1/leads?api_key=${key}`, { headers: auth });
    await fetch(`${server.url}/api/v1/leads/${key}`, { headers: auth });
    await fetch(`${server.url}/api/v1/leads?token=${encodeAll(key)}`, { headers: auth });
    await fetch(`${server.url}/api/v1/${encodeAll(key)}/x`, { headers: auth });
    await fetch(`${server.url}/api/v1/leads`, { headers: { ...auth, 'x-request-id': key } });
    await raw(server.url, `GET /api/v1/leads/%zz${key} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    await raw(server.url, `GET /api/v1/leads?k=${key} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = server.output();
    expect(output).toContain('request completed');
    expect(output).toContain('[redacted]');
    expect(output).not.toContain(key);
    expect(output).not.toContain(key.slice(-30));
    expect(output.toLowerCase()).not.toContain(encodeAll(key).toLowerCase().slice(-60));
  });
});
