/**
 * A real local webhook receiver for tests (CONTRACT C8.5): an HTTP server on
 * a loopback port that records every request (headers and raw body) and
 * answers what the test decides, per request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** the status to answer to a request (default 200) */
  respond: (request: Received, index: number) => number | { status: number; headers?: Record<string, string> };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: () => 200,
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      const entry = { path: request.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(entry);
      const answer = receiver.respond(entry, receiver.received.length - 1);
      const { status, headers: extra } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      response.writeHead(status, { 'content-type': 'text/plain', ...extra });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
