/**
 * The HTTP server's bounds and headers (issue 9, items 3 and 8), over real
 * sockets: headers or a body trickled byte by byte are cut with 408 in the
 * contract's shape, oversized headers answer 431 and malformed HTTP 400 in
 * that shape, an error answered before the body was read closes the
 * connection instead of waiting for the body, connections beyond the cap are
 * closed, and API answers carry `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`. Short timeouts are configured.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../src/config.js';
import { GENEROUS_LIMITS, GENEROUS_TRACKING, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';

const LIMITS: HttpLimits = {
  ...DEFAULT_HTTP_LIMITS,
  headersTimeoutMs: 500,
  requestTimeoutMs: 1000,
  keepAliveTimeoutMs: 2000,
  maxConnections: 6,
};

interface RawExchange {
  text: string;
  /** ms from connecting until the server closed the connection */
  closedAfterMs: number;
}

/** Opens a socket, lets `drive` write to it, and collects what the server answers until it closes (or `waitMs`). */
function exchange(port: number, drive: (socket: net.Socket) => void, waitMs = 8000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedAfterMs: Number.POSITIVE_INFINITY });
    }, waitMs);
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: performance.now() - started });
    });
    socket.on('connect', () => drive(socket));
  });
}

function trickle(socket: net.Socket, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    socket.write(chunk);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

function parse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('the HTTP server bounds requests and connections', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    ws = await t.createWorkspace('Connections');
    app = await buildApp({
      config: { rateLimits: GENEROUS_LIMITS, trustProxy: false, tracking: GENEROUS_TRACKING, http: LIMITS },
      database: t.db.database,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('issue 9: headers trickled byte by byte are cut at HEADERS_TIMEOUT_MS with 408 in the error shape', async () => {
    const result = await exchange(port, (socket) => {
      socket.write('GET /api/v1/leads HTTP/1.1\r\nHost: x\r\n');
      trickle(socket, 'X', 100);
    });
    expect(result.closedAfterMs).toBeLessThan(4000);
    const response = parse(result.text);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({ error: 'request_timeout', message: expect.any(String) });
    expect(response.headers.connection).toBe('close');
  });

  it('issue 9: a body trickled byte by byte is cut at REQUEST_TIMEOUT_MS with 408 in the error shape', async () => {
    const result = await exchange(port, (socket) => {
      socket.write(
        `POST /api/v1/leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.production.key}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"code":"`,
      );
      trickle(socket, 'a', 100);
    });
    expect(result.closedAfterMs).toBeLessThan(4000);
    const response = parse(result.text);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body).error).toBe('request_timeout');
  });

  it('issue 9: an error answered before the body was read closes the connection (401 without waiting for 1 MB)', async () => {
    const result = await exchange(port, (socket) => {
      socket.write(
        'POST /api/v1/leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ll_prod_nope\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{',
      );
    });
    const response = parse(result.text);
    expect(response.status).toBe(401);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body).error).toBe('unauthorized');
    // closed by the server once answered, well before the request timeout
    expect(result.closedAfterMs).toBeLessThan(900);
  });

  it('issue 9 / C3.5: oversized headers answer 431 and malformed HTTP answers 400, both in the error shape', async () => {
    const big = await exchange(port, (socket) => {
      socket.write(`GET /api/v1/leads HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const tooLarge = parse(big.text);
    expect(tooLarge.status).toBe(431);
    expect(JSON.parse(tooLarge.body)).toEqual({ error: 'request_header_fields_too_large', message: expect.any(String) });
    expect(tooLarge.headers['content-type']).toMatch(/^application\/json/);

    const garbage = parse((await exchange(port, (socket) => socket.write('HELLO\x01 there\r\n\r\n'))).text);
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
  });

  it('issue 9: connections beyond MAX_CONNECTIONS are closed as they arrive, and served again once others close', async () => {
    const held = await Promise.all(
      Array.from({ length: LIMITS.maxConnections }, () => new Promise<net.Socket>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      })),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await exchange(port, (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), 3000);
    expect(refused.text).toBe('');
    expect(refused.closedAfterMs).toBeLessThan(3000);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const served = parse((await exchange(port, (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).text);
    expect(served.status).toBe(200);
  });

  it('issue 9: API answers, errors and probes carry Cache-Control: no-store and X-Content-Type-Options: nosniff; the tracker keeps its caching', async () => {
    const base = `http://127.0.0.1:${port}`;
    for (const [path, headers] of [
      ['/api/v1/leads', { authorization: `Bearer ${ws.production.key}` }],
      ['/api/v1/leads', {}],
      ['/api/v1/nothing-here', { authorization: `Bearer ${ws.production.key}` }],
      ['/healthz', {}],
      ['/readyz', {}],
    ] as const) {
      const response = await fetch(base + path, { headers });
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const tracker = await fetch(`${base}/t.js`);
    expect(tracker.headers.get('x-content-type-options')).toBe('nosniff');
    if (tracker.status === 200) expect(tracker.headers.get('cache-control')).toMatch(/max-age/);
  });
});
