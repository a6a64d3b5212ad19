/**
 * Slow bodies do not starve the API (issue 19, audit failure 1), over real
 * sockets with the server's admission control: connections that send a
 * request's headers and then its body a few bytes at a time hold no work
 * slot while the body trickles in, so requests with a valid key are served
 * while they last; bodies of the dashboard's sign-in (sent before anyone
 * is signed in) are small, and a larger one is refused at once, without
 * reading it, and the connection closed.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_ADMISSION, DEFAULT_HTTP_LIMITS } from '../../src/config.js';
import { GENEROUS_LIMITS, GENEROUS_TRACKING, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

/** every slot of the server, as in the audit: 16 slow connections against 16 slots */
const SLOTS = DEFAULT_ADMISSION.maxInFlight;

async function until(check: () => boolean, withinMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > withinMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Trickler {
  socket: net.Socket;
  /** what the server answered so far */
  received: () => string;
  closed: () => boolean;
}

/** Sends `head` (request line and headers), then `everyMs` a few bytes of a body that never ends. */
function trickle(port: number, head: string, everyMs = 100): Trickler {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk) => (received += String(chunk)));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  socket.on('connect', () => {
    socket.write(`${head}{"key":"`);
    const timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return clearInterval(timer);
      socket.write('aaaaaaaaaa');
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  });
  return { socket, received: () => received, closed: () => closed };
}

describe.each(storeKinds())('slow clients (%s)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let app: FastifyInstance;
  let port: number;
  /** request heads the server has read, by path */
  const seen = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Patient reader');
    app = await buildApp({
      config: {
        rateLimits: GENEROUS_LIMITS,
        trustProxy: false,
        tracking: GENEROUS_TRACKING,
        http: DEFAULT_HTTP_LIMITS,
        // the server's defaults, but for the event-loop checks (this machine is shared): a read
        // that waits for a slot held by a slow body waits 10 s, then is refused
        admission: { ...DEFAULT_ADMISSION, queueTimeoutMs: 10_000, maxEventLoopDelayMs: 0 },
      },
      database: t.db.database,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
    app.server.on('request', (request: { url?: string }) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      seen.set(path, (seen.get(path) ?? 0) + 1);
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('issue 19: 16 connections trickling 400 kB bodies to POST /e and POST /api/v1/leads hold no slot; valid-key reads answer 200 meanwhile', async () => {
    const slow: Trickler[] = [];
    for (let index = 0; index < SLOTS; index += 1) {
      // half without credentials (the events endpoint), half with a valid key (a lead with a huge body)
      const head =
        index % 2 === 0
          ? 'POST /e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 400000\r\n\r\n'
          : `POST /api/v1/leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.production.key}\r\nContent-Type: application/json\r\nContent-Length: 400000\r\n\r\n`;
      slow.push(trickle(port, head));
    }
    try {
      await until(() => (seen.get('/e') ?? 0) + (seen.get('/api/v1/leads') ?? 0) >= SLOTS);
      // each has passed its gate and is reading its body: no slot is held for it
      await until(() => app.fairGate.inFlight === 0 && app.fairGate.queued === 0);

      const reads = await Promise.all(
        Array.from({ length: 2 * SLOTS }, () =>
          fetch(`http://127.0.0.1:${port}/api/v1/leads?limit=5`, {
            headers: { authorization: `Bearer ${ws.production.key}` },
            signal: AbortSignal.timeout(20_000),
          }),
        ),
      );
      expect(reads.map((response) => response.status)).toEqual(Array.from({ length: 2 * SLOTS }, () => 200));
      // the slow ones are still being read, unanswered
      for (const connection of slow) {
        expect(connection.received()).toBe("");
        expect(connection.closed()).toBe(false);
        expect(connection.received()).toBe('');
      }
    } finally {
      for (const connection of slow) connection.socket.destroy();
    }
  });

  it('issue 19: a body still arriving after BODY_GRACE_MS gives its slot back, waits for one again once it has arrived, and is served', async () => {
    const lead = JSON.stringify({ code: `in-parts-${kind}`, properties: { note: 'n'.repeat(1000) } });
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const before = seen.get('/api/v1/leads') ?? 0;
      socket.write(
        `POST /api/v1/leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.production.key}\r\nContent-Type: application/json\r\nContent-Length: ${lead.length}\r\nConnection: close\r\n\r\n${lead.slice(0, 10)}`,
      );
      await until(() => (seen.get('/api/v1/leads') ?? 0) > before);
      // admitted, then given back while the rest of the body is awaited
      await until(() => app.fairGate.inFlight === 0);
      expect(received).toBe('');
      socket.write(lead.slice(10));
      await until(() => received.includes('\r\n\r\n{'));
      expect(received).toMatch(/^HTTP\/1\.1 201 /);
      const created = await t.as(ws, { url: `/api/v1/leads?limit=100` });
      expect(created.json().data.map((row: { code: string }) => row.code)).toContain(`in-parts-${kind}`);
    } finally {
      socket.destroy();
    }
  });

  it('issue 19: a sign-in body larger than 16 KiB is refused at once with 413 and the connection closed, without reading it', async () => {
    const signIn = trickle(port, 'POST /dashboard/api/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400000\r\n\r\n');
    try {
      await until(signIn.closed, 20_000);
      const [head = '', body = ''] = signIn.received().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toMatchObject({ error: 'payload_too_large', message: expect.stringMatching(/16 KiB/) });
    } finally {
      signIn.socket.destroy();
    }
  });

  it('issue 19: a sign-in body of exactly 16 KiB is read and judged (not refused for its size)', async () => {
    const padding = 16 * 1024 - JSON.stringify({ email: 'nobody@example.com', password: '' }).length;
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'p'.repeat(padding) });
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    const response = await fetch(`http://127.0.0.1:${port}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).not.toBe(413);
    const over = await fetch(`http://127.0.0.1:${port}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `${body} `,
    });
    expect(over.status).toBe(413);
  });
});
